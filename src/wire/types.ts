/**
 * Public result types of the checking client. Every operation returns one of these instead of
 * throwing: bad server behaviour is a value (and a `failure` entry in the history), never an
 * exception.
 */
import type { Transport } from '../../model/transport.js';
import type { SseStream } from './sse-stream.js';
import type { FailureReason, Headers, ResponseOutcome, AwaitResponseOptions } from './stream-types.js';

export type {
  FailureReason,
  CursorAdvance,
  Frame,
  ReceiveResult,
  DrainResult,
  DropResult,
  Headers,
  ResponseOutcome,
  AwaitResponseOptions,
} from './stream-types.js';

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
  | { kind: 'error'; conn: number; reason: FailureReason; detail: string; status?: number; code?: string };

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
