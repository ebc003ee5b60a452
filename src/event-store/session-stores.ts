/**
 * One event store per streamable HTTP session, and the 404 an SDK 1.x server cannot give by itself:
 * the SDK's `StreamableHTTPServerTransport` answers a `Last-Event-ID` its store cannot place 400
 * (`getStreamIdForEventId` returned undefined) or 500 (`replayEventsAfter` threw), whatever the
 * store; the client should instead be told to re-initialize (404). Stores are per session (the SDK
 * names every session's standalone stream `_GET_stream`), so the map from session to store belongs
 * with the check: {@link SessionEventStores} owns both.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * The event stores of a server's streamable HTTP sessions, by session ID, and the check that
 * answers 404 for a resume no store can place.
 *
 * @example
 * ```ts
 * const stores = new SessionEventStores(() => new MemoryEventStore());
 * // a new session: its ID first, then its store, both given to the transport
 * const id = randomUUID();
 * const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id, eventStore: stores.open(id) });
 * transport.onclose = () => void stores.close(id);
 * // every request of a session, before the transport sees it
 * if (await stores.rejectUnplaceableCursor(req, res)) return;
 * await transport.handleRequest(req, res);
 * ```
 */
export class SessionEventStores<Store extends EventStore = EventStore> {
  private readonly stores = new Map<string, Store>();

  /** @param create - makes the store of a new session (given its ID: a Redis store keys by it) */
  constructor(private readonly create: (sessionId: string) => Store) {}

  /** Makes the store of a new session and keeps it under `sessionId`; an open session's store is returned as it is. */
  open(sessionId: string): Store {
    let store = this.stores.get(sessionId);
    if (!store) this.stores.set(sessionId, (store = this.create(sessionId)));
    return store;
  }

  /** The store of an open session, if any. */
  get(sessionId: string): Store | undefined {
    return this.stores.get(sessionId);
  }

  /** Forgets a session's store (the session ended); returns it, for the caller to release. */
  close(sessionId: string): Store | undefined {
    const store = this.stores.get(sessionId);
    this.stores.delete(sessionId);
    return store;
  }

  /** How many sessions have a store. */
  get size(): number {
    return this.stores.size;
  }

  /**
   * Whether `cursor`, presented on the session `sessionId`, names an event that session's store
   * can replay from: false for an unknown session, an unknown event, another session's, or one
   * older than the store's retention.
   */
  async canPlace(sessionId: string | undefined, cursor: string): Promise<boolean> {
    const store = sessionId === undefined ? undefined : this.stores.get(sessionId);
    if (!store?.getStreamIdForEventId) return false;
    return (await store.getStreamIdForEventId(cursor)) !== undefined;
  }

  /**
   * Answers 404 (a JSON-RPC error, `id: null`) to a GET whose `Last-Event-ID` the session's store
   * cannot place, so the client re-initializes rather than taking the transport's 400 or 500.
   * Call it before the transport's `handleRequest`; any other request is left alone.
   *
   * @returns true when it answered (the caller stops there), false when the transport should
   */
  async rejectUnplaceableCursor(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const cursor = req.headers['last-event-id'];
    if (req.method !== 'GET' || typeof cursor !== 'string') return false;
    const sessionId = req.headers['mcp-session-id'];
    if (await this.canPlace(typeof sessionId === 'string' ? sessionId : undefined, cursor)) return false;
    const body = { jsonrpc: '2.0', error: { code: -32001, message: 'Unknown Last-Event-ID: re-initialize the session' }, id: null };
    if (res.headersSent) res.end();
    else res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    return true;
  }
}
