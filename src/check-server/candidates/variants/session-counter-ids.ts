/** Variant `session-counter-ids`: event IDs `1`, `2`, ... counted per session, so every session reuses them (unique within one). */
import { OrderedEventStore, sessionCounter } from './event-stores.js';
import { startSdkVariant } from './sdk-variant.js';

export default () => startSdkVariant({ eventStore: () => new OrderedEventStore(sessionCounter) });
