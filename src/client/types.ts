/**
 * Public result types of the checking client. Every operation returns one of these instead of
 * throwing: bad server behaviour is a value (and a `failure` entry in the history), never an
 * exception.
 */
import type { FailureEntry, JsonRpcMessage, ReceiveEntry } from '../../properties/history.js';
import type { Transport } from '../../model/transport.js';
import type { SseStream } from './sse-stream.js';

/** Why something failed, as recorded in the history's `failure` entries. */
export type FailureReason = FailureEntry['reason'];

/** When a stream's cursor (the `Last-Event-ID` it would present on resume) advances. */
export type CursorAdvance = 'receive' | 'drain';

/** One SSE frame as received: the very `receive` entry recorded in the history. */
export type Frame = ReceiveEntry;

/** The outcome of {@link SseStream.receive}. */
export type ReceiveResult =
  /** A frame moved from the wire into the inbox (or, for a transport event, was consumed). */
  | { kind: 'frame'; frame: Frame }
  /** The server ended the body; `truncated` holds a partial last frame that was discarded. */
  | { kind: 'end'; truncated?: string }
  /** Nothing arrived within the bound. The stream stays open. */
  | { kind: 'timeout'; timeoutMs: number }
  /**
   * Something went wrong. `final: false` (malformed SSE lines) leaves the stream readable;
   * `final: true` means the body is over (connection reset, aborted).
   */
  | { kind: 'error'; reason: FailureReason; detail: string; final: boolean }
  /** The client dropped this stream earlier. */
  | { kind: 'dropped' };

/** The outcome of {@link SseStream.drain}. */
export type DrainResult =
  /** The oldest undrained frame was processed; `duplicate` when dedup discarded it. */
  | { kind: 'frame'; frame: Frame; duplicate: boolean }
  /** Nothing received is waiting to be drained. */
  | { kind: 'empty' };

/** The outcome of {@link SseStream.drop}. */
export interface DropResult {
  /** Received and undrained frames lost. */
  undrained: number;
  /** Frames read off the socket but never received, lost. */
  inFlight: number;
  /** The stream had been dropped before; nothing was recorded this time. */
  already: boolean;
}

/** Response headers, lower-cased names. */
export type Headers = Record<string, string>;

/**
 * How the server answered one HTTP request.
 * - `stream`: a `text/event-stream` body, now an open {@link SseStream} handle;
 * - `body`: any other body, read whole (`json` when it parsed);
 * - `error`: no usable answer (connection refused or reset, timeout, unsendable request);
 *   `status` is set when headers arrived before the failure.
 */
export type Answer =
  | { kind: 'stream'; conn: number; status: number; headers: Headers; stream: SseStream }
  | { kind: 'body'; conn: number; status: number; headers: Headers; text: string; json?: unknown }
  | { kind: 'error'; conn: number; reason: FailureReason; detail: string; status?: number };

/** The outcome of waiting for the response to one JSON-RPC request. */
export type ResponseOutcome =
  /** The response (result or error) arrived, in a JSON body or as a frame of `stream`. */
  | { kind: 'response'; message: JsonRpcMessage; via: 'body' | 'stream'; frame?: Frame }
  /** The server answered the HTTP request with a non-2xx status and no response to this id. */
  | { kind: 'rejected'; status: number; text: string; json?: unknown; contentType?: string }
  | { kind: 'timeout'; timeoutMs: number }
  /** The stream ended before the response. */
  | { kind: 'end'; truncated?: string }
  | { kind: 'error'; reason: FailureReason; detail: string }
  /** The stream the response was expected on was dropped. */
  | { kind: 'dropped' };

/** A sent JSON-RPC request and where its response is expected. */
export interface RequestHandle {
  readonly id: number | string;
  readonly method: string;
  /** The transport the request was sent with. */
  readonly transport: Transport;
  /** How the HTTP POST was answered. */
  readonly answer: Answer;
  /**
   * The stream the response is expected on: the request's own stream (streamable HTTP, SSE
   * answer) or the session's one stream (legacy HTTP+SSE); absent for a JSON answer.
   */
  readonly stream?: SseStream;
  /** Waits (bounded) for this request's response; see {@link CheckClient.awaitResponse}. */
  response(options?: AwaitResponseOptions): Promise<ResponseOutcome>;
}

/** Options of {@link CheckClient.awaitResponse}. */
export interface AwaitResponseOptions {
  /** Total bound for the wait (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /**
   * Drain as frames are received, as an application that keeps up would (default true): after each
   * receive every undrained frame of the stream is drained, oldest first. With `false` the frames
   * stay in the inbox for the scenario to drain.
   */
  drain?: boolean;
}
