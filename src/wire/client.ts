/**
 * The checking client: speaks streamable HTTP and legacy HTTP+SSE to any base URL, gives the caller
 * separate control of receive, drain and drop on every stream, and records everything in a
 * {@link History}. It never throws on bad server behaviour and every wait is bounded.
 */
import http from 'node:http';
import https from 'node:https';
import type { Endpoint, History, Purpose } from '../../properties/history.js';
import { legacySessionId } from '../../properties/history-view.js';
import type { Transport } from '../../model/transport.js';
import { extraHeaderProblem } from './extra-headers.js';
import { HistoryRecorder } from './history-recorder.js';
import { failureLabel, summarizeBody } from './summary.js';
import { toolVersion } from '../version.js';
import {
  closeIdleSockets,
  mediaType,
  readBody,
  sendRequest,
  type Abortable,
  type ExchangeContext,
  type ExchangeSpec,
  type Head,
  type HeadFailure,
} from './http.js';
import { findResponse, isResponseTo, message } from './jsonrpc.js';
import { SseStream, type StreamContext } from './sse-stream.js';
import type { Answer, AwaitResponseOptions, CursorAdvance, Frame, ReceiveResult, RequestHandle, ResponseOutcome } from './types.js';

/** The latest protocol revision whose resumption semantics this project covers. */
export const LATEST_STREAMABLE_VERSION = '2025-11-25';
/** The legacy HTTP+SSE protocol revision. */
export const LEGACY_VERSION = '2024-11-05';

/** With `keepAlive`, how long an idle socket is kept for reuse, ms (servers commonly keep 5 s or more). */
const KEEP_ALIVE_IDLE_MS = 1000;

/** Options of a {@link CheckClient}. */
export interface CheckClientOptions {
  /** `http://host:port` (a path prefix is kept: endpoint paths are resolved against it). */
  baseUrl: string | URL;
  /** Endpoint paths; defaults `/mcp`, `/sse`, `/messages`. */
  paths?: Partial<Record<Endpoint, string>>;
  /** Default bound of every wait, ms (default 2000). */
  timeoutMs?: number;
  /** When a stream's cursor advances (default `receive`, like EventSource and the SDK client). */
  cursorAdvance?: CursorAdvance;
  /** Client-side dedup by event ID on drain, per stream and the connections resuming it (default false). */
  dedup?: boolean;
  /** Where to record; share one recorder between clients to get one interleaved history. */
  recorder?: HistoryRecorder;
  /** Protocol version offered on a streamable initialize (default `2025-11-25`). */
  protocolVersion?: string;
  /** Protocol version offered on a legacy initialize (default `2024-11-05`). */
  legacyProtocolVersion?: string;
  clientInfo?: { name: string; version: string };
  /** Client capabilities sent on initialize (default `{}`). */
  capabilities?: Record<string, unknown>;
  /** Frames read ahead off a socket before it is paused (default 1024). */
  highWaterFrames?: number;
  /** Largest non-SSE body read, bytes (default 16 MiB). */
  maxBodyBytes?: number;
  /**
   * Reuse sockets between exchanges (default false: one socket per exchange, closed after). A
   * socket idle for {@link KEEP_ALIVE_IDLE_MS} is closed rather than reused, well inside the
   * keep-alive timeouts servers use, so a reuse never meets a server that is closing it.
   */
  keepAlive?: boolean;
  /**
   * Headers sent with every request to the base URL's origin (e.g. `authorization` for a server
   * behind a gate; a legacy `endpoint` event naming another origin gets none), lower-cased names.
   * The protocol's own headers are the client's to set: none of them may be given here. They are
   * recorded with their values redacted.
   */
  headers?: Readonly<Record<string, string>>;
}

/** `headers` with lower-cased names. @throws RangeError for one the client may not send (see `extraHeaderProblem`). */
function extraHeaders(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const problem = extraHeaderProblem(name, value);
    if (problem) throw new RangeError(`headers: ${problem}`);
    out[name.toLowerCase()] = value;
  }
  return out;
}

/** What the client holds about its current session. */
export interface SessionState {
  transport?: Transport;
  /** `Mcp-Session-Id` (streamable) or the `sessionId` query parameter of the POST URI (legacy). */
  sessionId?: string;
  /** The protocol version the server answered in `InitializeResult`. */
  protocolVersion?: string;
  /** Legacy: the POST URI from the last `endpoint` event of the session's stream. */
  postUrl?: string;
  /** Legacy: the session's one stream. */
  legacyStream?: SseStream;
  initializeResult?: unknown;
}

/** Header overrides: a value sets the header, `null` removes it (names are case-insensitive). */
export type HeaderOverrides = Record<string, string | null>;

/** Options common to the client's HTTP calls. */
export interface CallOptions {
  /** Bound of the whole call (headers and any non-SSE body), ms. */
  timeoutMs?: number;
  /** Added to, or removed from, the headers the client would send. */
  headers?: HeaderOverrides;
}

/** Options of {@link CheckClient.request} and the helpers built on it. */
export interface RequestOptions extends CallOptions {
  /** The JSON-RPC id (default: the client's next integer id). Reuse one to model a retry. */
  id?: number | string;
  /** Send with this transport (default: the session's, or `streamable`). */
  transport?: Transport;
  /** Target URL, resolved against the base URL (default: `/mcp`, or the legacy POST URI). */
  url?: string;
  /** Recorded purpose (default from the method). */
  purpose?: Purpose;
}

/** Options of {@link CheckClient.initialize}. */
export interface InitializeOptions extends CallOptions {
  /** Default `streamable`. A legacy initialize first opens `GET /sse` (see {@link CheckClient.openLegacy}). */
  transport?: Transport;
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  /** Send `notifications/initialized` after the result (default true). */
  sendInitialized?: boolean;
}

/** The outcome of {@link CheckClient.initialize}. */
export type InitializeOutcome =
  | {
      ok: true;
      transport: Transport;
      sessionId?: string;
      protocolVersion?: string;
      result: unknown;
      handle: RequestHandle;
      /** How `notifications/initialized` was answered, if sent. */
      initialized?: Answer;
    }
  | {
      ok: false;
      transport: Transport;
      /** One line saying what went wrong. */
      reason: string;
      handle?: RequestHandle;
      outcome?: ResponseOutcome;
      legacy?: LegacyOpenOutcome;
    };

/** The outcome of {@link CheckClient.openLegacy}. */
export type LegacyOpenOutcome =
  | { kind: 'open'; answer: Answer; stream: SseStream; postUrl: string; sessionId?: string }
  | { kind: 'failed'; answer: Answer; reason: string; receive?: ReceiveResult };

/** Options of {@link CheckClient.openLegacy}. */
export interface OpenLegacyOptions extends CallOptions {
  /** Path or URL of the SSE endpoint (default the `sse` path). */
  path?: string;
}

/** Options of {@link CheckClient.openStandalone}. */
export interface OpenStandaloneOptions extends CallOptions {
  /** Session ID to present: a string, `null` for none, default the session's. */
  sessionId?: string | null;
}

/** Options of {@link CheckClient.resume}. Every field may be anything, to probe the server. */
export interface ResumeOptions extends CallOptions {
  /** The stream being resumed: supplies the defaults for cursor, session and endpoint. */
  from?: SseStream;
  /** Where to send the GET: `mcp` (streamable) or `sse` (legacy resume). Default: `from`'s, else the session's. */
  endpoint?: 'mcp' | 'sse';
  /** Path or URL overriding the endpoint's (the recorded endpoint stays `endpoint`). */
  path?: string;
  /** `Last-Event-ID` to present: a string, `null` for none; default `from.cursor`. Empty is not sent. */
  lastEventId?: string | null;
  /** Session ID to present: a string, `null` for none; default `from.sessionId`, else the session's. */
  sessionId?: string | null;
  /** How the session ID is presented (default: `header` at `mcp`, `query` at `sse`). */
  sessionIdIn?: 'header' | 'query' | 'both';
  /** Legacy: make the new stream the session's one stream (default true at `sse`). */
  adopt?: boolean;
}

/** Options of {@link CheckClient.deleteSession}. */
export interface DeleteOptions extends CallOptions {
  sessionId?: string | null;
}

type Expect = 'post' | 'legacy-post' | 'stream' | 'any';

/**
 * An MCP client for conformance checking. One instance holds one current session (re-initialize to
 * start another; create several clients on one {@link HistoryRecorder} to hold several at once).
 *
 * Streams: every SSE body becomes an {@link SseStream} with its own wire buffer, inbox (received,
 * undrained frames, FIFO per stream) and cursor. `receive` moves one frame from wire to inbox,
 * `drain` processes the oldest inbox frame, `drop` aborts the socket.
 */
export class CheckClient {
  readonly recorder: HistoryRecorder;
  readonly baseUrl: URL;
  readonly paths: Readonly<Record<Endpoint, string>>;
  /** Default bound of every wait, ms. */
  readonly timeoutMs: number;
  readonly cursorAdvance: CursorAdvance;
  readonly dedup: boolean;
  /** The current session; scenarios may read it (and keep copies to present later). */
  session: SessionState = {};

  private readonly protocolVersion: string;
  private readonly legacyProtocolVersion: string;
  private readonly clientInfo: { name: string; version: string };
  private readonly capabilities: Record<string, unknown>;
  private readonly agent: http.Agent;
  private readonly live = new Set<Abortable>();
  private readonly allStreams: SseStream[] = [];
  private readonly exchangeCtx: ExchangeContext;
  private readonly streamCtx: StreamContext;
  private nextId = 1;
  private closed = false;

  constructor(options: CheckClientOptions) {
    this.recorder = options.recorder ?? new HistoryRecorder();
    this.baseUrl = new URL(options.baseUrl);
    this.paths = { mcp: '/mcp', sse: '/sse', messages: '/messages', ...options.paths };
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.cursorAdvance = options.cursorAdvance ?? 'receive';
    this.dedup = options.dedup ?? false;
    this.protocolVersion = options.protocolVersion ?? LATEST_STREAMABLE_VERSION;
    this.legacyProtocolVersion = options.legacyProtocolVersion ?? LEGACY_VERSION;
    this.clientInfo = options.clientInfo ?? { name: 'mcp-resume-spec-checker', version: toolVersion() };
    this.capabilities = options.capabilities ?? {};
    // The agent's `timeout` is how long a free socket may idle; a socket in use only gets a 'timeout' event nobody listens to.
    const agentOptions = options.keepAlive ? { keepAlive: true, timeout: KEEP_ALIVE_IDLE_MS } : { keepAlive: false };
    // TLS as Node verifies it (the system's CAs, and NODE_EXTRA_CA_CERTS for one of your own).
    this.agent = this.baseUrl.protocol === 'https:' ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    this.exchangeCtx = {
      recorder: this.recorder,
      extraHeaders: extraHeaders(options.headers),
      origin: this.baseUrl.origin,
      agent: this.agent,
      live: this.live,
      maxBodyBytes: options.maxBodyBytes ?? 16 * 1024 * 1024,
    };
    this.streamCtx = {
      recorder: this.recorder,
      live: this.live,
      cursorAdvance: this.cursorAdvance,
      dedup: this.dedup,
      timeoutMs: this.timeoutMs,
      highWater: Math.max(2, options.highWaterFrames ?? 1024),
      onTransportEvent: (stream, frame) => this.onTransportEvent(stream, frame),
      onClientClose: () => closeIdleSockets(this.agent),
    };
  }

  /** The history recorded so far (shared with other clients on the same recorder). */
  get history(): History {
    return this.recorder.history;
  }

  /** Every stream this client opened, in order. */
  get streams(): readonly SseStream[] {
    return this.allStreams;
  }

  /** Records a scenario step. */
  step(name: string): void {
    this.recorder.step(name);
  }

  /** The URL of an endpoint, or of a path or URL resolved against the base URL. */
  url(endpointOrPath: Endpoint | string): URL {
    const path = Object.hasOwn(this.paths, endpointOrPath) ? this.paths[endpointOrPath as Endpoint] : endpointOrPath;
    if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return new URL(path);
    const base = this.baseUrl.href.endsWith('/') ? this.baseUrl.href.slice(0, -1) : this.baseUrl.href;
    return new URL(base + (path.startsWith('/') ? path : `/${path}`));
  }

  // ---------------------------------------------------------------- sessions

  /**
   * Starts a new session: (legacy: opens `GET /sse` and waits for its `endpoint` event,) POSTs
   * `initialize`, waits for the result (JSON body or SSE, drained), keeps `Mcp-Session-Id` and the
   * negotiated protocol version, then sends `notifications/initialized`. The previous session is
   * forgotten (its streams stay open).
   */
  async initialize(options: InitializeOptions = {}): Promise<InitializeOutcome> {
    const transport = options.transport ?? 'streamable';
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    if (transport === 'sse') {
      const legacy = await this.openLegacy({ timeoutMs });
      if (legacy.kind !== 'open') return { ok: false, transport, reason: legacy.reason, legacy };
    } else {
      this.session = { transport };
    }
    const params = {
      protocolVersion: options.protocolVersion ?? (transport === 'sse' ? this.legacyProtocolVersion : this.protocolVersion),
      capabilities: options.capabilities ?? this.capabilities,
      clientInfo: options.clientInfo ?? this.clientInfo,
    };
    const handle = await this.request('initialize', params, {
      transport,
      purpose: 'initialize',
      timeoutMs,
      headers: options.headers,
    });
    const outcome = await handle.response({ timeoutMs, drain: true });
    if (outcome.kind !== 'response') {
      return { ok: false, transport, reason: `initialize: ${describeOutcome(outcome)}`, handle, outcome };
    }
    if (transport === 'streamable' && handle.answer.kind !== 'error') {
      const sid = handle.answer.headers['mcp-session-id'];
      if (sid !== undefined) this.session.sessionId = sid;
    }
    const m = outcome.message;
    if (m.error !== undefined || m.result === null || typeof m.result !== 'object') {
      return { ok: false, transport, reason: `initialize answered with error ${JSON.stringify(m.error ?? m.result)}`, handle, outcome };
    }
    const result = m.result as { protocolVersion?: unknown };
    if (typeof result.protocolVersion === 'string') this.session.protocolVersion = result.protocolVersion;
    this.session.initializeResult = result;
    const ok: InitializeOutcome = {
      ok: true,
      transport,
      sessionId: this.session.sessionId,
      protocolVersion: this.session.protocolVersion,
      result,
      handle,
    };
    if (options.sendInitialized !== false) {
      ok.initialized = await this.notify('notifications/initialized', undefined, { transport, timeoutMs, purpose: 'initialized' });
    }
    return ok;
  }

  /**
   * Legacy HTTP+SSE: `GET /sse`, then receives (bounded) until the `endpoint` event, whose URI
   * (relative or absolute) becomes the session's POST URI; its `sessionId` query parameter the
   * session ID. This starts a new legacy session in the client. The `endpoint` frame is recorded as
   * received but consumed by the transport (it never enters the inbox).
   */
  async openLegacy(options: OpenLegacyOptions = {}): Promise<LegacyOpenOutcome> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const deadline = this.recorder.now() + timeoutMs;
    const url = this.url(options.path ?? this.paths.sse);
    const head = await this.exchange({
      method: 'GET',
      url,
      headers: withOverrides({ accept: 'text/event-stream' }, options.headers),
      transport: 'sse',
      endpoint: 'sse',
      purpose: 'open-legacy',
      timeoutMs,
    });
    const answer = await this.toAnswer(head, 'stream', deadline, undefined, undefined);
    if (answer.kind !== 'stream') return { kind: 'failed', answer, reason: `GET ${url.pathname}: ${describeAnswer(answer)}` };
    const stream = answer.stream;
    this.session = { transport: 'sse', legacyStream: stream };
    for (;;) {
      const r = await stream.receive(Math.max(0, deadline - this.recorder.now()), 'no endpoint event');
      if (r.kind === 'frame') {
        if (r.frame.event !== 'endpoint') continue;
        if (stream.endpointUri === undefined) {
          return { kind: 'failed', answer, reason: `endpoint event is not a URI: ${JSON.stringify(r.frame.data)}`, receive: r };
        }
        const open: LegacyOpenOutcome = { kind: 'open', answer, stream, postUrl: stream.endpointUri };
        if (this.session.sessionId !== undefined) open.sessionId = this.session.sessionId;
        return open;
      }
      if (r.kind === 'error' && !r.final) continue;
      return { kind: 'failed', answer, reason: `before the endpoint event: ${describeOutcome(r)}`, receive: r };
    }
  }

  /**
   * Streamable HTTP: opens the standalone server-to-client stream (GET on the `mcp` endpoint with
   * the session's headers). A 405 or any non-SSE answer comes back as a `body` answer.
   */
  async openStandalone(options: OpenStandaloneOptions = {}): Promise<Answer> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const deadline = this.recorder.now() + timeoutMs;
    const sessionId = options.sessionId === null ? undefined : (options.sessionId ?? this.session.sessionId);
    const headers = this.streamableHeaders('text/event-stream', sessionId);
    const finalHeaders = withOverrides(headers, options.headers);
    const head = await this.exchange({
      method: 'GET',
      url: this.url('mcp'),
      headers: finalHeaders,
      transport: 'streamable',
      endpoint: 'mcp',
      purpose: 'open-standalone',
      sessionId: finalHeaders['mcp-session-id'],
      timeoutMs,
    });
    return this.toAnswer(head, 'stream', deadline, undefined, finalHeaders['mcp-session-id']);
  }

  /**
   * Resumes a stream: a GET presenting a `Last-Event-ID` and a session ID, at either transport's
   * endpoint. At `mcp`: `Mcp-Session-Id` header (and `MCP-Protocol-Version` when the session is a
   * streamable one). At `sse` (a non-standard "legacy resume"): `GET /sse?sessionId=X` with
   * `Last-Event-ID`; the new stream becomes the session's one stream (unless `adopt: false`) and a
   * fresh `endpoint` event on it updates the POST URI and session ID. The new stream's cursor starts
   * at the cursor presented. Whatever comes back is recorded and returned.
   */
  async resume(options: ResumeOptions = {}): Promise<Answer> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const deadline = this.recorder.now() + timeoutMs;
    const from = options.from;
    const endpoint: 'mcp' | 'sse' =
      options.endpoint ?? (from !== undefined ? (from.transport === 'sse' ? 'sse' : 'mcp') : this.session.transport === 'sse' ? 'sse' : 'mcp');
    const transport: Transport = endpoint === 'sse' ? 'sse' : 'streamable';
    const cursor = options.lastEventId === null ? undefined : (options.lastEventId ?? from?.cursor);
    const sessionId = options.sessionId === null ? undefined : (options.sessionId ?? from?.sessionId ?? this.session.sessionId);
    const sessionIdIn = options.sessionIdIn ?? (endpoint === 'sse' ? 'query' : 'header');

    const url = this.url(options.path ?? this.paths[endpoint]);
    if (sessionId !== undefined && sessionIdIn !== 'header') url.searchParams.set('sessionId', sessionId);
    let headers: Record<string, string>;
    if (endpoint === 'mcp') {
      headers = this.streamableHeaders('text/event-stream', sessionIdIn === 'query' ? undefined : sessionId);
    } else {
      headers = { accept: 'text/event-stream' };
      if (sessionId !== undefined && sessionIdIn !== 'query') headers['mcp-session-id'] = sessionId;
    }
    if (cursor !== undefined && cursor !== '') headers['last-event-id'] = cursor;
    headers = withOverrides(headers, options.headers);

    const presentedSession = headers['mcp-session-id'] ?? url.searchParams.get('sessionId') ?? undefined;
    const head = await this.exchange({
      method: 'GET',
      url,
      headers,
      transport,
      endpoint,
      purpose: 'resume',
      sessionId: presentedSession,
      lastEventId: headers['last-event-id'],
      ...(from !== undefined ? { resumes: from.conn } : {}),
      timeoutMs,
    });
    const answer = await this.toAnswer(head, 'stream', deadline, cursor, presentedSession, from?.drainedIds);
    if (answer.kind === 'stream' && endpoint === 'sse' && options.adopt !== false) {
      this.session = { ...this.session, transport: 'sse', legacyStream: answer.stream };
    }
    return answer;
  }

  /** Streamable HTTP: DELETE on the `mcp` endpoint with the session ID (default the session's). */
  async deleteSession(options: DeleteOptions = {}): Promise<Answer> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const deadline = this.recorder.now() + timeoutMs;
    const sessionId = options.sessionId === null ? undefined : (options.sessionId ?? this.session.sessionId);
    const headers = withOverrides(this.streamableHeaders(undefined, sessionId), options.headers);
    const head = await this.exchange({
      method: 'DELETE',
      url: this.url('mcp'),
      headers,
      transport: 'streamable',
      endpoint: 'mcp',
      purpose: 'delete',
      sessionId: headers['mcp-session-id'],
      timeoutMs,
    });
    return this.toAnswer(head, 'any', deadline, undefined, headers['mcp-session-id']);
  }

  // ---------------------------------------------------------------- JSON-RPC

  /**
   * Sends a JSON-RPC request and returns as soon as the POST is answered (headers, or the whole
   * body when it is not SSE). Streamable HTTP: the answer is a JSON body or the request's own SSE
   * stream (`handle.stream`). Legacy: the POST answers 202 and the response will arrive on the
   * session's one stream (`handle.stream`). Use `handle.response()` to wait for the response, or
   * step the stream with `receive` / `drain`.
   */
  async request(method: string, params?: unknown, options: RequestOptions = {}): Promise<RequestHandle> {
    const id = options.id ?? this.nextId++;
    const transport = options.transport ?? this.session.transport ?? 'streamable';
    const answer = await this.post(message(method, params, id), transport, options.purpose ?? purposeOf(method), options);
    const stream = answer.kind === 'stream' ? answer.stream : transport === 'sse' ? this.session.legacyStream : undefined;
    const handle: RequestHandle = {
      id,
      method,
      transport,
      answer,
      stream,
      response: (o?: AwaitResponseOptions) => this.awaitResponse(handle, o),
    };
    return handle;
  }

  /** Sends a JSON-RPC notification; returns how the POST was answered (202 expected). */
  async notify(method: string, params?: unknown, options: RequestOptions = {}): Promise<Answer> {
    const transport = options.transport ?? this.session.transport ?? 'streamable';
    return this.post(message(method, params), transport, options.purpose ?? purposeOf(method), options);
  }

  /** `tools/call`; see {@link request}. */
  callTool(name: string, args: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<RequestHandle> {
    return this.request('tools/call', { name, arguments: args }, options);
  }

  /** `ping`; see {@link request}. */
  ping(options: RequestOptions = {}): Promise<RequestHandle> {
    return this.request('ping', undefined, options);
  }

  /** `tools/list`; see {@link request}. */
  listTools(options: RequestOptions = {}): Promise<RequestHandle> {
    return this.request('tools/list', undefined, options);
  }

  /**
   * Waits, at most `timeoutMs` in all, for the response to `handle`: taken from a JSON body, or
   * received frame by frame from the handle's stream (frames before it are received too and, with
   * `drain` (default), drained as they come). Never rejects; a non-2xx answer without the response is
   * `rejected`, a 2xx one is a `protocol` error (recorded).
   */
  async awaitResponse(handle: RequestHandle, options: AwaitResponseOptions = {}): Promise<ResponseOutcome> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const drain = options.drain ?? true;
    const a = handle.answer;
    if (a.kind === 'error') return { kind: 'error', reason: a.reason, detail: a.detail, ...(a.code !== undefined ? { code: a.code } : {}) };
    if (a.kind === 'body') {
      const m = findResponse(a.json, handle.id);
      if (m !== undefined) return { kind: 'response', message: m, via: 'body' };
      const ok = a.status >= 200 && a.status < 300;
      if (!ok) {
        const rejected: ResponseOutcome = { kind: 'rejected', status: a.status, text: a.text, ...(a.json !== undefined ? { json: a.json } : {}) };
        if (a.headers['content-type'] !== undefined) rejected.contentType = a.headers['content-type'];
        return rejected;
      }
      if (handle.transport !== 'sse' || handle.stream === undefined) {
        // A body that is not JSON says so, rather than that a JSON body lacks the response.
        const detail =
          a.json === undefined
            ? `${a.status} answer to ${handle.method} is not JSON: ${summarizeBody(a.status, a.headers['content-type'], a.text)}`
            : `${a.status} answer to ${handle.method} carries no response to id ${JSON.stringify(handle.id)}`;
        this.recorder.record({ type: 'failure', conn: a.conn, reason: 'protocol', detail });
        return { kind: 'error', reason: 'protocol', detail };
      }
    }
    const stream = handle.stream;
    if (stream === undefined) return { kind: 'error', reason: 'protocol', detail: 'no stream to wait on' };
    return this.awaitResponseOn(stream, handle.id, { timeoutMs, drain }, handle.method);
  }

  /**
   * Waits, at most `timeoutMs`, for the response to request `id` on `stream` (e.g. a resumed
   * stream): receives frame by frame and, with `drain` (default), drains as frames come. Frames
   * after the response stay on the wire.
   */
  async awaitResponseOn(stream: SseStream, id: number | string, options: AwaitResponseOptions = {}, method = 'request'): Promise<ResponseOutcome> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const drain = options.drain ?? true;
    const deadline = this.recorder.now() + timeoutMs;
    const what = `no response to ${method} id ${JSON.stringify(id)}`;
    for (;;) {
      const r = await stream.receive(Math.max(0, deadline - this.recorder.now()), what, id);
      switch (r.kind) {
        case 'frame':
          if (drain) stream.drainAll();
          if (isResponseTo(r.frame.message, id)) return { kind: 'response', message: r.frame.message, via: 'stream', frame: r.frame };
          continue;
        case 'error':
          if (!r.final) continue;
          return { kind: 'error', reason: r.reason, detail: r.detail, ...(r.code !== undefined ? { code: r.code } : {}) };
        case 'timeout':
          return { kind: 'timeout', timeoutMs };
        default:
          return r;
      }
    }
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Aborts everything open (recording a `drop` for each open connection) and frees the sockets.
   * Later calls fail fast with a recorded `protocol` failure.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const a of [...this.live]) a.abort();
    this.agent.destroy();
  }

  // ---------------------------------------------------------------- internals

  private async post(body: unknown, transport: Transport, purpose: Purpose, options: RequestOptions): Promise<Answer> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const deadline = this.recorder.now() + timeoutMs;
    let spec: ExchangeSpec;
    if (transport === 'streamable') {
      const headers = withOverrides(this.streamableHeaders('application/json, text/event-stream', this.session.sessionId), options.headers);
      headers['content-type'] ??= 'application/json';
      spec = {
        method: 'POST',
        url: this.url(options.url ?? this.paths.mcp),
        headers,
        body,
        transport,
        endpoint: 'mcp',
        purpose,
        sessionId: headers['mcp-session-id'],
        timeoutMs,
      };
    } else {
      let url: URL;
      if (options.url !== undefined) url = this.url(options.url);
      else if (this.session.postUrl !== undefined) url = new URL(this.session.postUrl);
      else {
        url = this.url(this.paths.messages);
        if (this.session.sessionId !== undefined) url.searchParams.set('sessionId', this.session.sessionId);
      }
      const headers = withOverrides({ 'content-type': 'application/json' }, options.headers);
      spec = {
        method: 'POST',
        url,
        headers,
        body,
        transport,
        endpoint: 'messages',
        purpose,
        sessionId: url.searchParams.get('sessionId') ?? headers['mcp-session-id'],
        timeoutMs,
      };
    }
    const head = await this.exchange(spec);
    return this.toAnswer(head, transport === 'streamable' ? 'post' : 'legacy-post', deadline, undefined, spec.sessionId);
  }

  private streamableHeaders(accept: string | undefined, sessionId: string | undefined): Record<string, string> {
    const h: Record<string, string> = {};
    if (accept !== undefined) h.accept = accept;
    if (sessionId !== undefined) h['mcp-session-id'] = sessionId;
    if (this.session.transport === 'streamable' && this.session.protocolVersion !== undefined) {
      h['mcp-protocol-version'] = this.session.protocolVersion;
    }
    return h;
  }

  private exchange(spec: ExchangeSpec): Promise<Head | HeadFailure> {
    if (this.closed) {
      const conn = this.recorder.newConn();
      const detail = `client closed; ${spec.method} ${spec.url.href} not sent`;
      this.recorder.record({ type: 'failure', conn, reason: 'protocol', detail });
      return Promise.resolve({ kind: 'error', conn, reason: 'protocol', detail });
    }
    return sendRequest(this.exchangeCtx, spec);
  }

  /** Turns a response head into an {@link Answer}: an SSE handle, or a whole body read in time. */
  private async toAnswer(
    head: Head | HeadFailure,
    expect: Expect,
    deadline: number,
    initialCursor: string | undefined,
    sessionId: string | undefined,
    drainedIds?: Set<string>,
  ): Promise<Answer> {
    if (head.kind === 'error')
      return { kind: 'error', conn: head.conn, reason: head.reason, detail: head.detail, ...(head.code !== undefined ? { code: head.code } : {}) };
    const { conn, status, headers } = head;
    const type = mediaType(headers['content-type']);
    if (type === 'text/event-stream') {
      const stream = new SseStream(this.streamCtx, head, initialCursor, sessionId ?? headers['mcp-session-id'], drainedIds);
      this.allStreams.push(stream);
      return { kind: 'stream', conn, status, headers, stream };
    }
    const isJson = type === 'application/json' || type.endsWith('+json');
    if (status >= 200 && status < 300) {
      let unexpected = false;
      if (expect === 'stream') unexpected = true;
      else if (expect === 'post') unexpected = status !== 202 && status !== 204 && !isJson;
      if (unexpected) {
        const wanted = expect === 'stream' ? 'text/event-stream' : 'application/json or text/event-stream';
        this.recorder.record({
          type: 'failure',
          conn,
          reason: 'unexpected-content-type',
          detail: `${status} with content type ${JSON.stringify(headers['content-type'] ?? '')}; expected ${wanted}`,
        });
      }
    }
    const body = await readBody(this.exchangeCtx, head, Math.max(0, deadline - this.recorder.now()), isJson);
    if (body.kind === 'error') return { kind: 'error', conn, reason: body.reason, detail: body.detail, status };
    return body.json === undefined
      ? { kind: 'body', conn, status, headers, text: body.text }
      : { kind: 'body', conn, status, headers, text: body.text, json: body.json };
  }

  /** Legacy `endpoint` events are consumed by the transport: they set the POST URI. */
  private onTransportEvent(stream: SseStream, frame: Frame): boolean {
    if (stream.transport !== 'sse' || frame.event !== 'endpoint') return false;
    let uri: URL;
    try {
      uri = new URL(frame.data, stream.url);
    } catch {
      this.recorder.record({
        type: 'failure',
        conn: stream.conn,
        reason: 'protocol',
        detail: `endpoint event data is not a URI: ${JSON.stringify(frame.data.slice(0, 200))}`,
      });
      return true;
    }
    stream.endpointUri = uri.href;
    const sid = legacySessionId(uri.href);
    if (sid !== undefined) stream.sessionId = sid;
    if (this.session.legacyStream === stream) {
      this.session.postUrl = uri.href;
      if (sid !== undefined) this.session.sessionId = sid;
      else delete this.session.sessionId;
    }
    return true;
  }
}

function withOverrides(headers: Record<string, string>, overrides: HeaderOverrides | undefined): Record<string, string> {
  if (overrides === undefined) return headers;
  for (const name in overrides) {
    const v = overrides[name];
    const lower = name.toLowerCase();
    if (v === null) delete headers[lower];
    else headers[lower] = v;
  }
  return headers;
}

function purposeOf(method: string): Purpose {
  switch (method) {
    case 'initialize':
      return 'initialize';
    case 'notifications/initialized':
      return 'initialized';
    case 'tools/call':
      return 'call';
    case 'ping':
      return 'ping';
    case 'tools/list':
      return 'list';
    default:
      return 'other';
  }
}

/** One line describing a non-success outcome. */
export function describeOutcome(o: ResponseOutcome | ReceiveResult): string {
  switch (o.kind) {
    case 'response':
      return 'response';
    case 'frame':
      return 'frame';
    case 'rejected':
      return summarizeBody(o.status, o.contentType, o.text);
    case 'timeout':
      return `timeout after ${Math.round(o.timeoutMs)} ms`;
    case 'end':
      return o.truncated === undefined ? 'stream ended' : 'stream ended mid-frame';
    case 'error':
      return `${failureLabel(o.reason, o.code)}: ${o.detail}`;
    case 'dropped':
      return 'stream dropped';
  }
}

/** One line describing an answer that is not the stream expected. */
export function describeAnswer(a: Answer): string {
  switch (a.kind) {
    case 'stream':
      return `HTTP ${a.status} event stream`;
    case 'body':
      return summarizeBody(a.status, a.headers['content-type'], a.text);
    case 'error':
      return `${failureLabel(a.reason, a.code)}: ${a.detail}`;
  }
}
