/**
 * The official `mcp` Python SDK (2.3.0, pinned in examples/python/requirements.txt) as a candidate:
 * examples/python/server.py, the fixture tools on `MCPServer`, streamable HTTP through
 * `StreamableHTTPSessionManager(event_store=InMemoryEventStore(), stateless=False)` and the legacy
 * `SseServerTransport`, started for real from the virtual environment `scripts/ensure-python.sh`
 * makes (`npm test` when this file is selected, `.ci/run`), then checked by the compiled CLI and probed over raw HTTP.
 *
 * What its design implies, and what the check finds (docs/contract.md, "Python: the official `mcp`
 * SDK"): the SDK hands one `EventStore` to every session and names a POST stream by its JSON-RPC
 * request ID, so the store cannot tell one session's stream "2" from another's, and the transport
 * replays whatever stream the store resolves a cursor to, in any session. Every resume is answered
 * 200. The same server with a store per session (`--event-store per-session`, which reaches into
 * the SDK's internals) keeps sessions apart: that is what shows the fault is the shared wiring.
 */
// @needs python (scripts/ensure-python.sh makes .venv-python/)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { legacySessionId } from '../../properties/history-view.js';
import { runCli } from '../cli/run-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const python = `${root}.venv-python/bin/python`;
const PROTOCOL = '2025-11-25';
const WAIT_MS = 20_000;

const servers: ChildProcess[] = [];
let url = '';
let perSessionUrl = '';

/** Starts examples/python/server.py on 127.0.0.1, port 0; resolves with the URL it prints. */
async function startServer(args: string[]): Promise<string> {
  if (!existsSync(python)) {
    throw new Error(`${python} is missing: run 'bash scripts/ensure-python.sh' (npm test runs it first when this file is selected)`);
  }
  const child = spawn(python, ['examples/python/server.py', '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  servers.push(child);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the Python server printed no URL in ${WAIT_MS} ms; stderr: ${stderr.slice(-800)}`)), WAIT_MS);
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n')[0]!.trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Python server exited ${code} before listening; stderr: ${stderr.slice(-800)}`));
    });
  });
}

beforeAll(async () => {
  [url, perSessionUrl] = await Promise.all([startServer([]), startServer(['--event-store', 'per-session'])]);
}, WAIT_MS + 5_000);

afterAll(async () => {
  await Promise.all(
    servers.map(async (child) => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    }),
  );
});

interface PropertyRow {
  id: string;
  level: string;
  status: string;
  reason?: string;
  counterexample?: { path: string };
}

interface Report {
  abilities: {
    transports: string[];
    fixtures: Record<string, boolean>;
    resumption?: { offered: boolean; postStreams: boolean; standaloneStream?: boolean };
  };
  properties: PropertyRow[];
}

describe('the official Python SDK (mcp 2.3.0) with an in-memory event store', () => {
  test('the CLI checks it with the probes: what it holds, and the session boundary its event store cannot see', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    // A generous bound per wait: the machine is shared with the rest of the suite, and Python is slower to answer.
    const run = await runCli(['check', '--url', url, '--json', '--runs', '0', '--no-coverage', '--quiet', '--timeout', '5000'], 120_000);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.abilities.transports.sort()).toEqual(['sse', 'streamable']);
    expect(report.abilities.fixtures).toEqual({ emit: true, emitUnsolicited: true, sessionInfo: true });
    expect(report.abilities.resumption).toMatchObject({ offered: true, postStreams: true, standaloneStream: true });
    const verdict = (id: string): PropertyRow => report.properties.find((p) => p.id === id)!;

    // A cursor minted in session A, presented with session B's ID, replays A's events to B.
    const crossSession = verdict('no-cross-session-replay');
    expect(crossSession).toMatchObject({ level: 'derived', status: 'fail', counterexample: { path: 'probe:cross-session-cursor' } });
    expect(crossSession.reason).toMatch(/^a cursor of session \w+ presented with session \w+ replayed .*notifications\/message/);
    // The transport answers every Last-Event-ID 200, whatever the store makes of it.
    expect(verdict('unknown-cursor-rejected')).toMatchObject({ level: 'policy', status: 'fail' });
    expect(verdict('unknown-cursor-rejected').reason).toMatch(/was answered 200 with a stream/);

    for (const id of [
      'event-ids-unique',
      'session-ids-visible-ascii',
      'session-ids-unguessable',
      'terminated-session-404',
      'no-silent-stall',
      'at-most-once-effect',
    ]) {
      expect(verdict(id), id).toMatchObject({ status: 'pass' });
    }

    // The published schema (report-schema.json) validates the report in another language too.
    const validation = spawnSync(
      python,
      [
        '-c',
        'import json, sys, jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(sys.stdin))',
        `${root}report-schema.json`,
      ],
      { input: run.stdout, encoding: 'utf8', timeout: WAIT_MS },
    );
    expect(validation.status, validation.stderr.slice(-1500)).toBe(0);
  }, 150_000);

  test('one session\'s resume replays another session\'s events: both POST streams are stream "2" in the shared store', async () => {
    const a = await openSession(url);
    const b = await openSession(url);
    const callA = await post(url, a, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'emit', arguments: { label: 'session-a', count: 2 } } });
    const callB = await post(url, b, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'emit', arguments: { label: 'session-b', count: 2 } } });
    expect(labels(callA)).toEqual(['session-a', 'session-a']);
    expect(labels(callB)).toEqual(['session-b', 'session-b']);
    // Session A resumes its own call's stream after its own first notification.
    const cursor = callA.find((e) => labelOf(e) === 'session-a')!.id!;
    const replay = await resume(url, a, cursor, (events) => events.some((e) => isResult(e) && labelOfResult(e) === 'session-b'));
    expect(replay.status).toBe(200);
    expect(labels(replay.events)).toEqual(['session-a', 'session-b', 'session-b']);
    expect(replay.events.filter(isResult).map(labelOfResult)).toEqual(['session-a', 'session-b']);
  }, 60_000);
});

test('the legacy endpoint event names the session as `session_id`, which the checker reads', async () => {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), WAIT_MS);
  try {
    const response = await fetch(url.replace(/\/mcp$/, '/sse'), { headers: { accept: 'text/event-stream' }, signal: abort.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!/\n\r?\n/.test(text)) text += (await reader.read()).value ?? '';
    const data = /^data: (.*)$/m.exec(text)![1]!.trim();
    expect(data).toMatch(/^\/messages\?session_id=[0-9a-f]{32}$/);
    expect(legacySessionId(data)).toBe(data.split('=')[1]);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
});

describe('the same server with one event store per session (--event-store per-session, on SDK internals)', () => {
  test('a resume replays only its own session\'s stream "2"', async () => {
    const a = await openSession(perSessionUrl);
    const b = await openSession(perSessionUrl);
    const callA = await post(perSessionUrl, a, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'emit', arguments: { label: 'session-a', count: 2 } },
    });
    await post(perSessionUrl, b, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'emit', arguments: { label: 'session-b', count: 2 } } });
    const cursor = callA.find((e) => labelOf(e) === 'session-a')!.id!;
    const replay = await resume(perSessionUrl, a, cursor, (events) => events.some(isResult));
    expect(replay.status).toBe(200);
    expect(labels(replay.events)).toEqual(['session-a']);
    expect(replay.events.filter(isResult).map(labelOfResult)).toEqual(['session-a']);
  }, 60_000);

  test("another session's cursor replays nothing, though it is still answered 200", async () => {
    const a = await openSession(perSessionUrl);
    const b = await openSession(perSessionUrl);
    const callA = await post(perSessionUrl, a, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'emit', arguments: { label: 'cursor-of-a', count: 2 } },
    });
    const cursor = callA.find((e) => labelOf(e) === 'cursor-of-a')!.id!;
    // The store answers None for a cursor it never issued; the transport then ends the stream empty.
    const replay = await resume(perSessionUrl, b, cursor, () => false);
    expect(replay.status).toBe(200);
    expect(replay.ended).toBe(true);
    expect(replay.events.filter((e) => e.data !== '')).toEqual([]);
  }, 60_000);
});

interface SseEvent {
  id?: string;
  data: string;
}

/** Parses complete SSE events out of `text` (LF or CRLF line ends); returns them and the unparsed rest. */
function parseSse(text: string): { events: SseEvent[]; rest: string } {
  const blocks = text.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const events = blocks.flatMap((block) => {
    const event: SseEvent = { data: '' };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('id:')) event.id = line.slice(3).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    event.data = data.join('\n');
    return event.id !== undefined || data.length > 0 ? [event] : [];
  });
  return { events, rest };
}

function messageOf(e: SseEvent): Record<string, unknown> | undefined {
  if (!e.data) return undefined;
  return JSON.parse(e.data) as Record<string, unknown>;
}

function labelOf(e: SseEvent): string | undefined {
  const m = messageOf(e);
  if (m?.method !== 'notifications/message') return undefined;
  return (m.params as { data: { label: string } }).data.label;
}

function labels(events: SseEvent[]): string[] {
  return events.flatMap((e) => labelOf(e) ?? []);
}

function isResult(e: SseEvent): boolean {
  return messageOf(e)?.result !== undefined;
}

function labelOfResult(e: SseEvent): string {
  const result = messageOf(e)!.result as { content: Array<{ text: string }> };
  return (JSON.parse(result.content[0]!.text) as { label: string }).label;
}

const headers = (session?: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PROTOCOL,
  ...(session ? { 'mcp-session-id': session } : {}),
});

/** POSTs one message and reads its whole SSE response (the stream ends with the response). */
async function post(endpoint: string, session: string | undefined, message: unknown): Promise<SseEvent[]> {
  const response = await fetch(endpoint, { method: 'POST', headers: headers(session), body: JSON.stringify(message), signal: AbortSignal.timeout(WAIT_MS) });
  expect(response.status).toBeLessThan(300);
  if (response.status === 202) return [];
  return parseSse(await response.text()).events;
}

/** `initialize` + `notifications/initialized`; returns the session ID. */
async function openSession(endpoint: string): Promise<string> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'python-test', version: '0' } },
    }),
    signal: AbortSignal.timeout(WAIT_MS),
  });
  expect(response.status).toBe(200);
  const session = response.headers.get('mcp-session-id');
  await response.text();
  expect(session).toBeTruthy();
  await post(endpoint, session!, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return session!;
}

/** GET with `Last-Event-ID`: reads until `done(events)` or a bound (a replay stream stays open for live traffic), then aborts. */
async function resume(
  endpoint: string,
  session: string,
  cursor: string,
  done: (events: SseEvent[]) => boolean,
): Promise<{ status: number; events: SseEvent[]; ended: boolean }> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 5_000);
  const events: SseEvent[] = [];
  let status = 0;
  let ended = false;
  try {
    const response = await fetch(endpoint, {
      method: 'GET',
      headers: { ...headers(session), accept: 'text/event-stream', 'last-event-id': cursor },
      signal: abort.signal,
    });
    status = response.status;
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    while (!done(events)) {
      const { value, done: over } = await reader.read();
      if (over) {
        ended = true;
        break;
      }
      const parsed = parseSse(buffer + value);
      buffer = parsed.rest;
      events.push(...parsed.events);
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return { status, events, ended };
}
