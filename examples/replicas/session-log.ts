/**
 * The event log a replica writes through the SDK's transport and follows for the GET streams it
 * holds. Two kinds, so that the replicated deployment and the broken one differ in this only:
 * - `RedisSessionLog`: shared by every replica (Redis Streams through `RedisEventStore`); a stream
 *   is followed live with `XREAD BLOCK` on a connection of its own, so events a tool call on
 *   another replica stores reach the replica holding the client's GET stream;
 * - `LocalSessionLog`: one `MemoryEventStore` per session in each replica, followed in-process;
 *   what another replica stores never arrives.
 */
import { EventEmitter } from 'node:events';
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { createClient } from 'redis';
import { MemoryEventStore, RedisEventStore } from '../../src/event-store/index.js';

type RedisClient = ReturnType<typeof createClient>;
/** What `XREAD` answers over RESP2: one entry per key read, or null when the block timed out. */
type StreamsReply = Array<{ name: string; messages: Array<{ id: string; message: Record<string, string> }> }> | null;

/** Called for each event a follower delivers; returns false to stop following. */
export type Deliver = (eventId: EventId, message: JSONRPCMessage) => boolean;

/** One replica's view of the sessions' event logs. */
export interface SessionLog {
  /** The store the SDK transport of a session writes to. */
  store(sessionId: string): EventStore;
  /** The MCP stream a cursor belongs to, or undefined if this log cannot place it. */
  locate(sessionId: string, cursor: EventId): Promise<StreamId | undefined>;
  /**
   * Where a follower of `streamId` that has no cursor starts: after everything stored so far.
   * Taken before the stream's head is sent, so nothing stored afterwards is missed.
   */
  tail(sessionId: string, streamId: StreamId): Promise<EventId | undefined>;
  /**
   * Delivers the stream's events after `after` (all of them if undefined), then every new one, until
   * `deliver` returns false, `signal` aborts, or `alive()` turns false.
   */
  follow(sessionId: string, streamId: StreamId, after: EventId | undefined, deliver: Deliver, signal: AbortSignal, alive: () => Promise<boolean>): Promise<void>;
  /** Forgets a session's events. */
  clear(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

/** How often a follower with nothing to read checks that its session still exists, ms. */
const IDLE_CHECK_MS = 1000;

/** The shared log: Redis Streams. */
export class RedisSessionLog implements SessionLog {
  private readonly followers = new Set<RedisClient>();

  constructor(private readonly client: RedisClient) {}

  store(sessionId: string): RedisEventStore {
    return new RedisEventStore({ client: this.client, sessionId });
  }

  async locate(sessionId: string, cursor: EventId): Promise<StreamId | undefined> {
    return this.store(sessionId).getStreamIdForEventId(cursor);
  }

  async tail(sessionId: string, streamId: StreamId): Promise<EventId | undefined> {
    const store = this.store(sessionId);
    const [last] = await this.client.xRevRange(store.streamKey(streamId), '+', '-', { COUNT: 1 });
    return store.eventIdOf(streamId, last?.id ?? '0-0');
  }

  async follow(sessionId: string, streamId: StreamId, after: EventId | undefined, deliver: Deliver, signal: AbortSignal, alive: () => Promise<boolean>): Promise<void> {
    const store = this.store(sessionId);
    let position = after === undefined ? '0-0' : store.entryOf(after)?.entryId;
    if (position === undefined) return;
    // A blocking read holds its connection: one per follower, closed when the follower stops.
    const reader = this.client.duplicate().on('error', () => {});
    this.followers.add(reader);
    const stop = () => reader.destroy();
    signal.addEventListener('abort', stop);
    try {
      await reader.connect();
      while (!signal.aborted) {
        const reply = (await reader.xRead({ key: store.streamKey(streamId), id: position }, { BLOCK: IDLE_CHECK_MS, COUNT: 100 })) as StreamsReply;
        const entries = reply?.[0]?.messages ?? [];
        if (entries.length === 0 && !(await alive())) return;
        for (const { id, message } of entries) {
          position = id;
          const parsed = JSON.parse(message.m ?? '{}') as JSONRPCMessage;
          if (!('jsonrpc' in parsed)) continue; // a priming event: a cursor, not a message
          if (!deliver(store.eventIdOf(streamId, id), parsed)) return;
        }
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      signal.removeEventListener('abort', stop);
      this.followers.delete(reader);
      if (reader.isOpen) reader.destroy();
    }
  }

  async clear(sessionId: string): Promise<void> {
    await this.store(sessionId).clear();
  }

  async close(): Promise<void> {
    for (const reader of this.followers) reader.destroy();
  }
}

/** Each replica's own log, in memory: what the deployment looks like with the SDK's usual per-process stores. */
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

  async follow(sessionId: string, streamId: StreamId, after: EventId | undefined, deliver: Deliver, signal: AbortSignal, alive: () => Promise<boolean>): Promise<void> {
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
