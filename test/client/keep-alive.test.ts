import type { Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { CheckClient, type HistoryEntry } from '../../src/wire/index.js';
import { startHttp, type TestServer } from './servers.js';

let server: TestServer | undefined;
let client: CheckClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

const failures = (entries: HistoryEntry[]) => entries.filter((e) => e.type === 'failure');
const kinds = (entries: HistoryEntry[]) => entries.map((e) => `${e.type}@${'conn' in e ? e.conn : ''}`);

/**
 * A server answering pings with a JSON result, except that it drops the connection as the
 * `closeAt`-th request on one connection arrives, before answering. Counts the connections it accepted.
 */
async function pingServer(closeAt?: 1 | 2): Promise<{ connections: () => number }> {
  const seenOn = new Map<Socket, number>();
  server = await startHttp((req, res, seen) => {
    const n = (seenOn.get(req.socket) ?? 0) + 1;
    seenOn.set(req.socket, n);
    if (n === closeAt) return void req.socket.destroy();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: seen.json.id, result: {} }));
  });
  return { connections: () => seenOn.size };
}

describe('keep-alive: sockets are reused, and nothing a server does to an idle one is recorded as its answer', () => {
  test('two exchanges share one connection and record what two fresh connections would', async () => {
    const seen = await pingServer();
    client = new CheckClient({ baseUrl: server!.url, timeoutMs: 2000, keepAlive: true });
    const a = await client.ping();
    expect(await a.response()).toMatchObject({ kind: 'response' });
    const b = await client.ping();
    expect(await b.response()).toMatchObject({ kind: 'response' });
    expect(seen.connections()).toBe(1);
    expect(kinds(client.history.entries)).toEqual(['request@0', 'response@0', 'body@0', 'request@1', 'response@1', 'body@1']);
  });

  test('a kept-alive connection the server closed under the next request: the request goes out again on a new one', async () => {
    const seen = await pingServer(2);
    client = new CheckClient({ baseUrl: server!.url, timeoutMs: 2000, keepAlive: true });
    await (await client.ping()).response();
    const b = await client.ping();
    expect(b.answer).toMatchObject({ kind: 'body', status: 200 });
    expect(await b.response()).toMatchObject({ kind: 'response' });
    expect(seen.connections()).toBe(2);
    // One exchange in the history, answered; the closed socket is no failure of the server's.
    expect(failures(client.history.entries)).toEqual([]);
    expect(kinds(client.history.entries)).toEqual(['request@0', 'response@0', 'body@0', 'request@1', 'response@1', 'body@1']);
  });

  test("a new connection closed under its first request is the server's answer: recorded as a reset, not sent again", async () => {
    const seen = await pingServer(1);
    client = new CheckClient({ baseUrl: server!.url, timeoutMs: 2000, keepAlive: true });
    const a = await client.ping();
    expect(a.answer).toMatchObject({ kind: 'error', reason: 'connection-reset' });
    expect(seen.connections()).toBe(1);
    expect(failures(client.history.entries).map((e) => e.type === 'failure' && e.reason)).toEqual(['connection-reset']);
  });

  test('a tool call goes on a connection of its own and is never sent twice: a close under it is recorded as a reset', async () => {
    const sockets = new Set<Socket>();
    let toolCalls = 0;
    server = await startHttp((req, res, seen) => {
      sockets.add(req.socket);
      if (seen.json.method === 'tools/call') {
        toolCalls++;
        return void req.socket.destroy();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: seen.json.id, result: {} }));
    });
    client = new CheckClient({ baseUrl: server!.url, timeoutMs: 2000, keepAlive: true });
    await (await client.ping()).response();
    const call = await client.callTool('slow_echo', { text: 'x' });
    expect(call.answer).toMatchObject({ kind: 'error', reason: 'connection-reset' });
    expect(toolCalls).toBe(1);
    expect(sockets.size).toBe(2);
  });

  test('without keep-alive every exchange has a connection of its own', async () => {
    const seen = await pingServer(2);
    client = new CheckClient({ baseUrl: server!.url, timeoutMs: 2000 });
    await (await client.ping()).response();
    await (await client.ping()).response();
    expect(seen.connections()).toBe(2);
    expect(failures(client.history.entries)).toEqual([]);
  });
});
