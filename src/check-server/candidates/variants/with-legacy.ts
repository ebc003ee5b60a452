/**
 * Variant `with-legacy`: streamable HTTP with resumption (session-counter IDs, unknown cursors 404)
 * beside the legacy HTTP+SSE transport, whose sessions end with their `GET /sse` connection and
 * whose session IDs are unknown (404) at `/mcp`.
 */
import { OrderedEventStore, sessionCounter } from './event-stores.js';
import { startSdkVariant } from './sdk-variant.js';

export default () => startSdkVariant({ eventStore: () => new OrderedEventStore(sessionCounter), unknownCursor404: true, legacy: true });
