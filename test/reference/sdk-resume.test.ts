/**
 * The SDK client's own resumption against the reference server. The POST stream of an `emit` call
 * is cut on the client side after the priming event and two notifications (a fetch wrapper ends
 * the body with an error there, as a dropped connection does); the server has sent everything, so
 * the rest is lost in flight and only a resume recovers it.
 */
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { cuttingFetch } from './cut-fetch.js';
import { connectSdk, fixtureText, startServer, until, useCleanup, withBound } from './helpers.js';

useCleanup();

test('the SDK reconnects a cut POST stream with its Last-Event-ID and gets exactly what it missed', async () => {
  const server = await startServer();
  const { fetch, cut } = cuttingFetch(3); // priming, seq 1, seq 2
  const { client, received } = await connectSdk(
    server.url,
    'streamable',
    {},
    {
      fetch,
      reconnectionOptions: { initialReconnectionDelay: 1, maxReconnectionDelay: 10, reconnectionDelayGrowFactor: 1, maxRetries: 2 },
    },
  );
  const tokens: string[] = [];
  const result = await withBound(
    client.callTool({ name: 'emit', arguments: { label: 'cut', count: 5 } }, CallToolResultSchema, {
      onresumptiontoken: (token) => tokens.push(token),
    }),
    'emit across the cut',
  );
  await withBound(cut, 'the cut');
  expect(fixtureText(result)).toEqual({ label: 'cut', executions: 1 });
  expect(received.get('cut')).toEqual([1, 2, 3, 4, 5]);

  const session = [...server.sessions.values()][0]!;
  const resumes = session.context.resumes;
  expect(resumes).toHaveLength(1);
  expect(resumes[0]).toMatchObject({ transport: 'streamable', outcome: 'replayed', crossTransport: false });
  // The SDK resumed from the last ID it parsed (seq 2's), and saw every later ID of the stream once.
  const stream = session.context.log.filter((e) => e.id === resumes[0]!.lastEventId)[0]!.stream;
  const streamIds = session.context.log.filter((e) => e.stream === stream).map((e) => e.id);
  expect(resumes[0]!.lastEventId).toBe(streamIds[2]);
  expect(tokens).toEqual(streamIds);
  expect(server.internalErrors).toEqual([]);
});

test('a new SDK client resumes the cut stream with the resumption token the first one was given', async () => {
  const server = await startServer();
  const { fetch, cut } = cuttingFetch(3);
  const first = await connectSdk(
    server.url,
    'streamable',
    {},
    {
      fetch,
      // No automatic reconnection: the application resumes by itself, with the token it kept.
      reconnectionOptions: { initialReconnectionDelay: 1, maxReconnectionDelay: 1, reconnectionDelayGrowFactor: 1, maxRetries: 0 },
    },
  );
  first.client.onerror = () => {}; // "Maximum reconnection attempts (0) exceeded." is expected here
  let token: string | undefined;
  const abandoned = first.client
    .callTool({ name: 'emit', arguments: { label: 'token', count: 5 } }, CallToolResultSchema, {
      onresumptiontoken: (t) => (token = t),
    })
    .catch((error: unknown) => error);
  await withBound(cut, 'the cut');
  await until(() => (first.received.get('token') ?? []).length === 2, 'the two notifications before the cut');
  expect(token).toBeDefined();

  const sessionId = (first.transport as StreamableHTTPClientTransport).sessionId;
  expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
  // With a session ID, the SDK client skips initialize: it rejoins the session.
  const second = await connectSdk(server.url, 'streamable', {}, { sessionId });
  const result = await withBound(
    second.client.request({ method: 'tools/call', params: { name: 'emit', arguments: { label: 'token', count: 5 } } }, CallToolResultSchema, {
      resumptionToken: token,
    }),
    'the resumed call',
  );
  // The replay carries the original call's result: the tool did not run again.
  expect(fixtureText(result)).toEqual({ label: 'token', executions: 1 });
  expect(second.received.get('token')).toEqual([3, 4, 5]);
  expect(first.received.get('token')).toEqual([1, 2]);

  await first.client.close();
  expect(await withBound(abandoned, 'the abandoned call')).toBeInstanceOf(Error);
  expect(server.internalErrors).toEqual([]);
});
