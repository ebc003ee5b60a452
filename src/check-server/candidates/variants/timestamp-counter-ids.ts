/** Variant `timestamp-counter-ids`: event IDs `<Date.now()>-<n>`; many share a millisecond, the counter orders them. */
import { OrderedEventStore, timestampCounter } from './event-stores.js';
import { startSdkVariant } from './sdk-variant.js';

export default () => startSdkVariant({ eventStore: () => new OrderedEventStore(timestampCounter) });
