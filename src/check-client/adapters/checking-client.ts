/**
 * Client adapter over this project's own checking client (`src/wire/`, {@link CheckClient}): the
 * client under test is the checking client, used as an application uses a transport. Its streams
 * receive eagerly, and the application processes (drains) what was received one frame behind, or
 * once the stream has been quiet for a moment: a one-frame read-ahead, as a batching application
 * has. A cut drops the connection with whatever was received but not processed (the model's drop),
 * and the call's stream is resumed with the checking client's own `resume`, from the stream's own
 * cursor, with its own per-stream dedup. So the cursor setting decides: on drain (correct), the
 * resume replays what the application lacks; on receive (a mutant), the read-ahead frame is lost.
 *
 * The checking client is a driver: it has no policy for a 404, a timeout or a cut. Those are the
 * application's here, one knob each, so every client mutant is the checking client with one knob
 * flipped ({@link correctKnobs}).
 *
 * `mcp-resume-spec check-client --client checking-client` (or `--adapter src/check-client/adapters/checking.ts`).
 */
import { CheckClient, type RequestHandle, type SseStream } from '../../wire/index.js';
import { patientTimeout } from '../../wire/patient-timer.js';
import type { Answer, DrainResult } from '../../wire/types.js';
import type { JsonRpcMessage } from '../../../properties/history.js';
import type { Transport } from '../../../model/transport.js';
import type { ClientFactoryOptions, ClientUnderTest } from './contract.js';
import { toolVersion } from '../../version.js';

/** How the application around the checking client behaves: the model's client knobs, and the ones the client properties need. */
export interface ClientKnobs {
  /** The checking client's `cursorAdvance`: `onDrain` (`drain`) or `onReceive` (`receive`). */
  cursorAdvance: 'onDrain' | 'onReceive';
  /** The checking client's `dedup`: drop a frame whose event ID the application already processed on the stream. */
  dedup: boolean;
  /** On a 404 for its session: start a new session, or retry the dead one. */
  on404: 'reinitialize' | 'retrySession';
  /** Re-send a timed-out tool call under a new request ID, without telling the application. */
  retryOnTimeout: boolean;
  /** Resume a cut legacy stream at its own endpoint (`same`) or at `/mcp` with the legacy session (`other`). */
  resumeAt: 'same' | 'other';
  /**
   * Resume a cut streamable call stream at `/mcp` (`same`), or at the legacy `/sse` presenting the
   * streamable session in the `Mcp-Session-Id` header only, no `?sessionId=` (`other`).
   */
  streamableResumeAt: 'same' | 'other';
  /**
   * When a call's stream is cut: keep the call waiting while the stream is resumed (`wait`), or
   * resolve it at once with a made-up empty result `{content: []}` and resume in the background,
   * the notifications still delivered (`emptyResult`).
   */
  onCutCall: 'wait' | 'emptyResult';
  /** Reject a call past the timeout, or when its stream cannot be resumed; false waits forever. */
  boundedWait: boolean;
}

/** The correct setting. */
export const correctKnobs: ClientKnobs = {
  cursorAdvance: 'onDrain',
  dedup: true,
  on404: 'reinitialize',
  retryOnTimeout: false,
  resumeAt: 'same',
  streamableResumeAt: 'same',
  onCutCall: 'wait',
  boundedWait: true,
};

const MAX_RESUMES = 3;
const MAX_SESSION_RETRIES = 2;
/** How long the newest received frame waits for a next one before the application processes it anyway. */
const READ_AHEAD_IDLE_MS = 25;
/** Request IDs of tool calls start here (the checking client numbers its own `initialize` requests from 1). */
const FIRST_CALL_ID = 1000;

/** One application call: settled at most once, whatever happens on the wire. */
interface Call {
  name: string;
  args: Record<string, unknown>;
  settled: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Cancels the call's timeout. */
  cancelTimer?: () => void;
  retried: boolean;
  /** The stream the call's response is awaited on (streamable), dropped when the call is given up. */
  stream?: SseStream;
}

type PumpOutcome = 'ended' | 'cut' | 'dropped';

class CheckingClientUnderTest implements ClientUnderTest {
  private readonly listeners: Array<(n: { method: string; params?: unknown }) => void> = [];
  private readonly pending = new Map<number, Call>();
  /** Sessions a 404 declared gone: never presented again (unless the knob says retry). */
  private readonly deadSessions = new Set<string>();
  private readonly client: CheckClient;
  private nextId = FIRST_CALL_ID;
  private closed = false;
  /** Bound of each HTTP exchange's headers (the call's own timer bounds the application's wait). */
  private readonly exchangeMs: number;

  constructor(
    baseUrl: URL,
    endpointPath: string,
    private readonly transport: Transport,
    private readonly timeoutMs: number,
    private readonly knobs: ClientKnobs,
  ) {
    this.exchangeMs = Math.max(timeoutMs * 10, 5000);
    this.client = new CheckClient({
      baseUrl,
      paths: transport === 'streamable' ? { mcp: endpointPath } : { sse: endpointPath },
      timeoutMs: this.exchangeMs,
      cursorAdvance: knobs.cursorAdvance === 'onDrain' ? 'drain' : 'receive',
      dedup: knobs.dedup,
      clientInfo: { name: 'mcp-resume-spec-checking-client', version: toolVersion() },
    });
  }

  onNotification(listener: (n: { method: string; params?: unknown }) => void): void {
    this.listeners.push(listener);
  }

  async connect(): Promise<void> {
    const outcome = await this.client.initialize({ transport: this.transport, timeoutMs: this.exchangeMs });
    if (!outcome.ok) throw new Error(`initialize failed: ${outcome.reason}`);
    if (this.transport === 'sse') void this.readLegacy();
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
          call.cancelTimer?.();
          resolve(value);
        },
        reject: (error) => {
          if (call.settled) return;
          call.settled = true;
          call.cancelTimer?.();
          reject(error);
        },
      };
      void this.send(call).catch((error: unknown) => this.fail(call, error instanceof Error ? error : new Error(String(error))));
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const call of this.pending.values()) call.cancelTimer?.();
    this.pending.clear();
    this.client.close();
  }

  /** Gives up on a call, unless this client never surfaces a failed wait. */
  private fail(call: Call, error: Error): void {
    if (this.knobs.boundedWait) call.reject(error);
  }

  // --- the application's side of a stream -----------------------------------------------------

  /** The application processes one drained frame: a notification to the listeners, a response to its call. */
  private process(drained: DrainResult): void {
    if (drained.kind !== 'frame' || drained.duplicate || drained.frame.message === undefined) return;
    const message = drained.frame.message;
    if (typeof message.method === 'string' && message.id === undefined) {
      for (const listener of this.listeners) listener({ method: message.method, params: message.params });
      return;
    }
    this.settle(message);
  }

  /** A response reaches the application: its call settles. */
  private settle(message: JsonRpcMessage): void {
    if (typeof message.id !== 'number') return;
    const call = this.pending.get(message.id);
    if (!call) return;
    this.pending.delete(message.id);
    if (message.error !== undefined) call.reject(new Error(String((message.error as { message?: unknown } | null)?.message ?? 'error')));
    else call.resolve(message.result);
  }

  /**
   * Receives a stream to its end: every frame but the newest is processed as the next arrives, the
   * newest once the stream is quiet. `ended`: the server ended the body (all processed); `cut`: the
   * connection failed, and the stream was dropped with its unprocessed frames.
   */
  private async pump(stream: SseStream): Promise<PumpOutcome> {
    for (;;) {
      const r = await stream.receive(stream.undrained > 0 ? READ_AHEAD_IDLE_MS : this.exchangeMs, 'no frame (idle)');
      switch (r.kind) {
        case 'frame':
          while (stream.undrained > 1) this.process(stream.drain());
          continue;
        case 'timeout':
          while (stream.undrained > 0) this.process(stream.drain());
          if (this.closed) return 'dropped';
          continue;
        case 'end':
          while (stream.undrained > 0) this.process(stream.drain());
          return 'ended';
        case 'error':
          if (!r.final) continue;
          stream.drop();
          return 'cut';
        case 'dropped':
          return 'dropped';
      }
    }
  }

  // --- sessions ---------------------------------------------------------------------------------

  private isDead(sessionId: string | undefined): boolean {
    return sessionId !== undefined && this.deadSessions.has(sessionId) && this.knobs.on404 === 'reinitialize';
  }

  /** A 404 for `sessionId`: start a new session (correct), or (mutant) keep using the dead one. */
  private async sessionNotFound(sessionId: string | undefined): Promise<void> {
    if (this.knobs.on404 !== 'reinitialize') return;
    if (sessionId !== undefined) this.deadSessions.add(sessionId);
    if (this.client.session.sessionId !== sessionId) return; // another call already started a new one
    const outcome = await this.client.initialize({ timeoutMs: this.exchangeMs });
    if (!outcome.ok) throw new Error(`re-initialize after 404 failed: ${outcome.reason}`);
  }

  // --- streamable HTTP --------------------------------------------------------------------------

  private async send(call: Call): Promise<void> {
    const id = this.nextId++;
    this.pending.set(id, call);
    this.arm(call, id);
    if (this.transport === 'sse') return this.sendLegacy(call, id);
    let handle: RequestHandle;
    for (let attempt = 0; ; attempt++) {
      const sessionId = this.client.session.sessionId;
      handle = await this.client.callTool(call.name, call.args, { id, timeoutMs: this.exchangeMs });
      if (!isStatus(handle.answer, 404)) break;
      await this.sessionNotFound(sessionId);
      // A dead session's call was never executed; the mutant retries it there, the correct client surfaces it.
      if (this.knobs.on404 === 'reinitialize' || attempt >= MAX_SESSION_RETRIES) {
        this.pending.delete(id);
        return this.fail(call, new Error('session not found (404); a new session was started, call again'));
      }
    }
    if (handle.answer.kind !== 'stream') {
      // A JSON answer, or a failure: the checking client reads it.
      const outcome = await handle.response({ timeoutMs: this.exchangeMs });
      if (outcome.kind === 'response') return this.settle(outcome.message);
      this.pending.delete(id);
      return this.fail(call, new Error(`tools/call failed: ${describe(handle.answer)}`));
    }
    let stream = handle.answer.stream;
    call.stream = stream;
    let outcome = await this.pump(stream);
    if (outcome === 'cut' && this.knobs.onCutCall === 'emptyResult' && this.pending.delete(id)) call.resolve({ content: [] });
    // The mutant resumes on after resolving: the notifications still reach the application.
    const resumeAnyway = this.knobs.onCutCall === 'emptyResult';
    for (let resumes = 0; outcome === 'cut' && (this.pending.has(id) || resumeAnyway) && !this.closed; resumes++) {
      if (stream.cursor === undefined || stream.cursor === '')
        return this.fail(call, new Error('the stream was cut before any event ID: it cannot be resumed'));
      if (resumes >= MAX_RESUMES) return this.fail(call, new Error(`the stream could not be resumed after ${MAX_RESUMES} attempts`));
      if (this.isDead(stream.sessionId)) {
        this.pending.delete(id);
        return this.fail(call, new Error('the stream was cut and its session is gone (404): call again'));
      }
      const answer =
        this.knobs.streamableResumeAt === 'same'
          ? await this.client.resume({ from: stream, timeoutMs: this.exchangeMs })
          : await this.client.resume({ from: stream, endpoint: 'sse', sessionIdIn: 'header', adopt: false, timeoutMs: this.exchangeMs });
      if (answer.kind !== 'stream') {
        if (isStatus(answer, 404)) {
          await this.sessionNotFound(stream.sessionId);
          if (this.knobs.on404 === 'retrySession') continue;
        }
        this.pending.delete(id);
        return this.fail(call, new Error(`resume refused: ${describe(answer)}`));
      }
      stream = answer.stream;
      call.stream = stream;
      outcome = await this.pump(stream);
    }
  }

  /** Starts the call's timeout: reject and cancel, or (mutant) re-send silently once. */
  private arm(call: Call, id: number): void {
    if (!this.knobs.boundedWait) return;
    call.cancelTimer?.();
    // Patient: on a loaded machine a plain timer fires with the answer unread in the socket.
    call.cancelTimer = patientTimeout(this.timeoutMs, () => {
      if (call.settled || this.closed) return;
      this.pending.delete(id);
      call.stream?.drop();
      if (this.knobs.retryOnTimeout && !call.retried) {
        call.retried = true;
        void this.send(call).catch((error: unknown) => this.fail(call, error as Error));
        return;
      }
      call.reject(new Error(`request ${id} timed out after ${this.timeoutMs} ms`));
      if (!this.isDead(this.client.session.sessionId)) {
        void this.client.notify('notifications/cancelled', { requestId: id, reason: 'timeout' }, { timeoutMs: this.exchangeMs });
      }
    });
  }

  // --- legacy HTTP+SSE --------------------------------------------------------------------------

  private async sendLegacy(call: Call, id: number): Promise<void> {
    const handle = await this.client.callTool(call.name, call.args, { id, transport: 'sse', timeoutMs: this.exchangeMs });
    if (handle.answer.kind === 'body' && handle.answer.status >= 200 && handle.answer.status < 300) return;
    this.pending.delete(id);
    this.fail(call, new Error(`tools/call failed: ${describe(handle.answer)}`));
  }

  /** Receives the session's one stream, and resumes it when cut, for as long as the client lives. */
  private async readLegacy(): Promise<void> {
    const failAll = (why: string): void => {
      for (const [id, call] of this.pending) {
        this.pending.delete(id);
        this.fail(call, new Error(why));
      }
    };
    let stream = this.client.session.legacyStream;
    for (let resumes = 0; stream !== undefined && !this.closed; resumes++) {
      const outcome = await this.pump(stream);
      if (outcome !== 'cut' || this.closed) return;
      if (stream.cursor === undefined || stream.cursor === '' || resumes >= MAX_RESUMES) return failAll('the legacy stream was cut and cannot be resumed');
      const answer =
        this.knobs.resumeAt === 'same'
          ? await this.client.resume({ from: stream, timeoutMs: this.exchangeMs })
          : await this.client.resume({ from: stream, endpoint: 'mcp', sessionIdIn: 'header', timeoutMs: this.exchangeMs });
      if (answer.kind !== 'stream') return failAll(`resume refused: ${describe(answer)}`);
      stream = answer.stream;
    }
  }
}

function isStatus(answer: Answer, status: number): boolean {
  return answer.status === status;
}

function describe(answer: Answer): string {
  return answer.kind === 'error' ? answer.detail : `${answer.status}${answer.kind === 'body' ? ` ${answer.text.slice(0, 200)}` : ''}`;
}

/** A factory of checking clients with the given knobs (the correct ones by default). */
export function checkingClientFactory(knobs: Partial<ClientKnobs> = {}) {
  const settings = { ...correctKnobs, ...knobs };
  return async (options: ClientFactoryOptions): Promise<ClientUnderTest> => {
    const url = new URL(options.url);
    const client = new CheckingClientUnderTest(new URL(url.origin), url.pathname, options.transport, options.timeoutMs, settings);
    try {
      await client.connect();
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  };
}
