/**
 * `SessionEventStores`: one store per session, and the 404 before the SDK's transport for a GET
 * whose Last-Event-ID no store of that session can place; every other request is left alone.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryEventStore, SessionEventStores } from '../../src/event-store/index.js';

let http: Server | undefined;
afterEach(async () => {
  http?.closeAllConnections();
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  http = undefined;
});

/** A server whose every request goes through `rejectUnplaceableCursor` first; 299 when it is left alone. */
async function serve(stores: SessionEventStores): Promise<string> {
  http = createServer((req, res) => {
    void stores.rejectUnplaceableCursor(req, res).then((answered) => {
      if (!answered) res.writeHead(299).end();
    });
  });
  await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

describe('SessionEventStores', () => {
  test('one store per session: made once, found by its ID, forgotten on close', () => {
    const made: string[] = [];
    const stores = new SessionEventStores((id) => {
      made.push(id);
      return new MemoryEventStore();
    });
    const a = stores.open('a');
    expect(stores.open('a')).toBe(a);
    expect(stores.open('b')).not.toBe(a);
    expect(made).toEqual(['a', 'b']);
    expect([stores.get('a'), stores.size]).toEqual([a, 2]);
    expect(stores.close('a')).toBe(a);
    expect([stores.get('a'), stores.size]).toEqual([undefined, 1]);
  });

  test('a GET with a cursor its session cannot place is answered 404; a placeable one, and anything else, is left alone', async () => {
    const stores = new SessionEventStores(() => new MemoryEventStore());
    const own = await stores.open('s1').storeEvent('_GET_stream', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 1 } });
    const other = await stores.open('s2').storeEvent('_GET_stream', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 2 } });
    const url = await serve(stores);
    const get = async (headers: Record<string, string>, method = 'GET') => {
      const response = await fetch(url, { method, headers, signal: AbortSignal.timeout(10_000) });
      return { status: response.status, body: await response.text() };
    };
    const refused = await get({ 'mcp-session-id': 's1', 'last-event-id': 'nope' });
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Unknown Last-Event-ID: re-initialize the session' },
      id: null,
    });
    // Another session's event, an unknown session, no session: none can be placed.
    expect((await get({ 'mcp-session-id': 's1', 'last-event-id': other })).status).toBe(404);
    expect((await get({ 'mcp-session-id': 'gone', 'last-event-id': own })).status).toBe(404);
    expect((await get({ 'last-event-id': own })).status).toBe(404);
    // Placeable, no cursor, or not a GET: the transport's to answer.
    expect((await get({ 'mcp-session-id': 's1', 'last-event-id': own })).status).toBe(299);
    expect((await get({ 'mcp-session-id': 's1' })).status).toBe(299);
    expect((await get({ 'mcp-session-id': 's1', 'last-event-id': 'nope' }, 'DELETE')).status).toBe(299);
  });
});
