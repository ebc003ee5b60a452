/** Variant `stream-counter-ids`: event IDs `<stream>/<n>`, counted per stream. */
import { OrderedEventStore, streamCounter } from './event-stores.js';
import { startSdkVariant } from './sdk-variant.js';

export default () => startSdkVariant({ eventStore: () => new OrderedEventStore(streamCounter) });
