/**
 * One session store for both transports, keyed by session ID, as the seeds describe: a legacy
 * session ID presented at `/mcp` (or a streamable one at `/messages`) finds its session, and the
 * session machine's policy decides whether it is served there.
 *
 * The store is bounded, as a production server's must be: a session idle past the TTL expires
 * (the machine's `EXPIRE`) and is forgotten, and past the cap the least recently used session is
 * evicted. A forgotten session's ID answers 404, as a terminated one's does.
 */
import { randomBytes } from 'node:crypto';
import type { ServerPolicy } from '../../model/policy.js';
import type { Transport } from '../../model/transport.js';
import { noMutation, type Mutation } from './mutation.js';
import { Session } from './session.js';

/** How many sessions the store holds and for how long, and how much of each session's log. */
export interface SessionLimits {
  /** A session idle this long (ms: no request, no connection attached) expires. `Infinity`: never. */
  sessionTtlMs: number;
  /** Sessions held at most; the least recently used beyond it is evicted. `Infinity`: no cap. */
  maxSessions: number;
  /** Events each session's log keeps; older ones are dropped and their IDs refused 404 as cursors. `Infinity`: all. */
  retainedEvents: number;
}

/**
 * The defaults: sessions expire after 30 minutes idle, at most 10,000 are held (about 6 KB each,
 * so about 60 MB at the cap), and logs are unbounded (a session's log ends with the session).
 */
export const defaultSessionLimits: Readonly<SessionLimits> = Object.freeze({
  sessionTtlMs: 30 * 60_000,
  maxSessions: 10_000,
  retainedEvents: Number.POSITIVE_INFINITY,
});

/** The sessions of one server. */
export class SessionStore {
  /** In least-recently-used order: a session moves to the end whenever a request finds it. */
  private readonly sessions = new Map<string, Session>();
  private readonly tags = new Set<string>();
  private readonly sweeper: NodeJS.Timeout | undefined;
  /** Sessions expired or evicted so far (for tests and the bench). */
  evicted = 0;

  /**
   * @param messagesPath - the legacy POST path the sessions announce
   * @param onError - receives errors raised outside any request (see {@link Session})
   * @param mutation - deliberate distortions, handed to every session (`mutation.ts`); none by default
   * @param limits - the store's bounds (default {@link defaultSessionLimits})
   */
  constructor(
    private readonly policy: ServerPolicy,
    private readonly messagesPath: string,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly mutation: Mutation = noMutation,
    private readonly limits: SessionLimits = defaultSessionLimits,
  ) {
    if (Number.isFinite(limits.sessionTtlMs)) {
      const every = Math.min(Math.max(limits.sessionTtlMs / 4, 10), 60_000);
      this.sweeper = setInterval(() => this.sweep(), every);
      this.sweeper.unref();
    }
  }

  /** The sessions, for tests and debugging. */
  get all(): ReadonlyMap<string, Session> {
    return this.sessions;
  }

  /**
   * A new session, not yet in the store (it is added once the machine has accepted its opening
   * event). Its ID is 128 random bits in hex: visible ASCII (`session-ids-visible-ascii`), unguessable (`session-ids-unguessable`).
   * Its tag is random and unique in this store, so a cursor of one session never names an event
   * of another (`no-cross-session-replay`) even though each session numbers its events from 1.
   * A mutation may choose the ID instead, knowing the transport that opens the session.
   */
  create(transport: Transport): Session {
    const nextId = this.mutation.sessionId === undefined ? () => randomBytes(16).toString('hex') : () => this.mutation.sessionId!(transport);
    let id = nextId();
    for (let attempts = 1; this.sessions.has(id); attempts++) {
      if (attempts >= 100) throw new Error(`the session-ID generator keeps answering IDs in use (${id.slice(0, 64)})`);
      id = nextId();
    }
    let tag: string;
    do tag = randomBytes(4).toString('hex');
    while (this.tags.has(tag));
    return new Session({
      id,
      tag,
      policy: this.policy,
      messagesPath: this.messagesPath,
      onError: this.onError,
      mutation: this.mutation,
      retainedEvents: this.limits.retainedEvents,
    });
  }

  /** Adds an accepted session, evicting the least recently used ones beyond the cap. */
  add(session: Session): void {
    this.sessions.set(session.id, session);
    this.tags.add(session.tag);
    while (this.sessions.size > this.limits.maxSessions) {
      const oldest = this.sessions.values().next().value as Session;
      // Expired if idle (the machine's own end); otherwise its connections end with it.
      oldest.expire();
      this.forget(oldest);
    }
  }

  /** The session with this ID, now the most recently used; undefined once expired or evicted. */
  get(id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (session === undefined) return undefined;
    session.lastActive = Date.now();
    this.sessions.delete(id);
    this.sessions.set(id, session);
    return session;
  }

  /** The session that gave `wireId` to one of its events (the first found), if any. */
  issuerOf(wireId: string): Session | undefined {
    for (const session of this.sessions.values()) if (session.issued(wireId)) return session;
    return undefined;
  }

  /**
   * Expires the sessions idle past the TTL, oldest first. One with a connection attached is not
   * idle: the machine keeps it, and its clock restarts.
   */
  sweep(now = Date.now()): void {
    for (const session of [...this.sessions.values()]) {
      if (now - session.lastActive < this.limits.sessionTtlMs) return;
      try {
        if (session.expire()) this.forget(session);
        else this.get(session.id);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  private forget(session: Session): void {
    this.sessions.delete(session.id);
    this.tags.delete(session.tag);
    session.dispose();
    this.evicted++;
  }

  /** Ends every response and stops every actor (server shutdown). */
  dispose(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    for (const session of this.sessions.values()) session.dispose();
  }
}
