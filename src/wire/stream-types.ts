/**
 * The checking client's result types that need no stream handle: what the HTTP layer and `SseStream`
 * share with the rest of the client (`types.ts` re-exports them, with the ones that hold a stream).
 */
import type { FailureEntry, JsonRpcMessage, ReceiveEntry } from '../../properties/history.js';

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
  | { kind: 'error'; reason: FailureReason; detail: string; final: boolean; code?: string }
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

/** The outcome of waiting for the response to one JSON-RPC request. */
export type ResponseOutcome =
  /** The response (result or error) arrived, in a JSON body or as a frame of `stream`. */
  | { kind: 'response'; message: JsonRpcMessage; via: 'body' | 'stream'; frame?: Frame }
  /** The server answered the HTTP request with a non-2xx status and no response to this id. */
  | { kind: 'rejected'; status: number; text: string; json?: unknown; contentType?: string }
  | { kind: 'timeout'; timeoutMs: number }
  /** The stream ended before the response. */
  | { kind: 'end'; truncated?: string }
  | { kind: 'error'; reason: FailureReason; detail: string; code?: string }
  /** The stream the response was expected on was dropped. */
  | { kind: 'dropped' };

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
