/**
 * How each candidate answers the resumption edge cases the checker cares about,
 * pinned as observed (characterization, not judgement: some of these answers
 * break properties in docs/properties.md, which is what the checker is there to report).
 * A failure here means the candidate's behaviour changed, e.g. on an upgrade.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { RunningCandidate, StartCandidate } from '../../src/check-server/candidates/adapter.js';
import startMcpProxy from '../../src/check-server/candidates/mcp-proxy.js';
import startSdk from '../../src/check-server/candidates/sdk.js';
import { openLegacySession, openStreamableSession, rawRequest, rawStream, streamableHeaders, type RawAnswer } from './raw-http.js';

interface JsonRpcErrorAnswer {
  status: number;
  code: number;
  message: string;
}

interface Observed {
  /** A legacy (GET /sse) session ID presented as Mcp-Session-Id at /mcp. */
  legacySessionAtMcp: JsonRpcErrorAnswer;
  /** GET /mcp of a live session with a Last-Event-ID the session never issued. */
  garbageCursor: { status: number; contentType: RegExp; error?: Omit<JsonRpcErrorAnswer, 'status'> };
  /** Event IDs on a POST response stream (request-related events). */
  postStreamEventId: RegExp;
  /** Event IDs on the standalone GET stream. */
  getStreamEventId: RegExp;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const candidates: Array<[string, StartCandidate, Observed]> = [
  [
    '@modelcontextprotocol/sdk',
    startSdk,
    {
      legacySessionAtMcp: { status: 400, code: -32000, message: 'Bad Request: Session exists but uses a different transport protocol' },
      // The example InMemoryEventStore has no getStreamIdForEventId, so the transport cannot tell the cursor is unknown.
      garbageCursor: { status: 200, contentType: /^text\/event-stream/ },
      postStreamEventId: new RegExp(`^${UUID}_\\d+_[0-9a-z]{1,8}$`),
      getStreamEventId: /^_GET_stream_\d+_[0-9a-z]{1,8}$/,
    },
  ],
  [
    'mcp-proxy',
    startMcpProxy,
    {
      legacySessionAtMcp: { status: 404, code: -32001, message: 'Session not found' },
      garbageCursor: { status: 400, contentType: /^application\/json/, error: { code: -32000, message: 'Invalid event ID format' } },
      postStreamEventId: new RegExp(`^${UUID}_\\d+_[0-9a-z]{4}_[0-9a-z]{0,3}$`),
      getStreamEventId: /^_GET_stream_\d+_[0-9a-z]{4}_[0-9a-z]{0,3}$/,
    },
  ],
];

function jsonRpcError(answer: RawAnswer): { code: unknown; message: unknown } {
  const parsed = JSON.parse(answer.body ?? '') as { error?: { code?: unknown; message?: unknown } };
  return { code: parsed.error?.code, message: parsed.error?.message };
}

const emitCall = (id: number, tool: string, label: string, count: number): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: { label, count } } });

describe.each(candidates)('observed answers of %s', (_name, start, observed) => {
  let running: RunningCandidate | undefined;
  const closers: Array<() => void> = [];

  afterEach(async () => {
    for (const close of closers.splice(0)) close();
    await running?.stop();
    running = undefined;
  });

  test('an unknown Mcp-Session-Id gets 404 Session not found on POST, GET and DELETE', async () => {
    running = await start();
    for (const method of ['POST', 'GET', 'DELETE']) {
      const answer = await rawRequest(`${running.url}/mcp`, {
        method,
        headers: { ...streamableHeaders('no-such-session'), Accept: 'application/json, text/event-stream' },
        ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) } : {}),
      });
      expect({ method, status: answer.status, ...jsonRpcError(answer) }).toEqual({ method, status: 404, code: -32001, message: 'Session not found' });
    }
  });

  test('a legacy session ID presented at /mcp', async () => {
    running = await start();
    const legacy = await openLegacySession(running.url);
    closers.push(legacy.close);
    for (const method of ['POST', 'GET']) {
      const answer = await rawRequest(`${running.url}/mcp`, {
        method,
        headers: streamableHeaders(legacy.sessionId),
        ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) } : {}),
      });
      expect({ method, status: answer.status, ...jsonRpcError(answer) }).toEqual({ method, ...observed.legacySessionAtMcp });
    }
  });

  test('GET /mcp with a Last-Event-ID the session never issued', async () => {
    running = await start();
    const sessionId = await openStreamableSession(running.url);
    const answer = await rawRequest(`${running.url}/mcp`, {
      method: 'GET',
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sessionId, 'Last-Event-ID': 'garbage-123' },
    });
    expect(answer.status).toBe(observed.garbageCursor.status);
    expect(answer.contentType).toMatch(observed.garbageCursor.contentType);
    if (observed.garbageCursor.error) expect(jsonRpcError(answer)).toEqual(observed.garbageCursor.error);
  });

  test('streamable frames carry event IDs in the store format; legacy frames carry none', async () => {
    running = await start();
    const sessionId = await openStreamableSession(running.url);
    const post = await rawRequest(
      `${running.url}/mcp`,
      { method: 'POST', headers: streamableHeaders(sessionId), body: emitCall(2, 'emit', 'ids', 2) },
      (frames) => frames.some((f) => f.data.includes('"result"')),
    );
    // a priming event (id, empty data) first, since the request declared 2025-11-25; then 2 notifications and the result
    expect(post.frames.map((f) => f.data === '')).toEqual([true, false, false, false]);
    for (const frame of post.frames) expect(frame.id).toMatch(observed.postStreamEventId);
    expect(new Set(post.frames.map((f) => f.id)).size).toBe(post.frames.length);

    // Once the GET's head has arrived the transport has registered the stream, so unsolicited messages go there live.
    const get = await rawStream(`${running.url}/mcp`, { method: 'GET', headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sessionId } });
    closers.push(get.close);
    await rawRequest(
      `${running.url}/mcp`,
      { method: 'POST', headers: streamableHeaders(sessionId), body: emitCall(3, 'emit_unsolicited', 'unsolicited-ids', 2) },
      (frames) => frames.some((f) => f.data.includes('"result"')),
    );
    const delivered = await get.readUntil((frames) => frames.length >= 2);
    expect(delivered.map((f) => (JSON.parse(f.data) as { params: { data: unknown } }).params.data)).toEqual([
      { label: 'unsolicited-ids', seq: 1 },
      { label: 'unsolicited-ids', seq: 2 },
    ]);
    for (const frame of delivered) expect(frame.id).toMatch(observed.getStreamEventId);

    const legacy = await openLegacySession(running.url);
    closers.push(legacy.close);
    expect(legacy.frames.every((f) => f.id === undefined)).toBe(true);
  });

  test('GET /sse with a Last-Event-ID opens a new session', async () => {
    running = await start();
    const first = await openLegacySession(running.url);
    closers.push(first.close);
    const again = await openLegacySession(running.url, { 'Last-Event-ID': 'anything' });
    closers.push(again.close);
    expect(again.status).toBe(200);
    expect(again.sessionId).not.toBe(first.sessionId);
    expect(again.sessionId).not.toBe('');
  });
});
