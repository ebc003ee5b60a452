/** What the proxy's parts share: the proxy's own state, and one exchange's. */
import type http from 'node:http';
import type { WireEntry, WireMessage } from '../../../properties/client/history.js';
import type { Clock } from './clock.js';

/** The proxy as its parts see it. */
export interface ProxyContext {
  /** The reference server's base URL. */
  upstream: URL;
  clock: Clock;
  /** Records a wire entry, unless the proxy has closed. */
  record(entry: WireEntry): void;
  /** Waits `ms`, or less when the proxy closes. */
  wait(ms: number): Promise<void>;
  /** Whether the proxy has closed. */
  closed(): boolean;
  /** Resolves (true) once the application has `message` of a frame forwarded at clock `since`, or false past a bound. */
  applicationHas(message: WireMessage, since: number): Promise<boolean>;
  /** Requests to the server in flight: destroyed when the proxy closes. */
  upstreamRequests: Set<http.ClientRequest>;
}

/** One exchange the proxy forwards: the client's response and the request to the server it relays. */
export interface Exchange {
  /** The exchange's number in the wire record, from 1. */
  number: number;
  res: http.ServerResponse;
  upstreamReq: http.ClientRequest;
  upstreamRes: http.IncomingMessage;
  /** The server's status. */
  status: number;
  /** The session the server's answer names (`Mcp-Session-Id`), if any. */
  sessionId?: string;
  /** Terminates the session at the server once, if the exchange's faults ask it. */
  expireIfAsked(): Promise<void>;
  /** Records the end of the answer (`cut` or not) and forgets the request to the server. */
  finish(cut: boolean): Promise<void>;
}
