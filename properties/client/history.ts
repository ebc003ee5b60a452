/**
 * What a client check records: the client's wire traffic as a loopback proxy saw it, and what the
 * client's application saw, on one clock. The judges in this folder read only this.
 */
import type { Transport } from '../../model/transport.js';

/** A JSON-RPC message as it went over the wire (parsed, unvalidated). */
export interface WireMessage {
  method?: string;
  id?: string | number | null;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** One request the proxy received. `origin: 'checker'` marks a fault the checker itself sent (an expiry). */
export interface WireRequest {
  kind: 'request';
  at: number;
  exchange: number;
  origin: 'client' | 'checker';
  method: string;
  /** The endpoint path: `/mcp`, `/sse`, `/messages`, or anything else the client asked for. */
  path: string;
  /** `sessionId` of the query string (legacy transport). */
  querySession?: string;
  /** `Mcp-Session-Id` header. */
  sessionId?: string;
  /** `Last-Event-ID` header. */
  lastEventId?: string;
  /** The body's JSON-RPC messages (a batch flattened). */
  messages: WireMessage[];
}

/** The status line and session header of one exchange's answer to the client. */
export interface WireResponse {
  kind: 'response';
  at: number;
  exchange: number;
  status: number;
  sessionId?: string;
  /** Whether the body is an SSE stream. */
  stream: boolean;
  /** A JSON body's messages. */
  messages: WireMessage[];
}

/** One SSE frame forwarded to the client. */
export interface WireFrame {
  kind: 'frame';
  at: number;
  exchange: number;
  id?: string;
  event?: string;
  /** The frame's data as JSON-RPC, when it parses as such. */
  message?: WireMessage;
  /** The raw data (an `endpoint` event's URI, or empty for a priming event). */
  data: string;
}

/** A fault the proxy applied (cut, delay, an answer of its own, a withheld frame, an expiry). */
export interface WireFault {
  kind: 'fault';
  at: number;
  exchange: number;
  fault: string;
  detail: string;
}

/** The end of an exchange's answer: cleanly, or cut by a fault or by either side. */
export interface WireEnd {
  kind: 'end';
  at: number;
  exchange: number;
  cut: boolean;
}

export type WireEntry = WireRequest | WireResponse | WireFrame | WireFault | WireEnd;

/** The application called a tool. `call` numbers the application's calls from 1. */
export interface AppCall {
  kind: 'call';
  at: number;
  call: number;
  name: string;
  args: Record<string, unknown>;
}

/** The application received a notification. */
export interface AppNotification {
  kind: 'notification';
  at: number;
  method: string;
  params?: unknown;
}

/** A call settled (or was still pending when the checker stopped waiting). */
export interface AppSettled {
  kind: 'settled';
  at: number;
  call: number;
  outcome: 'resolved' | 'rejected' | 'pending';
  value?: unknown;
  error?: string;
}

export type AppEntry = AppCall | AppNotification | AppSettled;

/** One scenario's record. */
export interface ClientHistory {
  transport: Transport;
  wire: WireEntry[];
  app: AppEntry[];
  /** How long the checker waited for each call to settle, ms. */
  boundMs: number;
  /**
   * `inclusive` when the scenario's server replays from the cursor on, the cursor's event again: a
   * departure from the spec's "after the last event ID" the scenario makes on purpose.
   */
  serverReplay?: 'inclusive';
}
