/**
 * Raw HTTP access to a candidate, below any MCP client, for pinning how it
 * answers edge cases (unknown sessions, foreign cursors) byte for byte.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { withBound } from './harness.js';

/** One SSE frame as read off the wire. */
export interface Frame {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/** A response: status, headers, and either a body or the SSE frames read. */
export interface RawAnswer {
  status: number;
  contentType: string;
  sessionId: string | null;
  body?: string;
  frames: Frame[];
}

/** An SSE response whose head has arrived; frames are read on demand. */
export interface RawStream {
  status: number;
  contentType: string;
  sessionId: string | null;
  frames: Frame[];
  /** Reads until `until(frames)` holds or the stream ends (bounded). */
  readUntil(until: (frames: Frame[]) => boolean): Promise<Frame[]>;
  /** Aborts the request. */
  close(): void;
}

/**
 * Sends one request and resolves as soon as the response head has arrived,
 * leaving the body to be read with `readUntil` (or, for non-SSE answers, read
 * whole into `body`).
 *
 * @param url - the full URL
 * @param init - fetch options
 * @returns the open response
 */
export async function rawStream(url: string, init: RequestInit): Promise<RawStream & { body?: string }> {
  const abort = new AbortController();
  const res = await withBound(fetch(url, { ...init, signal: abort.signal }), `${init.method ?? 'GET'} ${url}`);
  const contentType = res.headers.get('content-type') ?? '';
  const frames: Frame[] = [];
  const close = (): void => abort.abort();
  const base = { status: res.status, contentType, sessionId: res.headers.get('mcp-session-id'), frames, close };
  if (!contentType.includes('text/event-stream')) {
    const body = await withBound(res.text(), `body of ${url}`);
    return { ...base, body, readUntil: async () => frames };
  }
  const parser = createParser({
    onEvent: (e: EventSourceMessage) => frames.push({ id: e.id, event: e.event, data: e.data }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const readUntil = (until: (frames: Frame[]) => boolean): Promise<Frame[]> =>
    withBound(
      (async () => {
        while (!until(frames)) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
        }
        return frames;
      })(),
      `SSE frames of ${url}`,
    );
  return { ...base, readUntil };
}

/**
 * Sends one request. A JSON/text answer is read whole; an SSE answer is read
 * until `until(frames)` holds or the stream ends, then the request is aborted,
 * so a stream that stays open never blocks the test.
 *
 * @param url - the full URL
 * @param init - fetch options
 * @param until - when to stop reading an SSE body (default: as soon as the head has arrived)
 * @returns what was observed
 */
export async function rawRequest(url: string, init: RequestInit, until: (frames: Frame[]) => boolean = () => true): Promise<RawAnswer> {
  const stream = await rawStream(url, init);
  try {
    await stream.readUntil(until);
    const { status, contentType, sessionId, frames, body } = stream;
    return body === undefined ? { status, contentType, sessionId, frames } : { status, contentType, sessionId, frames, body };
  } finally {
    stream.close();
  }
}

/** Headers of a streamable-HTTP POST carrying JSON-RPC. */
export function streamableHeaders(sessionId?: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2025-11-25',
    ...(sessionId ? { 'Mcp-Session-Id': sessionId } : {}),
  };
}

/** A 2025-11-25 initialize request. */
export const initializeBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-probe', version: '0.0.0' } },
});

/**
 * Opens a streamable session by hand: initialize, then notifications/initialized.
 *
 * @param base - the candidate's base URL
 * @returns the session ID the candidate assigned
 */
export async function openStreamableSession(base: string): Promise<string> {
  const init = await rawRequest(`${base}/mcp`, { method: 'POST', headers: streamableHeaders(), body: initializeBody }, (f) =>
    f.some((x) => x.data.includes('"result"')),
  );
  if (!init.sessionId) throw new Error(`initialize answered ${init.status} without Mcp-Session-Id`);
  await rawRequest(`${base}/mcp`, {
    method: 'POST',
    headers: streamableHeaders(init.sessionId),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return init.sessionId;
}

/**
 * Opens a legacy HTTP+SSE session and keeps its stream open.
 *
 * @param base - the candidate's base URL
 * @param headers - extra request headers (e.g. a `Last-Event-ID`)
 * @returns the status, the `endpoint` event's session ID, the frames read so far, and a closer
 */
export async function openLegacySession(
  base: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; sessionId: string; frames: Frame[]; close(): void }> {
  const abort = new AbortController();
  const res = await withBound(fetch(`${base}/sse`, { headers: { Accept: 'text/event-stream', ...headers }, signal: abort.signal }), 'GET /sse');
  const frames: Frame[] = [];
  const parser = createParser({ onEvent: (e) => frames.push({ id: e.id, event: e.event, data: e.data }) });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let endpoint: Frame | undefined;
  await withBound(
    (async () => {
      while (!(endpoint = frames.find((f) => f.event === 'endpoint'))) {
        const { done, value } = await reader.read();
        if (done) throw new Error('legacy stream ended before its endpoint event');
        parser.feed(decoder.decode(value, { stream: true }));
      }
    })(),
    'endpoint event',
  );
  // keep draining so the server never blocks on a full socket, until closed
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // aborted by close()
    }
  })();
  const sessionId = new URL(endpoint!.data, base).searchParams.get('sessionId') ?? '';
  return { status: res.status, sessionId, frames, close: () => abort.abort() };
}
