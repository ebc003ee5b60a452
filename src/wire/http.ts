/**
 * The raw HTTP exchange: send one request with `node:http`, wait (bounded) for its status line and
 * headers, and read a whole non-SSE body (bounded). Everything is recorded; nothing throws.
 */
import http from 'node:http';
import https from 'node:https';
import type { Endpoint, Purpose } from '../../properties/history.js';
import { isObject } from '../../properties/messages.js';
import type { Transport } from '../../model/transport.js';
import type { HistoryRecorder } from './history-recorder.js';
import type { FailureReason, Headers } from './stream-types.js';
import { patientTimeout } from './patient-timer.js';

/** Something the client can sever when it closes; `abort` records a `drop` entry. */
export interface Abortable {
  readonly conn: number;
  abort(): void;
}

/** What the exchange layer needs from its client. */
export interface ExchangeContext {
  readonly recorder: HistoryRecorder;
  readonly agent: http.Agent;
  /** Open connections, severed by the client's `close()`. */
  readonly live: Set<Abortable>;
  /** Largest non-SSE body read, in bytes. */
  readonly maxBodyBytes: number;
  /** Sent with every request to `origin` under the exchange's own headers; recorded redacted (see `CheckClientOptions.headers`). */
  readonly extraHeaders: Readonly<Record<string, string>>;
  /** The origin (`https://host:port`) the extra headers go to: a server's legacy `endpoint` event may name another, which gets none. */
  readonly origin: string;
}

/** One HTTP request to send. */
export interface ExchangeSpec {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  /** Headers to send; lower-cased names. */
  headers: Record<string, string>;
  /** A JSON body (serialised here). */
  body?: unknown;
  transport: Transport;
  endpoint: Endpoint;
  purpose: Purpose;
  /** The session ID presented (header or query), recorded in the request entry. */
  sessionId?: string;
  /** The `Last-Event-ID` presented, recorded in the request entry. */
  lastEventId?: string;
  /** For a resume: the connection of the stream the client means to continue. */
  resumes?: number;
  /** Bound for the status line and headers. */
  timeoutMs: number;
}

/** Status line and headers arrived. */
export interface Head {
  kind: 'head';
  conn: number;
  spec: ExchangeSpec;
  req: http.ClientRequest;
  res: http.IncomingMessage;
  status: number;
  headers: Headers;
}

/** The exchange failed before a status line arrived (already recorded). */
export interface HeadFailure {
  kind: 'error';
  conn: number;
  reason: FailureReason;
  detail: string;
  /** The error code of the socket or parser error, if any (e.g. `ECONNREFUSED`). */
  code?: string;
}

/**
 * After the client closes a connection, the next exchange opens a new one: its handshake reaches
 * the server after the close, so the server learns of the close before it reads the next request,
 * as when every exchange had its own connection (on a kept-alive socket the request could overtake it).
 */
export function closeIdleSockets(agent: http.Agent): void {
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

/** `http.request` or `https.request`, for the URL's scheme. */
function requestOf(url: URL): typeof http.request {
  return url.protocol === 'https:' ? https.request : http.request;
}

/** Whether `agent` can carry a request to `url` (an https agent for https, a plain one for http): else a request goes without one. */
function agentServes(agent: http.Agent, url: URL): boolean {
  return agent instanceof https.Agent === (url.protocol === 'https:');
}

/** Maps a socket or parser error to a failure reason. */
function classifyError(err: unknown): FailureReason {
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return 'connection-refused';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return 'connection-reset';
    case 'ETIMEDOUT':
      return 'timeout';
    default:
      return 'protocol';
  }
}

/** The code of a socket or parser error (of the first one, for an `AggregateError` of connection attempts), if any. */
export function errorCode(err: unknown): string | undefined {
  const { code, errors } = (err ?? {}) as { code?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  return Array.isArray(errors) ? errorCode(errors[0]) : undefined;
}

/** `{ code }` when `err` has one, else nothing: to spread into a failure. */
export function withCode(err: unknown): { code?: string } {
  const code = errorCode(err);
  return code === undefined ? {} : { code };
}

/** A one-line description of an error. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}

/** Lower-cased header names, multi-valued headers joined with `, `. */
function flattenHeaders(raw: http.IncomingHttpHeaders | http.OutgoingHttpHeaders): Headers {
  const out: Headers = {};
  for (const name in raw) {
    const v = raw[name];
    if (v === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/** The media type of a `Content-Type` value, lower-cased, without parameters ('' when absent). */
export function mediaType(contentType: string | undefined): string {
  if (!contentType) return '';
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/** Whether a JSON-RPC body (one message or a batch) asks the server to run a tool. */
function runsTool(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((m) => isObject(m) && m.method === 'tools/call');
}

/**
 * Sends a request and waits, at most `spec.timeoutMs`, for its status line and headers. Records the
 * `request` entry, then the `response` entry or a `failure`. Never rejects.
 */
export function sendRequest(ctx: ExchangeContext, spec: ExchangeSpec): Promise<Head | HeadFailure> {
  const { recorder } = ctx;
  const conn = recorder.newConn();
  const headers = { ...(spec.url.origin === ctx.origin ? ctx.extraHeaders : {}), ...spec.headers };
  let bodyText: string | undefined;
  if (spec.body !== undefined) {
    bodyText = JSON.stringify(spec.body);
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(bodyText));
  }

  // A tool call is never sent twice: the stale-socket resend below is only sound when the server
  // cannot have read the request, which a reused socket does not prove. A fresh connection never
  // triggers it, so a reset under a tool call is recorded as the server's answer.
  const agent = runsTool(spec.body) || !agentServes(ctx.agent, spec.url) ? false : ctx.agent;
  let req: http.ClientRequest;
  try {
    req = requestOf(spec.url)(spec.url, { method: spec.method, headers, agent });
  } catch (err) {
    // e.g. a session ID with control characters, or a non-http URL from an `endpoint` event
    recordRequest(ctx, spec, conn, headers);
    const detail = `request not sent: ${describeError(err)}`;
    recorder.record({ type: 'failure', conn, reason: 'protocol', detail });
    return Promise.resolve({ kind: 'error', conn, reason: 'protocol', detail, ...withCode(err) });
  }
  recordRequest(ctx, spec, conn, flattenHeaders(req.getHeaders()));

  return new Promise((resolve) => {
    let retried = false;
    let settled = false;
    const pending: Abortable = {
      conn,
      abort() {
        if (settled) return;
        recorder.record({ type: 'drop', conn, undrained: 0 });
        settle({ kind: 'error', conn, reason: 'connection-reset', detail: 'client closed before the response' });
        req.destroy();
      },
    };
    const settle = (outcome: Head | HeadFailure): void => {
      settled = true;
      cancelTimer();
      ctx.live.delete(pending);
      resolve(outcome);
    };
    const fail = (reason: FailureReason, detail: string, code?: { code?: string }): void => {
      if (settled) return;
      recorder.record({ type: 'failure', conn, reason, detail });
      settle({ kind: 'error', conn, reason, detail, ...code });
      req.destroy();
      closeIdleSockets(ctx.agent);
    };
    const cancelTimer = patientTimeout(spec.timeoutMs, () =>
      fail('timeout', `no response to ${spec.method} ${spec.url.pathname} within ${Math.round(spec.timeoutMs)} ms`),
    );
    ctx.live.add(pending);
    const listen = (attempt: http.ClientRequest): void => {
      // Stays attached for the life of the request so a late socket error is never unhandled.
      attempt.on('error', (err) => {
        if (attempt !== req) return;
        // A kept-alive socket the server closed while it sat idle fails before any answer: the
        // server never read the request, so it goes out once more on a new connection, as
        // browsers do. Within the same time bound; a fresh connection's failure is recorded.
        if (attempt.reusedSocket && !retried && !settled && isStaleSocketError(err)) {
          retried = true;
          req = requestOf(spec.url)(spec.url, { method: spec.method, headers, agent: false });
          listen(req);
          req.end(bodyText);
          return;
        }
        fail(classifyError(err), describeError(err), withCode(err));
      });
      attempt.on('response', (res) => {
        // A body consumer attaches its own handler; this one keeps a stray error from being unhandled.
        res.on('error', noop);
        if (settled || attempt !== req) {
          res.destroy();
          return;
        }
        const status = res.statusCode ?? 0;
        const resHeaders = flattenHeaders(res.headers);
        recorder.record({ type: 'response', conn, status, headers: resHeaders });
        settle({ kind: 'head', conn, spec, req: attempt, res, status, headers: resHeaders });
      });
    };
    listen(req);
    req.end(bodyText);
  });
}

/** How a write on a connection the server already closed fails. */
function isStaleSocketError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/** `headers` as recorded: a value the user gave (a token, say) is not kept, only that it was sent. */
function redacted(headers: Headers, extra: Readonly<Record<string, string>>): Headers {
  const names = Object.keys(extra);
  if (names.length === 0) return headers;
  const kept = { ...headers };
  for (const name of names) if (kept[name] === extra[name]) kept[name] = '<redacted>';
  return kept;
}

function recordRequest(ctx: ExchangeContext, spec: ExchangeSpec, conn: number, headers: Headers): void {
  ctx.recorder.record({
    type: 'request',
    conn,
    transport: spec.transport,
    endpoint: spec.endpoint,
    purpose: spec.purpose,
    method: spec.method,
    url: spec.url.href,
    headers: redacted(headers, ctx.extraHeaders),
    body: spec.body,
    sessionId: spec.sessionId,
    lastEventId: spec.lastEventId,
    ...(spec.resumes !== undefined ? { resumes: spec.resumes } : {}),
  });
}

/** A whole body, or why it could not be read (already recorded). */
export type BodyResult = { kind: 'body'; text: string; json?: unknown } | { kind: 'error'; reason: FailureReason; detail: string };

/**
 * Reads a whole non-SSE body within `timeoutMs`, then records a `body` entry (with `json` when it
 * parses). When `expectJson` and the text is not JSON, also records `malformed-json`. A body that
 * does not finish in time, is cut, or exceeds `maxBodyBytes` records a failure (the text read so
 * far is recorded as the body first) and destroys the connection.
 */
export function readBody(ctx: ExchangeContext, head: Head, timeoutMs: number, expectJson: boolean): Promise<BodyResult> {
  const { recorder } = ctx;
  const { conn, res, req } = head;
  return new Promise((resolve) => {
    const chunks: string[] = [];
    let bytes = 0;
    let settled = false;
    const pending: Abortable = {
      conn,
      abort() {
        if (settled) return;
        finish();
        recorder.record({ type: 'body', conn, text: chunks.join('') });
        recorder.record({ type: 'drop', conn, undrained: 0 });
        req.destroy();
        resolve({ kind: 'error', reason: 'connection-reset', detail: 'client closed while reading the body' });
      },
    };
    const finish = (): void => {
      settled = true;
      cancelTimer();
      ctx.live.delete(pending);
      res.removeListener('data', onData);
      res.removeListener('end', onEnd);
      res.removeListener('close', onClose);
    };
    const fail = (reason: FailureReason, detail: string): void => {
      if (settled) return;
      finish();
      recorder.record({ type: 'body', conn, text: chunks.join('') });
      recorder.record({ type: 'failure', conn, reason, detail });
      req.destroy();
      closeIdleSockets(ctx.agent);
      resolve({ kind: 'error', reason, detail });
    };
    const onData = (chunk: string): void => {
      bytes += Buffer.byteLength(chunk);
      chunks.push(chunk);
      if (bytes > ctx.maxBodyBytes) fail('protocol', `body larger than ${ctx.maxBodyBytes} bytes`);
    };
    const onEnd = (): void => {
      if (settled) return;
      finish();
      const text = chunks.length === 1 ? chunks[0] : chunks.join('');
      let json: unknown;
      let jsonError: string | undefined;
      if (text.trim() !== '') {
        try {
          json = JSON.parse(text);
        } catch (err) {
          jsonError = describeError(err);
        }
      }
      recorder.record(json === undefined ? { type: 'body', conn, text } : { type: 'body', conn, text, json });
      if (expectJson && jsonError !== undefined) {
        recorder.record({ type: 'failure', conn, reason: 'malformed-json', detail: `body is not JSON: ${jsonError}` });
      }
      resolve(json === undefined ? { kind: 'body', text } : { kind: 'body', text, json });
    };
    const onClose = (): void => {
      // 'close' without 'end': the connection was cut mid-body.
      if (!res.complete) fail('connection-reset', 'connection closed before the body ended');
    };
    const cancelTimer = patientTimeout(timeoutMs, () => fail('timeout', `body not complete within ${Math.round(timeoutMs)} ms`));
    ctx.live.add(pending);
    res.setEncoding('utf8');
    res.on('data', onData);
    res.on('end', onEnd);
    res.on('close', onClose);
  });
}

function noop(): void {}
