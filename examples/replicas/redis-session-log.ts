/** The replicas' shared event log: Redis Streams through `RedisEventStore`, followed with `XREAD BLOCK`. */
import type { EventId, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { createClient } from 'redis';
import { RedisEventStore } from '../../src/event-store/index.js';
import { IDLE_CHECK_MS, type Deliver, type SessionLog } from './session-log.js';

type RedisClient = ReturnType<typeof createClient>;
/** What `XREAD` answers over RESP2: one entry per key read, or null when the block timed out. */
type StreamsReply = Array<{ name: string; messages: Array<{ id: string; message: Record<string, string> }> }> | null;

/** The shared log: every replica reads and writes the same Redis stream keys. */
export class RedisSessionLog implements SessionLog {
  private readonly followers = new Set<RedisClient>();

  /** @param client - the replica's connected client (followers open duplicates of it) */
  constructor(private readonly client: RedisClient) {}

  store(sessionId: string): RedisEventStore {
    return new RedisEventStore({ client: this.client, sessionId });
  }

  async locate(sessionId: string, cursor: EventId): Promise<StreamId | undefined> {
    return this.store(sessionId).getStreamIdForEventId(cursor);
  }

  async tail(sessionId: string, streamId: StreamId): Promise<EventId> {
    const store = this.store(sessionId);
    const [last] = await this.client.xRevRange(store.streamKey(streamId), '+', '-', { COUNT: 1 });
    return store.eventIdOf(streamId, last?.id ?? '0-0');
  }

  async follow(
    sessionId: string,
    streamId: StreamId,
    after: EventId | undefined,
    deliver: Deliver,
    signal: AbortSignal,
    alive: () => Promise<boolean>,
  ): Promise<void> {
    const store = this.store(sessionId);
    let position = store.entryOf(after ?? (await this.tail(sessionId, streamId)))?.entryId;
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
