/**
 * The data of one server-side session: what the session machine holds and what it answers.
 * `M` is the message type: abstract messages in the model's world, JSON-RPC objects in the
 * reference server. The machine never looks inside a message.
 */
import type { ServerPolicy } from './policy.js';
import type { Transport } from './transport.js';

/** Client capabilities as declared in `initialize` (a JSON object). */
export type Capabilities = Readonly<Record<string, unknown>>;

/** The capabilities a session falls back to when it re-derives them instead of keeping the negotiated ones. */
export const defaultCapabilityProfile: Capabilities = Object.freeze({});

/** What kind of SSE stream: the legacy transport's one stream, a POST's stream, or the standalone GET stream. */
export type StreamKind = 'legacy' | 'request' | 'standalone';

/** An event the session has sent: it is in the session's log (its event store) with an ID. */
export interface StoredEvent<M> {
  id: string;
  stream: string;
  /** The listener (transport) whose namespace minted the ID. */
  minted: Transport;
  /** `endpoint` (legacy) and `priming` (streamable) open a stream and carry no message. */
  opening?: 'endpoint' | 'priming';
  message?: M;
}

/** One SSE stream of the session. */
export interface Stream<M> {
  id: string;
  kind: StreamKind;
  /** The transport the stream was opened under; its events are minted in that namespace. */
  transport: Transport;
  /** For `request` streams: the JSON-RPC request ID the stream answers. */
  requestId?: string;
  /** Messages waiting to be sent, in order. */
  queue: M[];
  /** Whether a client connection is attached (the server's view). */
  connected: boolean;
  /** A request stream whose response has been sent: its connection ends after what it carries. */
  complete: boolean;
}

/** How a resume request ended. */
export type ResumeOutcome = 'replayed' | 'quiet' | 'rejected';

/** What the session remembers of each resume it was asked for (judged by the invariants). */
export interface ResumeRecord {
  transport: Transport;
  lastEventId: string;
  outcome: ResumeOutcome;
  /** Presented under a transport other than the one that established the session. */
  crossTransport: boolean;
  /** For `replayed`: the IDs of the events the replay carried, in order (judged by `replay-has-no-gap`). */
  replayed?: string[];
}

/**
 * The answer to the last event the session received: an HTTP status and the frames to write.
 * The reference server writes exactly this; the world puts `frames` on the wire.
 */
export interface Reply<M> {
  status: number;
  /** Why a request was refused, in words that name no event ID; shown to the client in the JSON-RPC error (see `replyReason`). */
  reason?: string;
  /** A resume refused because its Last-Event-ID names no event of the session's streams: that Last-Event-ID (see `replyReason`). */
  unknownCursor?: string;
  /** The stream the frames belong to and the request's connection now carries. */
  stream?: string;
  frames: StoredEvent<M>[];
  /** The connection ends after these frames (the stream's response has been sent). */
  end?: boolean;
}

/**
 * Why `reply` was refused, in words; undefined when it gives no reason. With `eventIds: false` the
 * sentence names no event ID (a candidate run compares the model's answer with a candidate's, whose
 * IDs are not the model's).
 */
export function replyReason(reply: Reply<unknown>, { eventIds = true }: { eventIds?: boolean } = {}): string | undefined {
  if (reply.unknownCursor === undefined) return reply.reason;
  return `${eventIds ? `Last-Event-ID ${reply.unknownCursor}` : 'the Last-Event-ID'} is not an event of this session's streams`;
}

export interface SessionContext<M> {
  sessionId: string;
  /** Short per-session tag inside event IDs, so IDs of different sessions never collide. */
  tag: string;
  policy: ServerPolicy;
  /** The transport that established the session. */
  transport: Transport | null;
  protocolVersion: string | null;
  /** Capabilities the client declared in `initialize`. */
  negotiated: Capabilities | null;
  /** Capabilities the session currently serves requests under. */
  capabilities: Capabilities | null;
  /** Number part of the next event ID. */
  nextEvent: number;
  /** Every event sent, in send order: the event store replays read. */
  log: StoredEvent<M>[];
  /**
   * Index in `log` of the oldest event the store still holds: the events before it were dropped
   * by log retention (`TRIM`), and a cursor naming one can no longer be placed. 0 without retention.
   * The log keeps them as the record of what was sent; replays never read them.
   */
  retainedFrom: number;
  /** The session ended by expiring (idle past its TTL), not by a DELETE. */
  expired: boolean;
  streams: Stream<M>[];
  resumes: ResumeRecord[];
  /** A request was served while `capabilities` differed from `negotiated`. */
  servedUnderForeignCapabilities: boolean;
  reply: Reply<M>;
}

/** Input that creates a session actor. */
export interface SessionInput {
  sessionId: string;
  tag: string;
  policy: ServerPolicy;
}

/** Events the session machine takes: one per HTTP request (or server-side step) that touches it. */
export type SessionEvent<M> =
  /** `GET /sse`: the legacy transport opens its one stream before `initialize`, with an `endpoint` event. */
  | { type: 'OPEN_LEGACY' }
  | { type: 'INITIALIZE'; transport: Transport; protocolVersion: string; capabilities: Capabilities }
  | { type: 'OPEN_STANDALONE'; transport: Transport }
  | { type: 'NOTIFY'; transport: Transport }
  | {
      type: 'REQUEST';
      transport: Transport;
      requestId: string;
      /** Related notifications then the response, on the request's stream (the legacy stream under `sse`). */
      messages: M[];
      /** Notifications related to no request: the standalone stream (the legacy stream under `sse`). */
      unrelated?: M[];
    }
  | { type: 'SEND'; stream: string }
  | { type: 'CONNECTION_LOST'; stream: string }
  | { type: 'RESUME'; transport: Transport; lastEventId: string }
  | { type: 'DELETE'; transport: Transport }
  /** The server's idle timer: a session idle past its TTL ends (policy `sessionExpiry`). */
  | { type: 'EXPIRE' }
  /** Log retention drops the session's oldest retained event (policy `logRetention`). */
  | { type: 'TRIM' };
