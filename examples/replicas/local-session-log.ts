/** Each replica's own event log, in memory: the deployment as the SDK's per-process stores make it. */
import { EventEmitter } from 'node:events';
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MemoryEventStore } from '../../src/event-store/index.js';
import { IDLE_CHECK_MS, type Deliver, type SessionLog } from './session-log.js';

/** Each replica's own log, in memory: one `MemoryEventStore` per session, followed through an in-process emitter. */
export class LocalSessionLog implements SessionLog {
  private readonly stores = new Map<string, MemoryEventStore>();
  private readonly stored = new EventEmitter().setMaxListeners(0);

  store(sessionId: string): EventStore {
    let store = this.stores.get(sessionId);
    if (!store) this.stores.set(sessionId, (store = new MemoryEventStore()));
    const inner = store;
    return {
      storeEvent: async (streamId, message) => {
        const eventId = await inner.storeEvent(streamId, message);
        this.stored.emit(`${sessionId}\n${streamId}`, eventId, message);
        return eventId;
      },
      getStreamIdForEventId: (eventId) => inner.getStreamIdForEventId(eventId),
      replayEventsAfter: (eventId, options) => inner.replayEventsAfter(eventId, options),
    };
  }

  async locate(sessionId: string, cursor: EventId): Promise<StreamId | undefined> {
    return this.stores.get(sessionId)?.getStreamIdForEventId(cursor);
  }

  async tail(): Promise<EventId | undefined> {
    return undefined;
  }

  async follow(
    sessionId: string,
    streamId: StreamId,
    after: EventId | undefined,
    deliver: Deliver,
    signal: AbortSignal,
    alive: () => Promise<boolean>,
  ): Promise<void> {
    const topic = `${sessionId}\n${streamId}`;
    const seen = new Set<EventId>();
    let done = false;
    let wake: () => void = () => {};
    const onEvent = (eventId: EventId, message: JSONRPCMessage): void => {
      if (done || seen.has(eventId) || !('jsonrpc' in message)) return;
      seen.add(eventId);
      if (!deliver(eventId, message)) finish();
    };
    const finish = (): void => {
      done = true;
      wake();
    };
    this.stored.on(topic, onEvent);
    signal.addEventListener('abort', finish);
    try {
      const store = this.stores.get(sessionId);
      if (after !== undefined && store) await store.replayEventsAfter(after, { send: async (id, message) => onEvent(id, message) });
      while (!done) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, IDLE_CHECK_MS);
        });
        if (!done && !(await alive())) return;
      }
    } finally {
      this.stored.off(topic, onEvent);
      signal.removeEventListener('abort', finish);
    }
  }

  async clear(sessionId: string): Promise<void> {
    this.stores.delete(sessionId);
  }

  async close(): Promise<void> {}
}
