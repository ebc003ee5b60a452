/**
 * Mutation hooks: the few places where a deliberately broken server may distort what goes into the
 * session machine or what comes out of it. The machine stays the one source of truth: a mutation
 * never decides a session's semantics itself, it only bends the machine's inputs (the transport a
 * request is said to come under, which session a cursor goes to) or its outputs (the wire IDs, the
 * frames of a replay, the capabilities a tool reads, whether a DELETE reaches the machine at all).
 *
 * The default is {@link noMutation}: every hook absent, and the server's behaviour byte for byte
 * the reference's. The catalog of mutants built on these hooks is `src/check-server/mutants/`.
 *
 * A mutation with state (a counter, a clock) belongs to one server: build a fresh one per
 * `createReferenceServer` call.
 */
import type { Capabilities, Reply, SessionContext, SessionEvent, StoredEvent, StreamKind } from '../../model/session-types.js';
import type { Transport } from '../../model/transport.js';

/** The machine's state names. */
export type SessionState = 'awaitingInitialize' | 'active' | 'terminated';

/** The machine's RESUME event. */
export type ResumeEvent = Extract<SessionEvent<unknown>, { type: 'RESUME' }>;

/** What a hook may read of a session (never drive it: stepping is the server's job). */
export interface SessionFacts {
  readonly id: string;
  /** The per-session tag inside the machine's event IDs. */
  readonly tag: string;
  readonly state: SessionState;
  readonly context: SessionContext<unknown>;
  /** The wire ID of one of this session's machine event IDs (the ID itself without a codec). */
  wireId(machineId: string): string;
}

/**
 * Maps the machine's event IDs to the IDs written in SSE `id:` fields.
 *
 * `toWire` is asked once per event, at the moment the event enters the session's log (so a codec
 * may read the clock), and the answer is kept. The way back is the session's memory of what it
 * issued: a presented `Last-Event-ID` that this session gave to some event names the first event
 * it gave it to; one it never gave is passed to the machine as presented (and is, in practice,
 * unknown to it).
 */
export interface EventIdCodec {
  /**
   * @param event - the event just logged
   * @param context - the machine's context right after the step that logged it (`event` is in its log)
   */
  toWire(event: StoredEvent<unknown>, context: SessionContext<unknown>): string;
}

/** What {@link Mutation.resume} is given. */
export interface ResumeInput {
  /** The session whose machine answered (after the RESUME). */
  session: SessionFacts;
  /** The event as the machine got it: `lastEventId` decoded to a machine ID, transport as told. */
  event: ResumeEvent;
  /** `Last-Event-ID` as presented on the wire. */
  wireCursor: string;
  /** The machine's reply. */
  reply: Reply<unknown>;
}

/** What {@link Mutation.transport} is given. */
export interface TransportInput {
  /** The machine event about to be sent. */
  event: SessionEvent<unknown>['type'];
  /** The transport whose endpoint the request arrived at. */
  arrivedAt: Transport;
  /** The transport that established the session (null before `initialize`/`OPEN_LEGACY`). */
  established: Transport | null;
}

/** What {@link Mutation.routeResume} is given: two of the server's sessions, `S` (the server's `Session`). */
export interface RouteResumeInput<S extends SessionFacts = SessionFacts> {
  /** The session whose ID the resume presented. */
  presented: S;
  /** `Last-Event-ID` as presented. */
  wireCursor: string;
  /** The session of this server that issued `wireCursor` as an event ID, if any (searched on call). */
  owner(): S | undefined;
}

/**
 * The hooks. Each is optional; an absent hook means the reference behaviour.
 */
export interface Mutation {
  /** Shown in reports and errors. */
  readonly name: string;
  /** A new session's ID, for a session opened under `transport` (default: 128 random bits, hex). Asked again if it collides with a live one. */
  sessionId?(transport: Transport): string;
  /** Event IDs on the wire (default: the machine's IDs). */
  eventIds?: EventIdCodec;
  /**
   * The transport the machine is told a request came under (default: where it arrived). Rewriting
   * it makes a handler treat a request as if it had come to the other transport's endpoint.
   */
  transport?(input: TransportInput): Transport;
  /**
   * Which session's machine a resume (`GET` with `Last-Event-ID`, either transport) is sent to
   * (default: the presented one). The answer carries the presented session's ID in its head.
   */
  routeResume?<S extends SessionFacts>(input: RouteResumeInput<S>): S;
  /**
   * The reply written for a RESUME, given the machine's (default: the machine's). The machine's
   * state is not changed by it: what it believes it sent and what goes on the wire may differ.
   * The returned reply is used as the machine's would be: its status (2xx served), its stream (the
   * one the response now carries; none means a quiet stream), its frames and whether it ends.
   */
  resume?(input: ResumeInput): Reply<unknown>;
  /**
   * Whether a presented session ID is taken, at either transport's endpoints (default: visible ASCII, the spec's alphabet).
   * A mutant that mints IDs outside that alphabet takes its own back, or its sessions would be unusable.
   */
  acceptsSessionId?(id: string): boolean;
  /** When true, a DELETE is answered 200 and never reaches the machine (default: false). */
  bypassDelete?(session: SessionFacts): boolean;
  /**
   * How many events each session's log keeps (default: the server's `retainedEvents` limit). With
   * a finite answer the machine is told to drop older events (`logRetention: bounded`).
   */
  retainedEvents?(): number;
  /**
   * The client capabilities requests are served under, as the fixture tool `session_info` reports
   * them (default: the machine's `context.capabilities`).
   */
  capabilities?(session: SessionFacts): Capabilities | null;
  /**
   * Whether a new streamable stream of `kind` (a POST's response stream, the standalone GET stream)
   * opens with its priming event, for a client that is sent one (default: true). The event stays
   * in the session's log either way.
   */
  priming?(kind: Exclude<StreamKind, 'legacy'>): boolean;
  /**
   * Whether a frame sent on `stream` while a response carries it is written to that response
   * (default: true). False leaves it in the log only, as if the stream had no connection: a
   * replay still carries it. Frames a reply opens a response with (a replay) are always written.
   */
  live?(session: SessionFacts, stream: string): boolean;
}

/** No mutation: the reference server. */
export const noMutation: Mutation = Object.freeze({ name: 'none' });
