/**
 * One session store for both transports, keyed by session ID, as the seeds describe: a legacy
 * session ID presented at `/mcp` (or a streamable one at `/messages`) finds its session, and the
 * session machine's policy decides whether it is served there.
 */
import { randomBytes } from 'node:crypto';
import type { ServerPolicy } from '../../model/policy.js';
import { Session } from './session.js';

/** The sessions of one server. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly tags = new Set<string>();

  /**
   * @param messagesPath - the legacy POST path the sessions announce
   * @param onError - receives errors raised outside any request (see {@link Session})
   */
  constructor(
    private readonly policy: ServerPolicy,
    private readonly messagesPath: string,
    private readonly onError: (error: unknown) => void = () => {},
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
   */
  create(): Session {
    let id: string;
    do id = randomBytes(16).toString('hex');
    while (this.sessions.has(id));
    let tag: string;
    do tag = randomBytes(4).toString('hex');
    while (this.tags.has(tag));
    return new Session(id, tag, this.policy, this.messagesPath, this.onError);
  }

  add(session: Session): void {
    this.sessions.set(session.id, session);
    this.tags.add(session.tag);
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /** Ends every response and stops every actor (server shutdown). */
  dispose(): void {
    for (const session of this.sessions.values()) session.dispose();
  }
}
