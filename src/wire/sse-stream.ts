/**
 * One open SSE response body, as a handle the caller steps through.
 *
 * Three places a frame can be, each a distinct state the caller controls:
 * 1. **wire**: bytes read off the socket are parsed eagerly by `eventsource-parser` into a private
 *    wire queue. Nothing is recorded yet; to the application these frames are still in flight.
 *    When the wire queue reaches `highWater` frames the socket is paused, so further frames stay
 *    in the kernel buffers (and the server feels back-pressure).
 * 2. **inbox**: {@link SseStream.receive} moves the oldest wire item into this stream's inbox and
 *    records the `receive` entry at that moment. The inbox is per stream, so order is judged per
 *    stream.
 * 3. **drained**: {@link SseStream.drain} has the application process the oldest inbox frame and
 *    records the `drain` entry.
 *
 * {@link SseStream.drop} aborts the socket: inbox and wire are lost (counted in the `drop` entry)
 * and whatever is still in the socket is never read.
 */
import { createParser, type EventSourceMessage, type EventSourceParser, type ParseError } from 'eventsource-parser';
import type http from 'node:http';
import type { Endpoint, JsonRpcMessage, Purpose, ReceiveEntry } from '../../properties/history.js';
import type { Transport } from '../../model/transport.js';
import type { HistoryRecorder } from './history-recorder.js';
import { describeError, withCode, type Abortable, type Head } from './http.js';
import { Fifo } from './fifo.js';
import type { CursorAdvance, DrainResult, DropResult, FailureReason, Frame, Headers, ReceiveResult } from './stream-types.js';
import { patientTimeout } from './patient-timer.js';

/** Client-wide settings and hooks a stream needs. */
export interface StreamContext {
  readonly recorder: HistoryRecorder;
  readonly live: Set<Abortable>;
  readonly cursorAdvance: CursorAdvance;
  /** Whether the application discards a frame whose event ID it already processed on the same stream. */
  readonly dedup: boolean;
  /** Default bound of `receive`, ms. */
  readonly timeoutMs: number;
  /** Wire frames at which the socket is paused. */
  readonly highWater: number;
  /**
   * Called when a frame is received; returns true when the frame is a transport event that the
   * client consumed (the legacy `endpoint` event), which then does not enter the inbox.
   */
  readonly onTransportEvent?: (stream: SseStream, frame: Frame) => boolean;
  /** Called when the client has closed a stream's connection (see `closeIdleSockets`). */
  readonly onClientClose?: () => void;
}

/** A parsed frame still on the wire; `retry` carries a `retry:` field seen since the last one. */
interface WireFrame extends EventSourceMessage {
  retry?: number;
}

/** Malformed SSE lines still on the wire (consecutive ones coalesced). */
class WireError {
  count = 1;
  constructor(public detail: string) {}
}

type WireItem = WireFrame | WireError;

type Terminal = { kind: 'end' } | { kind: 'error'; reason: FailureReason; detail: string; code?: string };

interface Waiter {
  resolve: (r: ReceiveResult) => void;
  cancel: () => void;
}

/** Socket state of a stream. */
export type StreamState = 'open' | 'ended' | 'dropped';

/**
 * A handle on one open SSE response body (a POST's answer, the standalone GET stream, a resumed
 * stream, or the legacy `GET /sse` stream), with caller-controlled receive, drain and drop.
 */
export class SseStream {
  /** The connection number of this stream's exchange in the history. */
  readonly conn: number;
  readonly transport: Transport;
  readonly endpoint: Endpoint;
  readonly purpose: Purpose;
  readonly url: URL;
  readonly status: number;
  readonly headers: Headers;
  /**
   * The session this stream belongs to as the client knows it: the session ID the opening request
   * presented, else the server's `Mcp-Session-Id`; for a legacy stream, updated by each `endpoint`
   * event that names one. A resume `from` this stream presents it by default.
   */
  sessionId: string | undefined;
  /**
   * The `Last-Event-ID` the client would present to resume this stream. Starts at the cursor the
   * opening request presented (if a resume), and advances on receive or on drain (client option).
   * An empty `id:` field resets it to `''`, which resumes without the header.
   */
  cursor: string | undefined;
  /** The last `retry:` value (ms) among received frames. */
  retryMs: number | undefined;
  /** Legacy: the POST URI (absolute) from the last `endpoint` event received on this stream. */
  endpointUri: string | undefined;
  /**
   * Event IDs the application processed on this stream, shared with the connections that resume
   * it: dedup is per stream, as the model's client does it (IDs are unique within a session only).
   */
  readonly drainedIds: Set<string>;

  private readonly ctx: StreamContext;
  private readonly req: http.ClientRequest;
  private readonly res: http.IncomingMessage;
  private readonly parser: EventSourceParser;
  private readonly wire = new Fifo<WireItem>();
  private readonly inbox = new Fifo<Frame>();
  private readonly waiters = new Fifo<Waiter>();
  private peekers: Array<() => void> = [];
  private terminal: Terminal | undefined;
  private truncated: string | undefined;
  private terminalDelivered = false;
  private _state: StreamState = 'open';
  private paused = false;
  private pendingRetry: number | undefined;
  private flushing = false;
  private lastChar = '';
  private readonly abortable: Abortable;

  /** Wraps the response of `head` (whose content type is `text/event-stream`). */
  constructor(ctx: StreamContext, head: Head, initialCursor: string | undefined, sessionId: string | undefined, drainedIds = new Set<string>()) {
    this.ctx = ctx;
    this.drainedIds = drainedIds;
    this.conn = head.conn;
    this.transport = head.spec.transport;
    this.endpoint = head.spec.endpoint;
    this.purpose = head.spec.purpose;
    this.url = head.spec.url;
    this.status = head.status;
    this.headers = head.headers;
    this.sessionId = sessionId;
    this.cursor = initialCursor;
    this.req = head.req;
    this.res = head.res;
    this.parser = createParser({
      onEvent: (m: WireFrame) => this.onEvent(m),
      onError: (e: ParseError) => this.onParseError(e),
      onRetry: (ms: number) => {
        this.pendingRetry = ms;
      },
    });
    this.abortable = { conn: this.conn, abort: () => void this.drop(true) };
    ctx.live.add(this.abortable);

    const res = this.res;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (chunk.length === 0) return;
      this.lastChar = chunk[chunk.length - 1];
      this.parser.feed(chunk);
      if (!this.paused && this.wire.length >= ctx.highWater) {
        this.paused = true;
        res.pause();
      }
      this.pump();
    });
    res.on('end', () => this.finish({ kind: 'end' }));
    res.on('error', (err) => this.finish({ kind: 'error', reason: 'connection-reset', detail: describeError(err), ...withCode(err) }));
    res.on('close', () => {
      if (!res.complete) this.finish({ kind: 'error', reason: 'connection-reset', detail: 'connection closed before the body ended' });
    });
  }

  /** `open` while the socket is live, `ended` once the server finished the body, `dropped` after {@link drop}. */
  get state(): StreamState {
    return this._state;
  }

  /** Frames received and not yet drained. */
  get undrained(): number {
    return this.inbox.length;
  }

  /** Frames read off the socket but not yet received. */
  get inFlight(): number {
    return this.wire.count(isFrame);
  }

  /** The received, undrained frames, oldest first (a copy). */
  inboxFrames(): Frame[] {
    return this.inbox.toArray();
  }

  /**
   * Moves the next item off the wire: resolves with the next frame (recording a `receive` entry,
   * and a `malformed-json` failure when its data is not JSON), a non-final `error` for malformed
   * SSE lines, `end` (recording an `end` entry) or a final `error` when the body is over, or
   * `timeout` (recording a `timeout` failure) when nothing arrives within `timeoutMs`.
   * Concurrent calls are served in call order. Never rejects.
   *
   * @param timeoutMs bound of the wait (default: the client's `timeoutMs`)
   * @param timeoutDetail what the recorded `timeout` failure says was missing
   * @param awaiting the request whose response the caller waits for (recorded with a timeout)
   */
  receive(timeoutMs: number = this.ctx.timeoutMs, timeoutDetail = 'no frame', awaiting?: number | string): Promise<ReceiveResult> {
    if (this._state === 'dropped') return Promise.resolve({ kind: 'dropped' });
    if (this.waiters.length === 0) {
      if (this.wire.length > 0) return Promise.resolve(this.take());
      if (this.terminal !== undefined) return Promise.resolve(this.takeTerminal());
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve,
        cancel: patientTimeout(Math.max(0, timeoutMs), () => {
          if (!this.waiters.remove(waiter)) return;
          this.ctx.recorder.record({
            type: 'failure',
            conn: this.conn,
            reason: 'timeout',
            detail: `${timeoutDetail} within ${Math.round(timeoutMs)} ms`,
            ...(awaiting !== undefined ? { awaiting } : {}),
          });
          resolve({ kind: 'timeout', timeoutMs });
        }),
      };
      this.waiters.push(waiter);
    });
  }

  /**
   * The application processes the oldest received, undrained frame of this stream: records a
   * `drain` entry (with `duplicate: true` when client-side dedup has drained this event ID before
   * on this stream or a connection it resumes)
   * and, when the cursor advances on drain, moves the cursor (not for duplicates).
   */
  drain(): DrainResult {
    const frame = this.inbox.shift();
    if (frame === undefined) return { kind: 'empty' };
    const id = frame.id;
    let duplicate = false;
    if (this.ctx.dedup && id !== undefined && id !== '') {
      if (this.drainedIds.has(id)) duplicate = true;
      else this.drainedIds.add(id);
    }
    this.ctx.recorder.record(
      duplicate
        ? { type: 'drain', conn: this.conn, id, message: frame.message, duplicate: true }
        : { type: 'drain', conn: this.conn, id, message: frame.message },
    );
    if (!duplicate && id !== undefined && this.ctx.cursorAdvance === 'drain') this.cursor = id;
    return { kind: 'frame', frame, duplicate };
  }

  /**
   * Waits (bounded) until something is on the wire, and describes the first frame there without
   * receiving it (nothing is recorded, nothing moves). `undefined` when nothing came, the body
   * ended first, or the first wire item is malformed.
   */
  peek(timeoutMs: number = this.ctx.timeoutMs): Promise<{ event: string; data: string; id?: string } | undefined> {
    const first = () => {
      const item = this.wire.peek();
      if (item === undefined || item instanceof WireError) return undefined;
      return item.id === undefined ? { event: item.event ?? 'message', data: item.data } : { event: item.event ?? 'message', data: item.data, id: item.id };
    };
    if (this.wire.length > 0 || this.terminal !== undefined || this._state === 'dropped') return Promise.resolve(first());
    return new Promise((resolve) => {
      const notify = () => {
        cancelTimer();
        resolve(first());
      };
      const cancelTimer = patientTimeout(Math.max(0, timeoutMs), () => {
        this.peekers = this.peekers.filter((p) => p !== notify);
        resolve(undefined);
      });
      this.peekers.push(notify);
    });
  }

  /** Drains until the inbox is empty; returns how many frames were drained. */
  drainAll(): number {
    let n = 0;
    while (this.drain().kind === 'frame') n++;
    return n;
  }

  /**
   * Aborts this stream's socket now. Records a `drop` entry with the received-but-undrained frames
   * (`undrained`) and the frames read off the socket but not received (`inFlight`), all lost.
   * Pending receives resolve `dropped`. Dropping twice records nothing the second time.
   * @param atClose the client is closing: the scenario is over, nobody gave this stream up
   */
  drop(atClose = false): DropResult {
    if (this._state === 'dropped') return { undrained: 0, inFlight: 0, already: true };
    const undrained = this.inbox.length;
    const inFlight = this.inFlight;
    this.ctx.recorder.record(
      atClose ? { type: 'drop', conn: this.conn, undrained, inFlight, atClose: true } : { type: 'drop', conn: this.conn, undrained, inFlight },
    );
    this._state = 'dropped';
    this.ctx.live.delete(this.abortable);
    this.inbox.clear();
    this.wire.clear();
    this.parser.reset();
    this.res.destroy();
    const peekers = this.peekers;
    this.peekers = [];
    for (const notify of peekers) notify();
    this.req.destroy();
    this.ctx.onClientClose?.();
    for (let w = this.waiters.shift(); w !== undefined; w = this.waiters.shift()) {
      w.cancel();
      w.resolve({ kind: 'dropped' });
    }
    return { undrained, inFlight, already: false };
  }

  private onEvent(m: WireFrame): void {
    if (this.flushing) {
      // The body ended inside this frame: it was never complete, so it is not an event.
      this.truncated = m.data;
      return;
    }
    if (this.pendingRetry !== undefined) {
      m.retry = this.pendingRetry;
      this.pendingRetry = undefined;
    }
    this.wire.push(m);
  }

  private onParseError(e: ParseError): void {
    if (e.type === 'invalid-retry') {
      this.pushError(`invalid retry field: ${JSON.stringify(e.line ?? e.value ?? '')}`);
      return;
    }
    const line = e.line ?? e.field ?? '';
    this.pushError(`not an SSE line: ${JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line)}`);
  }

  private pushError(detail: string): void {
    const last = this.wire.last();
    if (last instanceof WireError) {
      last.count++;
      if (last.count <= 3) last.detail += `; ${detail}`;
    } else {
      this.wire.push(new WireError(detail));
    }
  }

  /** The server side of the body is over: detect a truncated last frame, then wake receivers. */
  private finish(terminal: Terminal): void {
    if (this.terminal !== undefined || this._state === 'dropped') return;
    this._state = 'ended';
    this.ctx.live.delete(this.abortable);
    // A last line without its newline, or a frame without its blank line, was cut off.
    const midLine = this.lastChar !== '' && this.lastChar !== '\n' && this.lastChar !== '\r';
    if (this.lastChar === '\r') this.parser.feed('\n'); // complete a CR line ending split from its LF
    this.flushing = true;
    this.parser.feed('\n\n');
    this.flushing = false;
    this.parser.reset();
    if (midLine && this.truncated === undefined) this.truncated = '';
    this.terminal = terminal;
    this.pump();
  }

  /** Serves waiting receivers from the wire, then with the terminal outcome. */
  private pump(): void {
    if (this.peekers.length > 0 && (this.wire.length > 0 || this.terminal !== undefined)) {
      const peekers = this.peekers;
      this.peekers = [];
      for (const notify of peekers) notify();
    }
    while (this.waiters.length > 0) {
      let result: ReceiveResult;
      if (this.wire.length > 0) result = this.take();
      else if (this.terminal !== undefined) result = this.takeTerminal();
      else return;
      const w = this.waiters.shift()!;
      w.cancel();
      w.resolve(result);
    }
  }

  private take(): ReceiveResult {
    const item = this.wire.shift()!;
    if (this.paused && this.wire.length <= this.ctx.highWater >> 1) {
      this.paused = false;
      this.res.resume();
    }
    if (item instanceof WireError) {
      const detail = item.count > 1 ? `${item.count} malformed SSE lines: ${item.detail}` : item.detail;
      this.ctx.recorder.record({ type: 'failure', conn: this.conn, reason: 'malformed-sse', detail });
      return { kind: 'error', reason: 'malformed-sse', detail, final: false };
    }
    return { kind: 'frame', frame: this.receiveFrame(item) };
  }

  private receiveFrame(m: WireFrame): Frame {
    const event = m.event ?? 'message';
    const data = m.data;
    const { message, problem } = event === 'message' && data !== '' ? readMessage(data) : {};
    const entry: ReceiveEntry = { type: 'receive', conn: this.conn, id: m.id, event, data } as ReceiveEntry;
    if (message !== undefined) entry.message = message;
    if (problem !== undefined) entry.error = problem.text;
    if (m.retry !== undefined) {
      entry.retry = m.retry;
      this.retryMs = m.retry;
    }
    const frame = this.ctx.recorder.record(entry as Omit<ReceiveEntry, 'seq' | 'at'>);
    if (problem !== undefined) {
      this.ctx.recorder.record({
        type: 'failure',
        conn: this.conn,
        reason: problem.reason,
        detail: `frame ${m.id === undefined ? '(no id)' : JSON.stringify(m.id)}: ${problem.text}`,
      });
    }
    const consumed = this.ctx.onTransportEvent?.(this, frame);
    // A transport event is processed as it is received, so it moves the cursor under either policy.
    if (m.id !== undefined && (this.ctx.cursorAdvance === 'receive' || consumed)) this.cursor = m.id;
    if (!consumed) this.inbox.push(frame);
    return frame;
  }

  private takeTerminal(): ReceiveResult {
    const t = this.terminal!;
    const truncated = this.truncated;
    if (!this.terminalDelivered) {
      this.terminalDelivered = true;
      const rec = this.ctx.recorder;
      if (truncated !== undefined) {
        rec.record({
          type: 'failure',
          conn: this.conn,
          reason: 'malformed-sse',
          detail: `body ended mid-frame${truncated === '' ? '' : `; partial data discarded: ${JSON.stringify(truncated.slice(0, 200))}`}`,
        });
      }
      if (t.kind === 'end') rec.record({ type: 'end', conn: this.conn });
      else rec.record({ type: 'failure', conn: this.conn, reason: t.reason, detail: t.detail });
    }
    if (t.kind === 'end') return truncated === undefined ? { kind: 'end' } : { kind: 'end', truncated };
    return { kind: 'error', reason: t.reason, detail: t.detail, final: true, ...(t.code !== undefined ? { code: t.code } : {}) };
  }
}

function isFrame(item: WireItem): boolean {
  return !(item instanceof WireError);
}

/**
 * A `message` event's data read as one JSON-RPC message, or what is wrong with it: `malformed-json`
 * when it is not JSON, `protocol` when it is JSON but not one message (`text` says which).
 */
export function readMessage(data: string): { message?: JsonRpcMessage; problem?: { reason: FailureReason; text: string } } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (err) {
    return { problem: { reason: 'malformed-json', text: `data is not JSON: ${describeError(err)}` } };
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return { message: parsed as JsonRpcMessage };
  return {
    problem: { reason: 'protocol', text: Array.isArray(parsed) ? 'data is a JSON array (a batch), not one message' : 'data is JSON but not an object' },
  };
}
