import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { MemoryEventStore } from '../../src/event-store/index.js';

const note = (seq: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { seq } } });

async function replay(store: MemoryEventStore, cursor: string): Promise<{ streamId: string; sent: Array<[string, JSONRPCMessage]> }> {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const streamId = await store.replayEventsAfter(cursor, { send: async (id, message) => void sent.push([id, message]) });
  return { streamId, sent };
}

describe('MemoryEventStore', () => {
  test('orders events stored in the same millisecond by allocation, not by the clock', async () => {
    const store = new MemoryEventStore({ now: () => 1_000 });
    const ids = [];
    for (let i = 0; i < 200; i++) ids.push(await store.storeEvent('s', note(i)));
    expect(new Set(ids).size).toBe(200);
    const { streamId, sent } = await replay(store, ids[0]!);
    expect(streamId).toBe('s');
    expect(sent.map(([, m]) => (m as unknown as { params: { data: { seq: number } } }).params.data.seq)).toEqual(Array.from({ length: 199 }, (_, i) => i + 1));
    expect(sent.map(([id]) => id)).toEqual(ids.slice(1));
  });

  test('replays the cursor stream only, after the cursor', async () => {
    const store = new MemoryEventStore();
    const a1 = await store.storeEvent('a', note(1));
    const b1 = await store.storeEvent('b', note(101));
    const a2 = await store.storeEvent('a', note(2));
    await store.storeEvent('b', note(102));
    const a3 = await store.storeEvent('a', note(3));
    expect(await store.getStreamIdForEventId(a1)).toBe('a');
    expect(await store.getStreamIdForEventId(b1)).toBe('b');
    expect((await replay(store, a1)).sent.map(([id]) => id)).toEqual([a2, a3]);
    expect((await replay(store, a3)).sent).toEqual([]);
    expect((await replay(store, b1)).sent.map(([, m]) => m)).toEqual([note(102)]);
  });

  test("cannot place an unknown, malformed or other store's cursor, and refuses to replay from it", async () => {
    const store = new MemoryEventStore();
    const other = new MemoryEventStore();
    await store.storeEvent('_GET_stream', note(1));
    const foreign = await other.storeEvent('_GET_stream', note(1));
    for (const cursor of [foreign, 'nope', '', '-1', `${foreign.split('-')[0]}-999`, 'x-1e3']) {
      expect(await store.getStreamIdForEventId(cursor), cursor).toBeUndefined();
      await expect(replay(store, cursor)).rejects.toThrow(/unknown or expired/);
    }
  });

  test('keeps at most maxEvents, oldest out first; an evicted cursor is rejected, a retained one replays without a gap', async () => {
    const store = new MemoryEventStore({ maxEvents: 3 });
    const ids = [];
    for (let i = 1; i <= 5; i++) ids.push(await store.storeEvent('s', note(i)));
    expect(store.size).toBe(3);
    expect(await store.getStreamIdForEventId(ids[0]!)).toBeUndefined();
    expect(await store.getStreamIdForEventId(ids[1]!)).toBeUndefined();
    await expect(replay(store, ids[1]!)).rejects.toThrow(/unknown or expired/);
    expect((await replay(store, ids[2]!)).sent.map(([id]) => id)).toEqual([ids[3], ids[4]]);
  });

  test('drops events older than maxAgeMs, by the injected clock', async () => {
    let now = 0;
    const store = new MemoryEventStore({ maxAgeMs: 1_000, now: () => now });
    const old = await store.storeEvent('s', note(1));
    now = 600;
    const young = await store.storeEvent('s', note(2));
    now = 1_200;
    expect(await store.getStreamIdForEventId(old)).toBeUndefined();
    expect(await store.getStreamIdForEventId(young)).toBe('s');
    now = 1_700;
    expect(await store.getStreamIdForEventId(young)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  test('a priming event is a cursor but is never replayed', async () => {
    const store = new MemoryEventStore();
    const priming = await store.storeEvent('s', {} as JSONRPCMessage);
    const first = await store.storeEvent('s', note(1));
    expect(await store.getStreamIdForEventId(priming)).toBe('s');
    expect((await replay(store, priming)).sent).toEqual([[first, note(1)]]);
  });

  test('events stored while a replay awaits send are replayed too', async () => {
    const store = new MemoryEventStore();
    const cursor = await store.storeEvent('s', note(0));
    await store.storeEvent('s', note(1));
    const sent: number[] = [];
    let stored = 1;
    await store.replayEventsAfter(cursor, {
      send: async (_id, m) => {
        sent.push((m as unknown as { params: { data: { seq: number } } }).params.data.seq);
        if (stored < 4) void store.storeEvent('s', note(++stored));
      },
    });
    expect(sent).toEqual([1, 2, 3, 4]);
  });

  test('a store issued just after a replay returned resolves only once the transport can have registered the stream', async () => {
    const store = new MemoryEventStore();
    const cursor = await store.storeEvent('s', note(0));
    let registered = false;
    // The SDK registers the resumed stream a few microtasks after replayEventsAfter resolves.
    const replaying = store.replayEventsAfter(cursor, { send: async () => {} }).then(async () => {
      for (let i = 0; i < 5; i++) await null;
      registered = true;
    });
    await null; // the replay has made its last read: this event is not in it
    const seenRegistered = await store.storeEvent('s', note(1)).then(() => registered);
    await replaying;
    expect(seenRegistered).toBe(true);
  });

  test('rejects nonsensical bounds', () => {
    expect(() => new MemoryEventStore({ maxEvents: 0 })).toThrow(RangeError);
    expect(() => new MemoryEventStore({ maxAgeMs: -1 })).toThrow(RangeError);
  });
});
