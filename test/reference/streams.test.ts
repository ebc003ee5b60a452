/**
 * How machine streams map to live responses: a client's drop reaches the machine as
 * CONNECTION_LOST, messages sent meanwhile are replayed on resume and later ones arrive live on the
 * resumed response, and DELETE ends every open response of the session.
 */
import { expect, test } from 'vitest';
import { CheckClient, type Answer, type Frame, type SseStream } from '../../src/wire/index.js';
import type { ReferenceServer } from '../../src/reference/index.js';
import { defer, startServer, until, useCleanup } from './helpers.js';

useCleanup();

function client(server: ReferenceServer): CheckClient {
  const c = new CheckClient({ baseUrl: server.url, timeoutMs: 3000 });
  defer(() => c.close());
  return c;
}

function stream(answer: Answer): SseStream {
  if (answer.kind !== 'stream') throw new Error(`expected a stream, got ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.stream;
}

async function receive(s: SseStream, n: number): Promise<Frame[]> {
  const frames: Frame[] = [];
  while (frames.length < n) {
    const r = await s.receive();
    if (r.kind !== 'frame') throw new Error(`expected a frame, got ${JSON.stringify(r)}`);
    frames.push(r.frame);
  }
  return frames;
}

const seqOf = (f: Frame): number | undefined => (f.message?.params as { data?: { seq?: number } } | undefined)?.data?.seq;

test('a dropped standalone stream: messages sent meanwhile are replayed, later ones arrive live', async () => {
  const server = await startServer();
  const c = client(server);
  const init = await c.initialize();
  expect(init.ok).toBe(true);
  const session = server.sessions.get(c.session.sessionId!)!;

  const standalone = stream(await c.openStandalone());
  const [priming] = await receive(standalone, 1); // a 2025-11-25 client gets the priming event
  expect(priming).toMatchObject({ data: '', id: expect.stringMatching(/^http:/) });
  standalone.drop();
  await until(() => session.context.streams.find((s) => s.kind === 'standalone')?.connected === false, 'CONNECTION_LOST');

  const first = await (await c.callTool('emit_unsolicited', { label: 'u', count: 3 })).response();
  expect(first.kind).toBe('response');

  const resumed = stream(await c.resume({ from: standalone }));
  expect((await receive(resumed, 3)).map(seqOf)).toEqual([1, 2, 3]);
  expect(session.context.streams.find((s) => s.kind === 'standalone')?.connected).toBe(true);

  await (await c.callTool('emit_unsolicited', { label: 'u', count: 2 })).response();
  expect((await receive(resumed, 2)).map(seqOf)).toEqual([1, 2]);
  expect(server.internalErrors).toEqual([]);
});

test('resuming a stream that is still connected moves it to the new response and ends the old one', async () => {
  const server = await startServer();
  const c = client(server);
  expect((await c.initialize()).ok).toBe(true);
  const standalone = stream(await c.openStandalone());
  await receive(standalone, 1);
  const resumed = stream(await c.resume({ from: standalone }));
  expect(await standalone.receive()).toEqual({ kind: 'end' });
  await (await c.callTool('emit_unsolicited', { label: 'moved', count: 1 })).response();
  expect((await receive(resumed, 1)).map(seqOf)).toEqual([1]);
});

test('a legacy stream dropped and resumed at /sse gets what it missed, then later messages', async () => {
  const server = await startServer();
  const c = client(server);
  expect((await c.initialize({ transport: 'sse' })).ok).toBe(true);
  const legacy = c.session.legacyStream!;
  legacy.drop();
  const session = server.sessions.get(c.session.sessionId!)!;
  await until(() => session.context.streams[0]?.connected === false, 'CONNECTION_LOST');

  // Posted while no stream is connected: answered 202, the messages go to the log only.
  const missed = await c.callTool('emit', { label: 'l', count: 2 });
  expect(missed.answer).toMatchObject({ kind: 'body', status: 202 });

  const resumed = stream(await c.resume({ from: legacy }));
  const replay = await receive(resumed, 3);
  expect(replay.map((f) => seqOf(f) ?? f.message?.id)).toEqual([1, 2, missed.id]);
  const ping = await c.ping();
  const answer = await ping.response();
  expect(answer.kind === 'response' && answer.via).toBe('stream');
});

test('DELETE ends every open response of the session, quiet streams included', async () => {
  const server = await startServer({ policy: 'seed-003' });
  const c = client(server);
  expect((await c.initialize()).ok).toBe(true);
  const standalone = stream(await c.openStandalone());
  await receive(standalone, 1);
  const quiet = stream(await c.resume({ lastEventId: 'no-such-event' }));
  expect(quiet.status).toBe(200);
  const del = await c.deleteSession();
  expect(del).toMatchObject({ kind: 'body', status: 200 });
  expect(await standalone.receive()).toEqual({ kind: 'end' });
  expect(await quiet.receive()).toEqual({ kind: 'end' });
  expect(server.sessions.get(c.session.sessionId!)!.liveConnections).toBe(0);
});
