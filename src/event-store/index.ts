/**
 * Event stores for `@modelcontextprotocol/sdk` 1.x streamable HTTP servers
 * (`mcp-resume-spec/event-store`): pass one as `eventStore` to
 * `StreamableHTTPServerTransport`.
 */
export { MemoryEventStore, type MemoryEventStoreOptions } from './memory-event-store.js';
export { RedisEventStore, type RedisEventStoreOptions, type RedisStreamsClient } from './redis-event-store.js';
