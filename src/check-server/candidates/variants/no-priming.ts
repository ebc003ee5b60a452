/**
 * Variant `no-priming`: resumable (UUID event IDs), but it negotiates protocol 2025-06-18, so the
 * SDK opens no stream with a priming event: the first cursor a stream offers is its first message's.
 */
import { OrderedEventStore, uuids } from './event-stores.js';
import { startSdkVariant } from './sdk-variant.js';

export default () => startSdkVariant({ eventStore: () => new OrderedEventStore(uuids), protocolVersion: '2025-06-18', unknownCursor404: true });
