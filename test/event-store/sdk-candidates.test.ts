/**
 * The official SDK deployed with each of our event stores passes every property over HTTP; and
 * what the SDK's transport itself answers an unplaceable cursor, whatever the store (why the
 * deployment answers 404 before the transport sees the cursor).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport, type EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, test } from 'vitest';
import type { RunningCandidate, StartCandidate } from '../../src/check-server/candidates/adapter.js';
import startMemory from '../../src/check-server/candidates/sdk-memory-store.js';
import startRedis from '../../src/check-server/candidates/sdk-redis-store.js';
import { MemoryEventStore } from '../../src/event-store/index.js';
import { runSuite } from '../../src/check-server/run-suite.js';
import { initializeBody, openStreamableSession, rawRequest, streamableHeaders } from '../candidates/raw-http.js';

let running: RunningCandidate | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe.each<[string, StartCandidate]>([
  ['MemoryEventStore', startMemory],
  ['RedisEventStore', startRedis],
])('SDK + %s', (name, start) => {
  test('every property passes over the probes, model coverage and 30 interleavings', async () => {
    running = await start();
    expect(running.name).toBe(`@modelcontextprotocol/sdk + ${name}`);
    const report = await runSuite({ name: running.name, url: running.url }, { runs: 30, seed: 20261201, timeoutMs: 3000 });
    expect(report.abilities?.transports.sort()).toEqual(['sse', 'streamable']);
    for (const p of report.properties) {
      expect(p.status, `${p.id}: ${p.reason}`).toBe('pass');
      expect(p.runs, p.id).toBeGreaterThan(0);
    }
  }, 120_000);

  test('an unknown cursor is answered 404 by the deployment', async () => {
    running = await start();
    const sessionId = await openStreamableSession(running.url);
    const answer = await rawRequest(`${running.url}/mcp`, {
      method: 'GET',
      headers: { ...streamableHeaders(sessionId), Accept: 'text/event-stream', 'Last-Event-ID': 'not-an-event' },
    });
    expect(answer.status).toBe(404);
  });
});

describe('the SDK transport alone, given an unplaceable cursor', () => {
  let http: Server | undefined;
  afterEach(async () => {
    http?.closeAllConnections();
    await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
    http = undefined;
  });

  /** One session, the transport answering every request itself (no routing in front). */
  async function serveOneSession(eventStore: EventStore): Promise<string> {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => 'the-session', eventStore });
    await new McpServer({ name: 'bare', version: '0.0.0' }).connect(transport);
    http = createServer((req, res) => void transport.handleRequest(req, res));
    await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    await rawRequest(`${url}/mcp`, { method: 'POST', headers: streamableHeaders(), body: initializeBody }, (f) => f.some((x) => x.data.includes('"result"')));
    return url;
  }

  const resume = (url: string) =>
    rawRequest(`${url}/mcp`, { method: 'GET', headers: { ...streamableHeaders('the-session'), Accept: 'text/event-stream', 'Last-Event-ID': 'unknown' } });

  test('answers 400 when getStreamIdForEventId returns undefined', async () => {
    const url = await serveOneSession(new MemoryEventStore());
    const answer = await resume(url);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('Invalid event ID format');
  });

  test('answers 500 when the store has no getStreamIdForEventId and replayEventsAfter throws', async () => {
    const store = new MemoryEventStore();
    const withoutLookup: EventStore = { storeEvent: (s, m) => store.storeEvent(s, m), replayEventsAfter: (c, o) => store.replayEventsAfter(c, o) };
    const url = await serveOneSession(withoutLookup);
    const answer = await resume(url);
    expect(answer.status).toBe(500);
    expect(answer.body).toContain('Error replaying events');
  });
});
