/**
 * One session: an actor of the model's session machine and the live HTTP responses that carry its
 * streams. Every decision (status, frames, which stream a response carries, when it ends) is read
 * from the machine's `reply`; this class only maps the machine's streams to responses and tells
 * the machine when a client connection goes away.
 */
import type { ServerResponse } from 'node:http';
import { createActor, type Actor } from 'xstate';
import type { ServerPolicy } from '../../model/policy.js';
import { sessionMachine, type SessionMachine } from '../../model/session-machine.js';
import { type Capabilities, type Reply, replyReason, type SessionContext, type SessionEvent, type StoredEvent } from '../../model/session-types.js';
import type { JsonRpcMessage } from './jsonrpc.js';
import { noMutation, type Mutation, type SessionFacts } from './mutation.js';
import { formatEvent } from './sse-writer.js';
import type { SessionState } from './mutation.js';

export type { SessionState } from './mutation.js';

/** Whether a machine status means "served". */
export function served(reply: Reply<unknown>): boolean {
  return reply.status >= 200 && reply.status < 300;
}

/** How to write the opening frame of a new stream on the response it opens. */
export interface ConnectOptions {
  /**
   * Write a `priming` opening event (clients on 2025-11-25 and later). The event is in the
   * session's log either way; older clients just never see it.
   */
  priming: boolean;
}

/** What a {@link Session} is made of. */
export interface SessionOptions {
  id: string;
  /** The per-session tag inside event IDs. */
  tag: string;
  policy: ServerPolicy;
  /** The legacy POST path, announced in the `endpoint` event. */
  messagesPath: string;
  /** Where errors raised outside any request (a connection closing) are reported (default: nowhere). */
  onError?: (error: unknown) => void;
  /** Deliberate distortions (`mutation.ts`); none by default. */
  mutation?: Mutation;
  /**
   * How many events the log keeps (log retention; default all); older ones are dropped with the
   * machine's `TRIM`, which needs a bounded `logRetention` policy to act.
   */
  retainedEvents?: number;
}

/** A session of the reference server. */
export class Session implements SessionFacts {
  readonly id: string;
  /** The per-session tag inside event IDs. */
  readonly tag: string;
  /** The POST URI a legacy `endpoint` event announces. */
  readonly endpointUri: string;
  private readonly actor: Actor<SessionMachine>;
  /** Machine stream ID -> the response carrying it now (at most one: a message goes on one stream only). */
  private readonly connections = new Map<string, ServerResponse>();
  /** Quiet streams (a 200 resume with no stream, seed 003): held open, never written. */
  private readonly quiet = new Set<ServerResponse>();
  /** With an event-ID codec: machine ID -> wire ID, and wire ID -> the first machine ID given it. */
  private readonly toWire = new Map<string, string>();
  private readonly fromWire = new Map<string, string>();
  /** When a request last touched the session (ms since the epoch): its idle clock. */
  lastActive = Date.now();

  private readonly onError: (error: unknown) => void;
  private readonly mutation: Mutation;
  private readonly retainedEvents: number;

  constructor(options: SessionOptions) {
    const { id, tag, policy } = options;
    this.id = id;
    this.tag = tag;
    this.onError = options.onError ?? (() => {});
    this.mutation = options.mutation ?? noMutation;
    this.retainedEvents = options.retainedEvents ?? Number.POSITIVE_INFINITY;
    this.endpointUri = `${options.messagesPath}?sessionId=${encodeURIComponent(id)}`;
    this.actor = createActor(sessionMachine, { input: { sessionId: id, tag, policy } }).start();
  }

  /** The machine's context now (the log, the streams, the capabilities it serves under). */
  get context(): SessionContext<unknown> {
    return this.actor.getSnapshot().context;
  }

  /** The machine's state now. */
  get state(): SessionState {
    return this.actor.getSnapshot().value as SessionState;
  }

  /** The client capabilities requests are served under (the machine's, unless a mutation says otherwise). */
  get servedCapabilities(): Capabilities | null {
    return this.mutation.capabilities ? this.mutation.capabilities(this) : this.context.capabilities;
  }

  /** The ID written on the wire for one of this session's events (the machine's ID without a codec). */
  wireId(machineId: string): string {
    return this.toWire.get(machineId) ?? machineId;
  }

  /** Whether this session gave `wireId` to one of its events. */
  issued(wireId: string): boolean {
    if (this.mutation.eventIds) return this.fromWire.has(wireId);
    return this.context.log.some((event) => event.id === wireId);
  }

  /** How many responses currently carry this session's streams (quiet ones included). */
  get liveConnections(): number {
    return this.connections.size + this.quiet.size;
  }

  /**
   * Sends one event to the machine and returns its answer. Under a mutation the event passes
   * through its hooks first (a bypassed DELETE, the transport the machine is told, a cursor decoded
   * from its wire ID), new log entries get their wire IDs, and a RESUME's reply is the mutation's.
   *
   * @throws Error when the machine itself failed (a bug in the model, reported as a 500)
   */
  step(event: SessionEvent<JsonRpcMessage>): Reply<unknown> {
    const mutation = this.mutation;
    if (mutation === noMutation) return this.send(event);
    // A bypassed DELETE is answered as the machine answers a DELETE, without telling the machine.
    if (event.type === 'DELETE' && mutation.bypassDelete?.(this)) return { status: 200, frames: [] };
    let told: SessionEvent<JsonRpcMessage> = event;
    if (mutation.transport && 'transport' in told) {
      told = { ...told, transport: mutation.transport({ event: told.type, arrivedAt: told.transport, established: this.context.transport }) };
    }
    if (told.type === 'RESUME' && mutation.eventIds) {
      told = { ...told, lastEventId: this.fromWire.get(told.lastEventId) ?? told.lastEventId };
    }
    const logged = this.context.log.length;
    const reply = this.send(told);
    if (mutation.eventIds) {
      const context = this.context;
      for (const stored of context.log.slice(logged)) {
        const wire = mutation.eventIds.toWire(stored, context);
        this.toWire.set(stored.id, wire);
        if (!this.fromWire.has(wire)) this.fromWire.set(wire, stored.id);
      }
    }
    if (told.type === 'RESUME' && event.type === 'RESUME' && mutation.resume) {
      return mutation.resume({ session: this, event: told, wireCursor: event.lastEventId, reply });
    }
    return reply;
  }

  private send(event: SessionEvent<JsonRpcMessage>): Reply<unknown> {
    this.actor.send(event);
    const snapshot = this.actor.getSnapshot();
    if (snapshot.status !== 'active') throw new Error(`session machine ${snapshot.status}: ${String(snapshot.error)}`);
    const reply = snapshot.context.reply;
    this.retain();
    return reply;
  }

  /** Log retention: drops the oldest events until the log holds at most `retainedEvents`. */
  private retain(): void {
    for (;;) {
      const { log, retainedFrom } = this.actor.getSnapshot().context;
      if (log.length - retainedFrom <= this.retainedEvents) return;
      this.actor.send({ type: 'TRIM' });
      if (this.actor.getSnapshot().context.retainedFrom === retainedFrom) return; // the policy keeps everything
    }
  }

  /**
   * The server's idle timer: tells the machine the session expired. The machine ends it (404 from
   * then on, as after a DELETE) only if no connection is attached and the policy lets sessions expire.
   *
   * @returns whether the session is now ended
   */
  expire(): boolean {
    if (this.state === 'terminated') return true;
    this.send({ type: 'EXPIRE' });
    if ((this.state as SessionState) !== 'terminated') return false;
    this.reconcile();
    return true;
  }

  /**
   * Makes `res`, whose SSE head is already written, carry what a served `reply` says: its frames,
   * then the end of the response when `reply.end`, or else every later frame of `reply.stream`
   * until the client goes away or the machine ends or disconnects the stream. A reply without a
   * stream is a quiet stream: held open, nothing written.
   */
  connect(res: ServerResponse, reply: Reply<unknown>, options: ConnectOptions): void {
    if (reply.stream === undefined) {
      this.holdQuiet(res);
      return;
    }
    const kind = this.context.streams.find((s) => s.id === reply.stream)?.kind;
    const priming = options.priming && (kind === 'legacy' || kind === undefined || this.mutation.priming?.(kind) !== false);
    this.write(res, reply.frames, priming);
    if (reply.end) {
      res.end();
      return;
    }
    this.attach(reply.stream, res);
  }

  /**
   * Sends every queued message: `SEND` on each stream with a queue until all queues are empty,
   * writing each frame to the response carrying its stream (if any; a frame on a disconnected
   * stream goes to the log only, for a replay) and ending the response when the machine says so.
   */
  flush(): void {
    for (;;) {
      const stream = this.context.streams.find((s) => s.queue.length > 0);
      if (stream === undefined) return;
      const reply = this.step({ type: 'SEND', stream: stream.id });
      if (!served(reply)) throw new Error(`SEND on ${stream.id} refused: ${reply.status} ${replyReason(reply) ?? ''}`);
      this.deliver(reply);
    }
  }

  /**
   * Ends the responses whose stream the machine no longer considers connected (e.g. after
   * `DELETE`), and the quiet streams of a terminated session.
   */
  reconcile(): void {
    const streams = this.context.streams;
    for (const [id, res] of this.connections) {
      if (streams.find((s) => s.id === id)?.connected !== true) {
        this.connections.delete(id);
        res.end();
      }
    }
    if (this.state === 'terminated') {
      for (const res of this.quiet) res.end();
      this.quiet.clear();
    }
  }

  /** Server shutdown: ends every response of the session and stops the actor, telling it nothing. */
  dispose(): void {
    const open = [...this.connections.values(), ...this.quiet];
    this.connections.clear();
    this.quiet.clear();
    for (const res of open) res.end();
    this.actor.stop();
  }

  private deliver(reply: Reply<unknown>): void {
    if (reply.stream === undefined) return;
    const res = this.connections.get(reply.stream);
    // No response carries the stream: the machine has (or is about to have) it disconnected.
    if (res === undefined) return;
    if (this.mutation.live?.(this, reply.stream) !== false) this.write(res, reply.frames, true);
    if (reply.end) {
      this.connections.delete(reply.stream);
      res.end();
    }
  }

  private write(res: ServerResponse, frames: StoredEvent<unknown>[], priming: boolean): void {
    // A destroyed socket swallows the write: the frame is lost in flight, as the model says.
    if (res.destroyed || res.writableEnded) return;
    let text = '';
    const codec = this.mutation.eventIds !== undefined;
    for (const frame of frames) {
      if (frame.opening === 'priming' && !priming) continue;
      text += formatEvent(codec ? { ...frame, id: this.wireId(frame.id) } : frame, this.endpointUri);
    }
    if (text !== '') res.write(text);
  }

  private attach(stream: string, res: ServerResponse): void {
    const previous = this.connections.get(stream);
    this.connections.set(stream, res);
    // The machine attached the stream to this response; the one that carried it before is done.
    if (previous !== undefined && previous !== res) previous.end();
    const lost = (): void => {
      // Only the response that still carries the stream reports its loss; one the server ended or
      // replaced is no longer the stream's connection.
      if (this.connections.get(stream) !== res) return;
      this.connections.delete(stream);
      // An event handler has no request to answer with a 500: report instead of crashing.
      try {
        this.step({ type: 'CONNECTION_LOST', stream });
      } catch (error) {
        this.onError(error);
      }
    };
    // The client may already be gone (its 'close' fired while the request was being handled).
    if (res.closed) lost();
    else res.on('close', lost);
  }

  private holdQuiet(res: ServerResponse): void {
    if (res.closed) return;
    this.quiet.add(res);
    res.on('close', () => this.quiet.delete(res));
  }
}
