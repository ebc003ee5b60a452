/**
 * Three SDK replicas behind our round-robin proxy (no stickiness), real child processes and a
 * real redis-server: with the log in Redis every property holds over HTTP and live events
 * cross replicas; with each replica's own in-memory log, what another replica stores never
 * reaches the client, and the checker says which property that breaks.
 */
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDeployment, type Deployment } from '../../examples/replicas/deployment.js';
import { runSuite } from '../../src/check-server/run-suite.js';
import { withBound } from '../candidates/harness.js';
import { initializeBody, streamableHeaders } from '../candidates/raw-http.js';

interface Answer {
  status: number;
  replica: string | null;
  sessionId: string | null;
  messages: unknown[];
  /** Reads until `until` holds (bounded), then returns the messages so far. */
  readUntil(until: (messages: unknown[]) => boolean, ms?: number): Promise<unknown[]>;
  close(): void;
}

/** One request through the proxy; an SSE answer is parsed as it arrives. */
async function send(base: string, init: RequestInit): Promise<Answer> {
  const abort = new AbortController();
  const res = await withBound(fetch(`${base}/mcp`, { ...init, signal: abort.signal }), `${init.method} /mcp`);
  const messages: unknown[] = [];
  const parser = createParser({ onEvent: (e) => e.data && messages.push(JSON.parse(e.data)) });
  const decoder = new TextDecoder();
  const sse = (res.headers.get('content-type') ?? '').includes('text/event-stream');
  const reader = sse ? res.body!.getReader() : undefined;
  if (!sse) {
    const text = await withBound(res.text(), 'body');
    if (text) messages.push(JSON.parse(text));
  }
  const readUntil = (until: (m: unknown[]) => boolean, ms?: number) =>
    withBound(
      (async () => {
        while (sse && !until(messages)) {
          const { done, value } = await reader!.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
        }
        return messages;
      })(),
      'SSE messages',
      ms,
    );
  return {
    status: res.status,
    replica: res.headers.get('x-replica'),
    sessionId: res.headers.get('mcp-session-id'),
    messages,
    readUntil,
    close: () => abort.abort(),
  };
}

const hasResult = (id: number) => (ms: unknown[]) => ms.some((m) => (m as { id?: unknown }).id === id && 'result' in (m as object));
const unsolicited = (label: string) => (ms: unknown[]) =>
  ms.filter((m) => (m as { params?: { data?: { label?: string } } }).params?.data?.label === label).length;

async function openSession(base: string): Promise<string> {
  const init = await send(base, { method: 'POST', headers: streamableHeaders(), body: initializeBody });
  await init.readUntil(hasResult(1));
  init.close();
  expect(init.sessionId).toBeTruthy();
  const ack = await send(base, {
    method: 'POST',
    headers: streamableHeaders(init.sessionId!),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(ack.status).toBe(202);
  return init.sessionId!;
}

/** Opens the standalone stream, then has `emit_unsolicited` send 3 notifications; returns what arrived. */
async function unsolicitedAcrossReplicas(base: string): Promise<{ streamReplica: string | null; callReplica: string | null; arrived: number }> {
  const sessionId = await openSession(base);
  const stream = await send(base, { method: 'GET', headers: { ...streamableHeaders(sessionId), Accept: 'text/event-stream' } });
  expect(stream.status).toBe(200);
  const label = `cross-${Math.random().toString(36).slice(2, 8)}`;
  const call = await send(base, {
    method: 'POST',
    headers: streamableHeaders(sessionId),
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'emit_unsolicited', arguments: { label, count: 3 } } }),
  });
  await call.readUntil(hasResult(7));
  call.close();
  // The notifications were stored before the result was sent: give the stream a generous bound to carry them.
  const arrived = await stream
    .readUntil((ms) => unsolicited(label)(ms) >= 3, 5_000)
    .then(
      (ms) => unsolicited(label)(ms),
      () => unsolicited(label)(stream.messages),
    );
  stream.close();
  return { streamReplica: stream.replica, callReplica: call.replica, arrived };
}

/** Calls `emit` (2 notifications), keeps only the first notification's event ID, then resumes from it through the proxy. */
async function resumeOnAnotherReplica(base: string): Promise<{ callReplica: string | null; resume: Answer }> {
  const sessionId = await openSession(base);
  const abort = new AbortController();
  const res = await withBound(
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: streamableHeaders(sessionId),
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'emit', arguments: { label: 'resume', count: 2 } } }),
      signal: abort.signal,
    }),
    'POST emit',
  );
  let cursor: string | undefined;
  const parser = createParser({ onEvent: (e) => void (e.data.includes('"seq":1') && (cursor = e.id)) });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  await withBound(
    (async () => {
      while (cursor === undefined) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    })(),
    'the first notification',
  );
  abort.abort();
  expect(cursor).toBeTruthy();
  const resume = await send(base, { method: 'GET', headers: { ...streamableHeaders(sessionId), Accept: 'text/event-stream', 'Last-Event-ID': cursor! } });
  return { callReplica: res.headers.get('x-replica'), resume };
}

describe('replicas sharing Redis', () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await startDeployment({ log: 'redis', compiled: true });
  }, 200_000);
  afterAll(async () => {
    await deployment?.stop();
  });

  test('requests of one session go round the replicas, each served', async () => {
    const sessionId = await openSession(deployment.url);
    const replicas = new Set<string | null>();
    for (let id = 2; id <= 4; id++) {
      const list = await send(deployment.url, {
        method: 'POST',
        headers: streamableHeaders(sessionId),
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }),
      });
      expect(list.status).toBe(200);
      await list.readUntil(hasResult(id));
      list.close();
      replicas.add(list.replica);
    }
    expect(replicas.size).toBe(3);
  });

  test('notifications a tool sends on one replica reach the standalone stream another replica holds', async () => {
    const { streamReplica, callReplica, arrived } = await unsolicitedAcrossReplicas(deployment.url);
    expect(streamReplica).not.toBe(callReplica);
    expect(arrived).toBe(3);
  });

  test('a stream dropped on one replica resumes on another, with what it had not delivered', async () => {
    const { callReplica, resume } = await resumeOnAnotherReplica(deployment.url);
    expect(resume.replica).not.toBe(callReplica);
    expect(resume.status).toBe(200);
    const messages = await resume.readUntil(hasResult(9));
    resume.close();
    expect(messages.map((m) => (m as { params?: { data?: { seq?: number } } }).params?.data?.seq ?? 'result')).toEqual([2, 'result']);
  });

  test('the checker passes every property the deployment serves (streamable HTTP only)', async () => {
    const report = await runSuite({ name: 'replicas+redis', url: deployment.url }, { runs: 20, seed: 20261201, timeoutMs: 3000 });
    expect(report.abilities?.transports).toEqual(['streamable']);
    for (const p of report.properties) {
      if (p.id === 'no-cross-transport-resume') expect(p.status, p.reason).toBe('skip');
      else expect(p.status, `${p.id}: ${p.reason}`).toBe('pass');
    }
  }, 180_000);
});

describe('replicas with in-memory logs (each its own)', () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await startDeployment({ log: 'memory', compiled: true });
  }, 200_000);
  afterAll(async () => {
    await deployment?.stop();
  });

  test('a stream dropped on one replica cannot be resumed on another: its cursor is unknown there (404)', async () => {
    const { callReplica, resume } = await resumeOnAnotherReplica(deployment.url);
    resume.close();
    expect(resume.replica).not.toBe(callReplica);
    expect(resume.status).toBe(404);
  });

  test('notifications a tool sends on one replica never reach the standalone stream another replica holds', async () => {
    const { streamReplica, callReplica, arrived } = await unsolicitedAcrossReplicas(deployment.url);
    expect(streamReplica).not.toBe(callReplica);
    expect(arrived).toBe(0);
  });

  // Which replica a request lands on depends on the scenarios in flight beside it, so this runs the
  // concurrent coverage scenarios, not one replayed path: a replay alone always sends the resume to
  // the replica two after the standalone stream's, where the cursor is unknown (404). The loss shows
  // only when a resume lands on the replica holding the stream's log, so up to three checks (fixed
  // seeds) are run, and the first that fails must say why; none failing fails the test.
  test('the checker says why: no-silent-loss, an unsolicited notification the resumed standalone stream never carried', async () => {
    const verdicts: string[] = [];
    for (const seed of [20261201, 1, 2]) {
      const report = await runSuite({ name: 'replicas+memory', url: deployment.url }, { runs: 10, seed, only: ['no-silent-loss'], timeoutMs: 3000 });
      const [loss] = report.properties;
      verdicts.push(`seed ${seed}: ${loss!.status} (${loss!.reason})`);
      if (loss!.status !== 'fail') continue;
      expect(loss!.reason).toMatch(/accepted a resume .* never got unsolicited notification/);
      return;
    }
    expect.fail(`no check found the loss:\n${verdicts.join('\n')}`);
  }, 240_000);
});
