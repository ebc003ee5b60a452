/**
 * A recorded history: what the checking client did and saw while driving a candidate over HTTP.
 * Properties judge histories; the checking client (src/wire) writes them. Entries are in the
 * order they happened; `conn` names one HTTP exchange (one request and its response body).
 */
import type { Transport } from '../model/transport.js';

/** A JSON-RPC 2.0 message as parsed from the wire; never trusted to be well formed. */
export type JsonRpcMessage = {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
};

/** Which endpoint an exchange used. */
export type Endpoint = 'mcp' | 'sse' | 'messages';

/** Why the client made a request: lets properties find the exchanges they judge. */
export type Purpose = 'initialize' | 'initialized' | 'call' | 'ping' | 'list' | 'open-standalone' | 'open-legacy' | 'resume' | 'delete' | 'other';

interface Base {
  /** Position in the history, from 0. */
  seq: number;
  /** Milliseconds since the history began. */
  at: number;
}

/** An HTTP request the client sent. */
export interface RequestEntry extends Base {
  type: 'request';
  conn: number;
  transport: Transport;
  endpoint: Endpoint;
  purpose: Purpose;
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** Headers as sent, lower-cased names. */
  headers: Record<string, string>;
  /** The JSON body sent, if any. */
  body?: unknown;
  /** The session ID the request presented (header or `?sessionId=`), if any. */
  sessionId?: string;
  /** The `Last-Event-ID` the request presented, if any. */
  lastEventId?: string;
  /** For a resume: the connection of the stream the client means to continue with it. */
  resumes?: number;
}

/** The status line and headers of a response. */
export interface ResponseEntry extends Base {
  type: 'response';
  conn: number;
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
}

/** A whole non-SSE response body (JSON or text). */
export interface BodyEntry extends Base {
  type: 'body';
  conn: number;
  text: string;
  /** The parsed JSON, when the body parsed. */
  json?: unknown;
}

/** One SSE frame received: parsed by the transport, not yet processed by the application. */
export interface ReceiveEntry extends Base {
  type: 'receive';
  conn: number;
  /** The SSE `id:` field, if the frame had one. */
  id?: string;
  /** The SSE `event:` field (`message` when absent). */
  event: string;
  data: string;
  /** The JSON-RPC message in `data`, when it parsed. */
  message?: JsonRpcMessage;
  /** Why `data` is not a message, when it is not (priming events have empty data and no error). */
  error?: string;
  /** The SSE `retry:` value (ms) the server sent in this frame, or since the previous frame. */
  retry?: number;
}

/** The application processed one received frame. */
export interface DrainEntry extends Base {
  type: 'drain';
  conn: number;
  id?: string;
  message?: JsonRpcMessage;
  /** Dropped by client-side dedup because this event ID was drained before. */
  duplicate?: boolean;
}

/** The client severed a connection. */
export interface DropEntry extends Base {
  type: 'drop';
  conn: number;
  /** Frames received and not drained when the connection was cut (lost on the client side). */
  undrained: number;
  /** The client closed everything at the end of a scenario: not a drop the scenario asked for. */
  atClose?: boolean;
  /**
   * Frames the client had already read off the socket but not yet received (still "in flight"
   * from the application's point of view), lost with the connection. Frames still in the socket
   * are never read and not counted.
   */
  inFlight?: number;
}

/** The server ended a response body. */
export interface EndEntry extends Base {
  type: 'end';
  conn: number;
}

/** Something went wrong that the client observed; the client records it and goes on. */
export interface FailureEntry extends Base {
  type: 'failure';
  conn?: number;
  reason: 'timeout' | 'connection-refused' | 'connection-reset' | 'malformed-sse' | 'malformed-json' | 'unexpected-content-type' | 'protocol';
  detail: string;
  /** For a timeout while waiting for a response: the JSON-RPC ID of the request. */
  awaiting?: number | string;
}

/** A scenario step, recorded so traces read as the steps that produced them. */
export interface StepEntry extends Base {
  type: 'step';
  step: string;
}

export type HistoryEntry = RequestEntry | ResponseEntry | BodyEntry | ReceiveEntry | DrainEntry | DropEntry | EndEntry | FailureEntry | StepEntry;

/** Distributes `Omit` over the union, so each entry keeps its own fields. */
export type NewEntry = HistoryEntry extends infer E ? (E extends HistoryEntry ? Omit<E, 'seq' | 'at'> : never) : never;

/** A history: the entries, in order. */
export interface History {
  entries: HistoryEntry[];
  /**
   * What the run's trace calls the stream a connection opened (`stream r1`, `the call stream`), by
   * connection, where the writer knew: verdicts name a stream as its trace does.
   */
  streamNames?: Record<number, string>;
}
