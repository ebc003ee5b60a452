/**
 * One session store for both transports, keyed by session ID, as the seeds describe: a legacy
 * session ID presented at `/mcp` (or a streamable one at `/messages`) finds its session, and the
 * session machine's policy decides whether it is served there.
 */
import { randomBytes } from 'node:crypto';
import type { ServerPolicy } from '../../model/policy.js';
import { noMutation, type Mutation } from './mutation.js';
import { Session } from './session.js';

/** The sessions of one server. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly tags = new Set<string>();

  /**
   * @param messagesPath - the legacy POST path the sessions announce
   * @param onError - receives errors raised outside any request (see {@link Session})
   * @param mutation - deliberate distortions, handed to every session (`mutation.ts`); none by default
   */
  constructor(
    private readonly policy: ServerPolicy,
    private readonly messagesPath: string,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly mutation: Mutation = noMutation,
  ) {}

  /** The sessions, for tests and debugging. */
  get all(): ReadonlyMap<string, Session> {
    return this.sessions;
  }

  /**
   * A new session, not yet in the store (it is added once the machine has accepted its opening
   * event). Its ID is 128 random bits in hex: visible ASCII, unguessable (`session-ids-secure`).
   * Its tag is random and unique in this store, so a cursor of one session never names an event
   * of another (`no-cross-session-replay`) even though each session numbers its events from 1.
   * A mutation may choose the ID instead.
   */
  create(): Session {
    const nextId = this.mutation.sessionId?.bind(this.mutation) ?? (() => randomBytes(16).toString('hex'));
    let id = nextId();
    for (let attempts = 1; this.sessions.has(id); attempts++) {
      if (attempts >= 100) throw new Error(`the session-ID generator keeps answering IDs in use (${id.slice(0, 64)})`);
      id = nextId();
    }
    let tag: string;
    do tag = randomBytes(4).toString('hex');
    while (this.tags.has(tag));
    return new Session(id, tag, this.policy, this.messagesPath, this.onError, this.mutation);
  }

  add(session: Session): void {
    this.sessions.set(session.id, session);
    this.tags.add(session.tag);
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /** The session that gave `wireId` to one of its events (the first found), if any. */
  issuerOf(wireId: string): Session | undefined {
    for (const session of this.sessions.values()) if (session.issued(wireId)) return session;
    return undefined;
  }

  /** Ends every response and stops every actor (server shutdown). */
  dispose(): void {
    for (const session of this.sessions.values()) session.dispose();
  }
}
