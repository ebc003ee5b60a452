/** Variant `uuid-ids`: event IDs are random UUIDs; the store orders by allocation, never by ID. */
import { OrderedEventStore, uuids } from './event-stores.js';
import { startSdkVariant } from './sdk-variant.js';

export default () => startSdkVariant({ eventStore: () => new OrderedEventStore(uuids) });
