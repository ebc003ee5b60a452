/**
 * Event stores for `@modelcontextprotocol/sdk` 1.x streamable HTTP servers
 * (`mcp-resume-spec/event-store`): pass one as `eventStore` to
 * `StreamableHTTPServerTransport`, one per session: `SessionEventStores` keeps them by session
 * and answers 404 for a resume no store can place (the transport would answer 400 or 500).
 */
export { MemoryEventStore, type MemoryEventStoreOptions } from './memory-event-store.js';
export { RedisEventStore, type RedisEventStoreOptions, type RedisStreamsClient } from './redis-event-store.js';
export { SessionEventStores } from './session-stores.js';
