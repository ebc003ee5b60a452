/**
 * The world the model explores: one server (its sessions and the tools' side effects), the wire,
 * and one client. Every part is plain data so that a world is a value a test can print.
 */
import type { Bounds } from './bounds.js';
import type { Policy } from './policy.js';
import type { SessionState } from './session-step.js';
import type { StoredEvent, StreamKind } from './session-types.js';
import type { Transport } from './transport.js';

/** The abstract messages of the world's one tool: `count` notifications, then the result. */
export interface WorldMessage {
  kind: 'notification' | 'result';
  /** The tool call's label (`c1`, `c2`...); a retry keeps the label. */
  call: string;
  /** The JSON-RPC request ID. */
  request: string;
  /** 1..count for notifications, 0 for the result. */
  seq: number;
}

export type WorldEvent = StoredEvent<WorldMessage>;

/** The client's side of one stream: its cursor, the connection's frames and what the application did. */
export interface ClientStream {
  /** The server's stream ID. */
  id: string;
  kind: StreamKind;
  /** The request a `request` stream answers. */
  request?: string;
  /** The `Last-Event-ID` the client would present to resume this stream. */
  cursor: string;
  /** Whether the client believes a connection carries this stream. */
  connected: boolean;
  /** Frames the server wrote on the connection that the client has not received yet. */
  wire: WorldEvent[];
  /** Frames received (parsed) but not yet processed by the application. */
  inbox: WorldEvent[];
  /** Event IDs the application processed, in order, duplicates included. */
  drained: string[];
}

export type RequestStatus = 'pending' | 'answered' | 'failed' | 'timedOut';

export interface ClientRequest {
  id: string;
  call: string;
  /** The stream the response comes on. */
  stream: string;
  /** Index of the session the request was sent in. */
  session: number;
  /** An `emit_unsolicited` call: its notifications go to the standalone stream. */
  unsolicited: boolean;
  status: RequestStatus;
}

/** `ready`: holds a session; `mustReinitialize`: was told 404; `idle`: holds none. */
export type ClientPhase = 'idle' | 'ready' | 'mustReinitialize';

export interface ClientState {
  phase: ClientPhase;
  /** The transport the client speaks now (it switches on an accepted migration). */
  transport: Transport;
  /** Index of the held session in `World.sessions`, or -1. */
  session: number;
  streams: ClientStream[];
  requests: ClientRequest[];
  /** A cursor from an earlier session, kept to present as a foreign one. */
  staleCursor: string | null;
}

/** How much of each bound the world has used. */
export interface Used {
  calls: number;
  drops: number;
  resumes: number;
  reinitializes: number;
  retries: number;
  deletes: number;
}

/** What the last step's HTTP exchange answered, for traces. */
export interface LastAnswer {
  status: number;
  reason?: string;
}

export interface World {
  policy: Policy;
  bounds: Bounds;
  sessions: SessionState[];
  /** Side effects of the tool, per call label, across the whole server process. */
  executions: Record<string, number>;
  client: ClientState;
  used: Used;
  last: LastAnswer | null;
}

/** Input that creates a world. */
export interface WorldInput {
  policy: Policy;
  bounds: Bounds;
}

/** How a resume presents itself. */
export type ResumeVia = 'same' | 'other';
/** Which cursor a resume presents: its own, a garbage one, or one from an earlier session. */
export type ResumeCursor = 'own' | 'garbage' | 'stale';

/** The steps of the world: the design's vocabulary. */
export type WorldStep =
  | { type: 'INITIALIZE'; transport: Transport }
  /** `migrate`: a legacy client POSTs this call at `/mcp` with its session's ID and no cursor, and speaks streamable from then on. */
  | { type: 'CALL'; unsolicited: boolean; migrate?: true }
  | { type: 'SEND'; stream: string }
  | { type: 'RECEIVE'; stream: string }
  | { type: 'DRAIN'; stream: string }
  | { type: 'DROP'; stream: string }
  | { type: 'RESUME'; stream: string; via: ResumeVia; cursor: ResumeCursor }
  | { type: 'TIMEOUT'; request: string }
  | { type: 'DELETE' }
  /** Server-side, policy `sessionExpiry: idleTtl`: the held session, idle, expires (the client is not told). */
  | { type: 'EXPIRE' }
  /** Server-side, policy `logRetention` bounded: the held session's store drops its oldest retained event. */
  | { type: 'TRIM' };
