/**
 * A small MCP client for the client checker: streamable HTTP and legacy HTTP+SSE, tool calls and
 * notifications, resumption by `Last-Event-ID`. Its knobs are the model's client knobs plus the
 * ones the client properties need; the correct setting ({@link correctKnobs}) moves its cursor only
 * once the application has an event, drops replayed duplicates, re-initializes on 404, never
 * re-sends a call, resumes only at the transport that issued the session, and bounds every wait.
 * Each mutant in `src/client-mutants/` flips one knob.
 */
import type { Transport } from '../../model/transport.js';
import type { ClientFactoryOptions, ClientUnderTest } from '../client-check/contract.js';
import { SseFramer, type SseEvent } from './sse-frames.js';

/** How the reference client behaves. */
export interface ReferenceClientKnobs {
  /** `onReceive`: the cursor moves when a frame is parsed, and a one-frame read-ahead buffer is dropped on a cut. */
  cursorAdvance: 'onDrain' | 'onReceive';
  /** Drop a frame whose event ID the application already has. */
  dedup: boolean;
  /** On a 404 for its session: start a new session, or retry the dead one. */
  on404: 'reinitialize' | 'retrySession';
  /** Re-send a timed-out tool call under a new request ID, without telling the application. */
  retryOnTimeout: boolean;
  /** Resume a cut legacy stream at its own endpoint (`same`) or at `/mcp` with the legacy session (`other`). */
  resumeAt: 'same' | 'other';
  /** Reject a call past the timeout, or when its stream cannot be resumed; false waits forever. */
  boundedWait: boolean;
}

/** The correct setting. */
export const correctKnobs: ReferenceClientKnobs = {
  cursorAdvance: 'onDrain',
  dedup: true,
  on404: 'reinitialize',
  retryOnTimeout: false,
  resumeAt: 'same',
  boundedWait: true,
};

const STREAMABLE_VERSION = '2025-11-25';
const LEGACY_VERSION = '2024-11-05';
const MAX_RESUMES = 3;
const MAX_SESSION_RETRIES = 2;
/** How long the onReceive mutant's read-ahead frame waits for more data before it is delivered. */
const READ_AHEAD_IDLE_MS = 25;

interface JsonRpc {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { message?: string };
}

/** One application call: settled at most once, whatever happens on the wire. */
interface Call {
  name: string;
  args: Record<string, unknown>;
  settled: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
  retried: boolean;
  abort?: AbortController;
}

/** One stream's client-side state: the cursor and the read-ahead frame (onReceive only). */
interface StreamState {
  cursor?: string;
  held?: SseEvent;
  idle?: NodeJS.Timeout;
}

class ReferenceClient implements ClientUnderTest {
  private readonly listeners: Array<(n: { method: string; params?: unknown }) => void> = [];
  private readonly pending = new Map<number, Call>();
  private readonly delivered = new Set<string>();
  private readonly controllers = new Set<AbortController>();
  private nextId = 1;
  private sessionId: string | undefined;
  private deadSession = false;
  private legacy: { endpoint: string; session: string; stream: StreamState } | undefined;
  private closed = false;
  /** Bound of the connection's setup (not under test): generous, so a loaded machine does not fail a scenario. */
  private get setupMs(): number {
    return Math.max(this.timeoutMs * 10, 5000);
  }

  constructor(
    private readonly endpoint: URL,
    private readonly transport: Transport,
    private readonly timeoutMs: number,
    private readonly knobs: ReferenceClientKnobs,
  ) {}

  onNotification(listener: (n: { method: string; params?: unknown }) => void): void {
    this.listeners.push(listener);
  }

  async connect(): Promise<void> {
    if (this.transport === 'streamable') await this.initializeStreamable();
    else await this.openLegacy();
  }

  callTool(name: string, args: Record<string, unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const call: Call = {
        name,
        args,
        settled: false,
        retried: false,
        resolve: (value) => {
          if (call.settled) return;
          call.settled = true;
          clearTimeout(call.timer);
          resolve(value);
        },
        reject: (error) => {
          if (call.settled) return;
          call.settled = true;
          clearTimeout(call.timer);
          reject(error);
        },
      };
      void this.send(call).catch((error: unknown) => this.fail(call, error instanceof Error ? error : new Error(String(error))));
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const call of this.pending.values()) {
      clearTimeout(call.timer);
    }
    this.pending.clear();
    for (const controller of this.controllers) controller.abort();
    this.controllers.clear();
  }

  /** Gives up on a call, unless this client never surfaces a failed wait. */
  private fail(call: Call, error: Error): void {
    if (this.knobs.boundedWait) call.reject(error);
  }

  private controller(): AbortController {
    const controller = new AbortController();
    this.controllers.add(controller);
    return controller;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...extra };
    if (this.transport === 'streamable') {
      headers['mcp-protocol-version'] = STREAMABLE_VERSION;
      if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    }
    return headers;
  }

  private async post(url: string, message: JsonRpc, signal?: AbortSignal): Promise<Response> {
    return fetch(url, { method: 'POST', headers: this.headers(), body: JSON.stringify({ jsonrpc: '2.0', ...message }), signal: signal ?? null });
  }

  // --- delivery -------------------------------------------------------------------------------

  /** Hands one event's message to the application (or to the waiting call), once per event ID when deduplicating. */
  private deliver(event: SseEvent): void {
    if (event.id !== undefined && this.knobs.dedup && this.delivered.has(event.id)) return;
    if (event.id !== undefined) this.delivered.add(event.id);
    if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return;
    let message: JsonRpc;
    try {
      message = JSON.parse(event.data) as JsonRpc;
    } catch {
      return;
    }
    if (message.method !== undefined && message.id === undefined) {
      for (const listener of this.listeners) listener({ method: message.method, params: message.params });
      return;
    }
    if (typeof message.id !== 'number') return;
    const call = this.pending.get(message.id);
    if (!call) return;
    this.pending.delete(message.id);
    if (message.error !== undefined) call.reject(new Error(message.error.message ?? 'error'));
    else call.resolve(message.result);
  }

  /** One frame off the wire: cursor and delivery in the order the knob says. */
  private receive(stream: StreamState, event: SseEvent): void {
    if (this.knobs.cursorAdvance === 'onReceive') {
      if (event.id !== undefined) stream.cursor = event.id;
      const previous = stream.held;
      stream.held = event;
      if (previous) this.deliver(previous);
      // The read-ahead frame reaches the application once the stream has been idle for a moment.
      clearTimeout(stream.idle);
      stream.idle = setTimeout(() => {
        if (stream.held !== event) return;
        stream.held = undefined;
        this.deliver(event);
      }, READ_AHEAD_IDLE_MS);
      return;
    }
    this.deliver(event);
    if (event.id !== undefined) stream.cursor = event.id;
  }

  /** Reads a stream to its end: `ended` (clean end) or `cut` (the connection failed). */
  private async read(response: Response, stream: StreamState, onEvent?: (event: SseEvent) => boolean): Promise<'ended' | 'cut'> {
    if (!response.body) return 'ended';
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const framer = new SseFramer();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of framer.push(value)) {
          if (onEvent?.(event)) continue;
          this.receive(stream, event);
        }
      }
    } catch {
      // The read-ahead frame is lost with the connection (onReceive only).
      clearTimeout(stream.idle);
      stream.held = undefined;
      return 'cut';
    }
    clearTimeout(stream.idle);
    if (stream.held) {
      const held = stream.held;
      stream.held = undefined;
      this.deliver(held);
    }
    return 'ended';
  }

  // --- streamable HTTP ------------------------------------------------------------------------

  private async initializeStreamable(): Promise<void> {
    this.sessionId = undefined;
    this.deadSession = false;
    const response = await fetch(this.endpoint, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: this.nextId++,
        method: 'initialize',
        params: { protocolVersion: STREAMABLE_VERSION, capabilities: {}, clientInfo: { name: 'mcp-resume-spec-reference-client', version: '1' } },
      }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`initialize failed: ${response.status} ${text.slice(0, 200)}`);
    this.sessionId = response.headers.get('mcp-session-id') ?? undefined;
    const note = await this.post(this.endpoint.href, { method: 'notifications/initialized' });
    await note.body?.cancel();
  }

  /** The session is gone (404): start a new one, or (mutant) keep using the dead one. */
  private async sessionNotFound(): Promise<void> {
    if (this.knobs.on404 === 'reinitialize') await this.initializeStreamable();
    else this.deadSession = true;
  }

  private async send(call: Call): Promise<void> {
    if (this.transport === 'sse') return this.sendLegacy(call);
    const id = this.nextId++;
    this.pending.set(id, call);
    const controller = this.controller();
    call.abort = controller;
    this.arm(call, id);
    let response: Response | undefined;
    for (let attempt = 0; ; attempt++) {
      response = await this.post(this.endpoint.href, { id, method: 'tools/call', params: { name: call.name, arguments: call.args } }, controller.signal);
      if (response.status !== 404) break;
      await response.body?.cancel();
      await this.sessionNotFound();
      // A dead session's call was never executed; the mutant retries it there, the correct client surfaces it.
      if (this.knobs.on404 === 'reinitialize' || attempt >= MAX_SESSION_RETRIES) {
        this.pending.delete(id);
        return this.fail(call, new Error('session not found (404); a new session was started, call again'));
      }
    }
    if (!response.ok) {
      this.pending.delete(id);
      const text = await response.text();
      return this.fail(call, new Error(`tools/call failed: ${response.status} ${text.slice(0, 200)}`));
    }
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      this.deliver({ data: await response.text() });
      return;
    }
    const stream: StreamState = {};
    let outcome = await this.read(response, stream).catch(() => 'cut' as const);
    for (let resumes = 0; outcome === 'cut' && this.pending.has(id) && !this.closed; resumes++) {
      if (stream.cursor === undefined) return this.fail(call, new Error('the stream was cut before any event ID: it cannot be resumed'));
      if (resumes >= MAX_RESUMES) return this.fail(call, new Error(`the stream could not be resumed after ${MAX_RESUMES} attempts`));
      const resumed = await fetch(this.endpoint, {
        method: 'GET',
        headers: { ...this.headers(), accept: 'text/event-stream', 'last-event-id': stream.cursor },
        signal: controller.signal,
      });
      if (!resumed.ok) {
        await resumed.body?.cancel();
        if (resumed.status === 404) {
          await this.sessionNotFound();
          if (this.knobs.on404 === 'retrySession') continue;
        }
        this.pending.delete(id);
        return this.fail(call, new Error(`resume refused: ${resumed.status}`));
      }
      outcome = await this.read(resumed, stream).catch(() => 'cut' as const);
    }
  }

  /** Starts the call's timeout: reject and cancel, or (mutant) re-send silently once. */
  private arm(call: Call, id: number): void {
    if (!this.knobs.boundedWait) return;
    clearTimeout(call.timer);
    call.timer = setTimeout(() => {
      if (call.settled || this.closed) return;
      this.pending.delete(id);
      call.abort?.abort();
      if (this.knobs.retryOnTimeout && !call.retried) {
        call.retried = true;
        void this.send(call).catch((error: unknown) => this.fail(call, error as Error));
        return;
      }
      call.reject(new Error(`request ${id} timed out after ${this.timeoutMs} ms`));
      void this.cancel(id);
    }, this.timeoutMs);
  }

  private async cancel(id: number): Promise<void> {
    const url = this.transport === 'sse' ? this.legacy?.endpoint : this.endpoint.href;
    if (url === undefined || (this.transport === 'streamable' && this.deadSession)) return;
    try {
      const response = await this.post(url, { method: 'notifications/cancelled', params: { requestId: id, reason: 'timeout' } });
      await response.body?.cancel();
    } catch {
      // best effort
    }
  }

  // --- legacy HTTP+SSE ------------------------------------------------------------------------

  private async openLegacy(): Promise<void> {
    const stream: StreamState = {};
    const controller = this.controller();
    const response = await fetch(this.endpoint, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    if (!response.ok) throw new Error(`GET ${this.endpoint.pathname} failed: ${response.status}`);
    const endpoint = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no endpoint event')), this.setupMs);
      void this.readLegacy(response, stream, (event) => {
        if (event.event !== 'endpoint') return false;
        clearTimeout(timer);
        if (event.id !== undefined) stream.cursor = event.id;
        resolve(event.data);
        return true;
      });
    });
    const url = new URL(endpoint, this.endpoint);
    this.legacy = { endpoint: url.href, session: url.searchParams.get('sessionId') ?? '', stream };
    const id = this.nextId++;
    const initialized = new Promise<unknown>((resolve, reject) => {
      const call: Call = { name: 'initialize', args: {}, settled: false, retried: false, resolve, reject };
      this.pending.set(id, call);
      setTimeout(() => reject(new Error('initialize timed out')), this.setupMs).unref();
    });
    const posted = await this.post(this.legacy.endpoint, {
      id,
      method: 'initialize',
      params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'mcp-resume-spec-reference-client', version: '1' } },
    });
    await posted.body?.cancel();
    await initialized;
    const note = await this.post(this.legacy.endpoint, { method: 'notifications/initialized' });
    await note.body?.cancel();
  }

  /** Reads the legacy stream and resumes it when cut, for as long as the client lives. */
  private async readLegacy(response: Response, stream: StreamState, onEvent?: (event: SseEvent) => boolean): Promise<void> {
    let outcome = await this.read(response, stream, onEvent).catch(() => 'cut' as const);
    for (let resumes = 0; outcome === 'cut' && !this.closed && this.legacy; resumes++) {
      const failAll = (why: string): void => {
        for (const [id, call] of this.pending) {
          this.pending.delete(id);
          this.fail(call, new Error(why));
        }
      };
      if (stream.cursor === undefined || resumes >= MAX_RESUMES) return failAll('the legacy stream was cut and cannot be resumed');
      const controller = this.controller();
      const url =
        this.knobs.resumeAt === 'same'
          ? `${new URL(this.endpoint.pathname, this.endpoint).href}?sessionId=${encodeURIComponent(this.legacy.session)}`
          : new URL('/mcp', this.endpoint).href;
      const headers: Record<string, string> = { accept: 'text/event-stream', 'last-event-id': stream.cursor };
      if (this.knobs.resumeAt === 'other') headers['mcp-session-id'] = this.legacy.session;
      let resumed: Response;
      try {
        resumed = await fetch(url, { headers, signal: controller.signal });
      } catch {
        return failAll('the legacy stream could not be resumed');
      }
      if (!resumed.ok) {
        await resumed.body?.cancel();
        return failAll(`resume refused: ${resumed.status}`);
      }
      outcome = await this.read(resumed, stream).catch(() => 'cut' as const);
    }
  }

  private async sendLegacy(call: Call): Promise<void> {
    if (!this.legacy) throw new Error('not connected');
    const id = this.nextId++;
    this.pending.set(id, call);
    this.arm(call, id);
    const response = await this.post(this.legacy.endpoint, { id, method: 'tools/call', params: { name: call.name, arguments: call.args } });
    await response.body?.cancel();
    if (!response.ok) {
      this.pending.delete(id);
      this.fail(call, new Error(`tools/call failed: ${response.status}`));
    }
  }
}

/** A factory of reference clients with the given knobs (the correct ones by default). */
export function referenceClientFactory(knobs: Partial<ReferenceClientKnobs> = {}) {
  const settings = { ...correctKnobs, ...knobs };
  return async (options: ClientFactoryOptions): Promise<ClientUnderTest> => {
    const client = new ReferenceClient(new URL(options.url), options.transport, options.timeoutMs, settings);
    try {
      await client.connect();
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  };
}
