/**
 * Variant `unknown-cursor-404`: per-stream counter IDs, and a `Last-Event-ID` the session's store
 * did not mint is answered 404 by the router before the SDK sees it (the SDK alone answers 400),
 * which is this project's policy for unplaceable cursors.
 */
import { OrderedEventStore, streamCounter } from './event-stores.js';
import { startSdkVariant } from './sdk-variant.js';

export default () => startSdkVariant({ eventStore: () => new OrderedEventStore(streamCounter), unknownCursor404: true });
