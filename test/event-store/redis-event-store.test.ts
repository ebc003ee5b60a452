import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RedisEventStore } from '../../src/event-store/index.js';
import { startLocalRedis, type LocalRedis } from '../../src/check-server/candidates/local-redis.js';

const note = (seq: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { seq } } });
const seqOf = (m: JSONRPCMessage): number => (m as unknown as { params: { data: { seq: number } } }).params.data.seq;

let redis: LocalRedis;
let client: ReturnType<typeof createClient>;
let n = 0;
const sessionId = () => `session-${++n}-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  redis = await startLocalRedis();
  client = await createClient({ url: redis.url }).connect();
});
afterAll(async () => {
  await client?.quit().catch(() => {});
  await redis?.stop();
});

async function replay(store: RedisEventStore, cursor: string): Promise<{ streamId: string; sent: Array<[string, JSONRPCMessage]> }> {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const streamId = await store.replayEventsAfter(cursor, { send: async (id, message) => void sent.push([id, message]) });
  return { streamId, sent };
}

describe('RedisEventStore on a real redis-server', () => {
  test('one Redis stream per MCP stream; replay is that stream after the cursor, in order', async () => {
    const store = new RedisEventStore({ client, sessionId: sessionId() });
    const a = [];
    const b = [];
    for (let i = 0; i < 50; i++) {
      a.push(await store.storeEvent('a', note(i)));
      b.push(await store.storeEvent('b', note(1000 + i)));
    }
    expect(new Set([...a, ...b]).size).toBe(100);
    expect(await client.xLen(store.streamKey('a'))).toBe(50);
    expect(await client.xLen(store.streamKey('b'))).toBe(50);
    expect(await store.getStreamIdForEventId(a[10]!)).toBe('a');
    const { streamId, sent } = await replay(store, a[10]!);
    expect(streamId).toBe('a');
    expect(sent.map(([id]) => id)).toEqual(a.slice(11));
    expect(sent.map(([, m]) => seqOf(m))).toEqual(Array.from({ length: 39 }, (_, i) => 11 + i));
    expect((await replay(store, b[49]!)).sent).toEqual([]);
  });

  test('another process with its own store object for the same session replays what this one stored', async () => {
    const id = sessionId();
    const here = new RedisEventStore({ client, sessionId: id });
    const other = await createClient({ url: redis.url }).connect();
    try {
      const there = new RedisEventStore({ client: other, sessionId: id });
      const cursor = await here.storeEvent('_GET_stream', note(1));
      await here.storeEvent('_GET_stream', note(2));
      expect((await replay(there, cursor)).sent.map(([, m]) => seqOf(m))).toEqual([2]);
    } finally {
      await other.quit();
    }
  });

  test("cannot place another session's, a malformed or an unknown cursor, and refuses to replay from it", async () => {
    const mine = new RedisEventStore({ client, sessionId: sessionId() });
    const theirs = new RedisEventStore({ client, sessionId: sessionId() });
    const own = await mine.storeEvent('_GET_stream', note(1));
    const foreign = await theirs.storeEvent('_GET_stream', note(1));
    const entry = own.split('/')[2]!;
    for (const cursor of [foreign, 'garbage', '', `${own.split('/')[0]}/_GET_stream/9-9`, `${own.split('/')[0]}/other/${entry}`, `x/_GET_stream/${entry}`]) {
      expect(await mine.getStreamIdForEventId(cursor), cursor).toBeUndefined();
      await expect(replay(mine, cursor), cursor).rejects.toThrow(/not an event of this session|no longer retained/);
    }
  });

  test('MAXLEN keeps the newest entries; a trimmed cursor is rejected, never replayed with a gap', async () => {
    const store = new RedisEventStore({ client, sessionId: sessionId(), maxEventsPerStream: 3 });
    const ids = [];
    for (let i = 1; i <= 6; i++) ids.push(await store.storeEvent('s', note(i)));
    expect(await client.xLen(store.streamKey('s'))).toBe(3);
    expect(await store.getStreamIdForEventId(ids[2]!)).toBeUndefined();
    await expect(replay(store, ids[2]!)).rejects.toThrow(/no longer retained/);
    expect((await replay(store, ids[3]!)).sent.map(([, m]) => seqOf(m))).toEqual([5, 6]);
  });

  test('MINID trims entries older than maxAgeMs by the server clock; keys carry a TTL', async () => {
    const store = new RedisEventStore({ client, sessionId: sessionId(), maxAgeMs: 300, ttlMs: 60_000 });
    const old = await store.storeEvent('s', note(1));
    await new Promise((resolve) => setTimeout(resolve, 600));
    const fresh = await store.storeEvent('s', note(2));
    expect(await store.getStreamIdForEventId(old)).toBeUndefined();
    expect(await store.getStreamIdForEventId(fresh)).toBe('s');
    const ttl = await client.pTTL(store.streamKey('s'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  test('keys expire after ttlMs without new events', async () => {
    const store = new RedisEventStore({ client, sessionId: sessionId(), ttlMs: 200 });
    const cursor = await store.storeEvent('s', note(1));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await client.exists(store.streamKey('s'))).toBe(0);
    expect(await store.getStreamIdForEventId(cursor)).toBeUndefined();
  });

  test('a priming event is a cursor but is never replayed', async () => {
    const store = new RedisEventStore({ client, sessionId: sessionId() });
    const priming = await store.storeEvent('s', {} as JSONRPCMessage);
    const first = await store.storeEvent('s', note(1));
    expect(await store.getStreamIdForEventId(priming)).toBe('s');
    expect((await replay(store, priming)).sent).toEqual([[first, note(1)]]);
  });

  test('an entry without its message fails the replay, never passes as a priming event to skip', async () => {
    // What another writer, a damaged restore or a hand edit could leave: an entry with no m field.
    for (const fields of [{ x: '1' }, { x: 'm' }]) {
      const store = new RedisEventStore({ client, sessionId: sessionId() });
      const cursor = await store.storeEvent('s', note(1));
      const damaged = await client.xAdd(store.streamKey('s'), '*', fields);
      await store.storeEvent('s', note(2));
      await expect(replay(store, cursor), JSON.stringify(fields)).rejects.toThrow(`entry ${damaged} of MCP stream s has no message`);
    }
  });

  test('stores racing a replay are either replayed or resolve after it (never neither)', async () => {
    const store = new RedisEventStore({ client, sessionId: sessionId() });
    const cursor = await store.storeEvent('s', note(0));
    for (let round = 0; round < 20; round++) {
      let registered = false;
      const replayed = new Set<string>();
      const replaying = store.replayEventsAfter(cursor, { send: async (id) => void replayed.add(id) }).then(async () => {
        for (let i = 0; i < 5; i++) await null;
        registered = true;
      });
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => store.storeEvent('s', note(round * 10 + i)).then((id) => ({ id, registered }))));
      await replaying;
      for (const { id, registered: seen } of results) expect(replayed.has(id) || seen, id).toBe(true);
    }
  });

  test('clear() deletes every key of the session', async () => {
    const store = new RedisEventStore({ client, sessionId: sessionId() });
    await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(1));
    await store.clear();
    expect(await client.exists([store.streamKey('a'), store.streamKey('b')])).toBe(0);
  });

  test('rejects nonsensical options', () => {
    expect(() => new RedisEventStore({ client, sessionId: '' })).toThrow(RangeError);
    expect(() => new RedisEventStore({ client, sessionId: 's', maxEventsPerStream: 0 })).toThrow(RangeError);
    expect(() => new RedisEventStore({ client, sessionId: 's', ttlMs: 1.5 })).toThrow(RangeError);
  });
});
