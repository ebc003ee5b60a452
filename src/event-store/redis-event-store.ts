/**
 * An `EventStore` for `@modelcontextprotocol/sdk` 1.x on Redis Streams, through
 * node-redis (`redis` 5): one Redis stream per MCP stream of a session, so a
 * replay is one exclusive `XRANGE` of one key. Several server processes may
 * share it: any of them can replay what another stored.
 */
import { createHash } from 'node:crypto';
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isPrimingMessage } from './priming.js';
import { ReplayBarrier } from './replay-barrier.js';

/**
 * The node-redis calls the store makes. A client from `createClient()` of the
 * `redis` package (RESP2 or RESP3) fits; so does a cluster client, since one
 * session's keys share a hash slot.
 */
export interface RedisStreamsClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  xRange(key: string, start: string, end: string): Promise<Array<{ id: string; message: Record<string, string> }>>;
}

/** Where a {@link RedisEventStore} keeps one session's log, and for how long. */
export interface RedisEventStoreOptions {
  /** A connected node-redis client. The store never connects or quits it. */
  client: RedisStreamsClient;
  /** The MCP session this store belongs to (`Mcp-Session-Id`). */
  sessionId: string;
  /** Key prefix. Default `mcp`. Keys are `<prefix>:{<sessionId>}:stream:<streamId>`. */
  prefix?: string;
  /** Most entries kept per MCP stream (`XADD MAXLEN =`). Default 10 000. */
  maxEventsPerStream?: number;
  /** Entries older than this are trimmed on each store (`XTRIM MINID`, by the Redis server's clock), ms. Default 30 minutes. */
  maxAgeMs?: number;
  /** Keys expire this long after the last event stored on them (`PEXPIRE`), ms. Default `maxAgeMs`. */
  ttlMs?: number;
}

/** Appends one entry, trims by count (in XADD) and by age (server clock), refreshes the TTLs, indexes the key. */
const STORE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[2], '*', 'm', ARGV[1])
local floor = now - tonumber(ARGV[3])
if floor > 0 then redis.call('XTRIM', KEYS[1], 'MINID', tostring(floor)) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('SADD', KEYS[2], KEYS[1])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return id`;

/** Atomically: nothing if the cursor's entry is gone (a replay from it would have a gap), else every entry after it. */
const REPLAY = `
if #redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1]) == 0 then return false end
return redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+')`;

/** Deletes every stream key of the session and the index. */
const CLEAR = `
local keys = redis.call('SMEMBERS', KEYS[1])
for _, key in ipairs(keys) do redis.call('DEL', key) end
redis.call('DEL', KEYS[1])
return #keys`;

type RawEntry = [string, string[]];

/** The value of an entry's `m` field (its fields are name, value, name, value...). */
function messageField(fields: readonly string[]): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === 'm') return fields[i + 1];
  return undefined;
}

/**
 * One session's event log in Redis. Create one per session and transport (it is
 * cheap: it holds no connection of its own).
 *
 * Event IDs are `<session tag>/<MCP stream ID>/<Redis entry ID>`; the tag (a hash
 * of the session ID) makes another session's cursor unknown here. Redis entry
 * IDs only grow within a key, even if the server clock steps back, so order
 * within a stream never depends on the clock.
 *
 * @example
 * ```ts
 * const redis = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * const sessionId = randomUUID();
 * const transport = new StreamableHTTPServerTransport({
 *   sessionIdGenerator: () => sessionId,
 *   eventStore: new RedisEventStore({ client: redis, sessionId }),
 * });
 * ```
 */
export class RedisEventStore implements EventStore {
  private readonly client: RedisStreamsClient;
  private readonly prefix: string;
  private readonly tag: string;
  private readonly maxEvents: number;
  private readonly maxAgeMs: number;
  private readonly ttlMs: number;
  private readonly barrier = new ReplayBarrier();

  /**
   * @param options - the client, the session and the retention bounds
   * @throws RangeError if a bound is not a positive integer or the session ID is empty
   */
  constructor(private readonly options: RedisEventStoreOptions) {
    this.client = options.client;
    this.prefix = options.prefix ?? 'mcp';
    this.maxEvents = options.maxEventsPerStream ?? 10_000;
    this.maxAgeMs = options.maxAgeMs ?? 30 * 60_000;
    this.ttlMs = options.ttlMs ?? this.maxAgeMs;
    if (!options.sessionId) throw new RangeError('sessionId must not be empty');
    for (const [name, value] of [
      ['maxEventsPerStream', this.maxEvents],
      ['maxAgeMs', this.maxAgeMs],
      ['ttlMs', this.ttlMs],
    ] as const) {
      if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`${name} must be a positive integer, got ${value}`);
    }
    this.tag = createHash('sha256').update(options.sessionId).digest('hex').slice(0, 12);
  }

  /** The Redis key of one MCP stream of this session. */
  streamKey(streamId: StreamId): string {
    return `${this.prefix}:{${this.options.sessionId}}:stream:${streamId}`;
  }

  /** Stores `message` on `streamId` and returns its event ID. */
  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    return this.barrier.store(streamId, async () => {
      const entryId = await this.client.eval(STORE, {
        keys: [this.streamKey(streamId), this.indexKey()],
        arguments: [JSON.stringify(message), String(this.maxEvents), String(this.maxAgeMs), String(this.ttlMs)],
      });
      return this.eventIdOf(streamId, String(entryId));
    });
  }

  /** The stream `eventId` belongs to, or `undefined` if it is not this session's or its entry is no longer retained. */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const cursor = this.entryOf(eventId);
    if (!cursor) return undefined;
    const found = await this.client.xRange(this.streamKey(cursor.streamId), cursor.entryId, cursor.entryId);
    return found.length > 0 ? cursor.streamId : undefined;
  }

  /**
   * Sends every event of the cursor's stream stored after it, in order, and returns the stream's ID.
   *
   * @throws Error if the cursor is not this session's or its entry was trimmed or expired: a replay
   *   from it would have a gap; or if an entry after it holds no message (after sending those before it)
   */
  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const cursor = this.entryOf(lastEventId);
    if (!cursor) throw new Error(`Last-Event-ID ${JSON.stringify(lastEventId)} is not an event of this session`);
    const end = this.barrier.begin(cursor.streamId);
    try {
      const entries = (await this.client.eval(REPLAY, { keys: [this.streamKey(cursor.streamId)], arguments: [cursor.entryId] })) as RawEntry[] | null;
      if (!entries) throw new Error(`Last-Event-ID ${JSON.stringify(lastEventId)} is no longer retained`);
      let last = await this.sendEntries(cursor.streamId, entries, send, cursor.entryId);
      // Stores issued before the read may land after it: wait for them and read on from the last entry sent.
      for (let pending = this.barrier.pending(cursor.streamId); pending.length > 0; pending = this.barrier.pending(cursor.streamId)) {
        await Promise.allSettled(pending);
        const more = await this.client.xRange(this.streamKey(cursor.streamId), `(${last}`, '+');
        last = await this.sendEntries(
          cursor.streamId,
          more.map(({ id, message }) => [id, Object.entries(message).flat()] as RawEntry),
          send,
          last,
        );
      }
      return cursor.streamId;
    } finally {
      end();
    }
  }

  /** Deletes every key of this session (call it when the session ends). */
  async clear(): Promise<void> {
    await this.client.eval(CLEAR, { keys: [this.indexKey()], arguments: [] });
  }

  private async sendEntries(
    streamId: StreamId,
    entries: RawEntry[],
    send: (eventId: EventId, message: JSONRPCMessage) => Promise<void>,
    last: string,
  ): Promise<string> {
    for (const [entryId, fields] of entries) {
      const raw = messageField(fields);
      // Not '{}' in its place: that would read as a priming event and be skipped, an event lost without a word.
      if (raw === undefined)
        throw new Error(`Redis entry ${entryId} of MCP stream ${streamId} has no message (field m): the replay cannot go on without a gap`);
      const message = JSON.parse(raw) as JSONRPCMessage;
      if (!isPrimingMessage(message)) await send(this.eventIdOf(streamId, entryId), message);
      last = entryId;
    }
    return last;
  }

  private indexKey(): string {
    return `${this.prefix}:{${this.options.sessionId}}:streams`;
  }

  /**
   * The event ID of a Redis entry of one of this session's MCP streams (for processes that read
   * the stream keys themselves, e.g. to follow a stream live with `XREAD BLOCK`).
   */
  eventIdOf(streamId: StreamId, entryId: string): EventId {
    return `${this.tag}/${streamId}/${entryId}`;
  }

  /**
   * Where an event ID points: its MCP stream and Redis entry ID, or `undefined` if it is malformed or
   * another session's. Says nothing of whether the entry is still retained.
   */
  entryOf(eventId: EventId): { streamId: StreamId; entryId: string } | undefined {
    const first = eventId.indexOf('/');
    const last = eventId.lastIndexOf('/');
    if (first < 0 || last <= first || eventId.slice(0, first) !== this.tag) return undefined;
    const streamId = eventId.slice(first + 1, last);
    const entryId = eventId.slice(last + 1);
    if (!streamId || !/^\d{1,20}-\d{1,20}$/.test(entryId)) return undefined;
    return { streamId, entryId };
  }
}
