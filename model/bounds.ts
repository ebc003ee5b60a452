/**
 * Bounds of the explored world. Exploration is exhaustive within them; fast-check goes beyond.
 */

export interface Bounds {
  /** Tool calls the client issues (retries not counted). */
  calls: number;
  /** Notifications each call sends before its result. */
  notifications: number;
  /** Connections the client may sever. */
  drops: number;
  /** Resume attempts, migrations (resumes under the other transport) included. */
  resumes: number;
  /** New sessions after the first. */
  reinitializes: number;
  /** Re-issues of a timed-out call. */
  retries: number;
  /** DELETEs of the session. */
  deletes: number;
  /** Resumes may go to the other transport's endpoint (0/1). */
  migrations: number;
  /** Resumes may present a garbage cursor or one from an earlier session (0/1). */
  foreignCursors: number;
  /**
   * A legacy client may move its session to `/mcp` by POSTing its next call there with the
   * session's ID and no `Last-Event-ID` (0/1): a migration without a cursor.
   */
  moves: number;
  /** Events a bounded log may drop per session (only under a `logRetention` policy). */
  trims: number;
  /** Calls that may be `emit_unsolicited`, whose notifications go to the standalone stream (retries not counted). */
  unsolicited: number;
  /** Frames a connection holds in flight (sent, not yet received): the socket's buffer. */
  inFlight: number;
  /** Frames a stream holds received but not drained: the client's read-ahead. */
  undrained: number;
  /** Drops may lose frames in flight or undrained (0: every drop is clean). */
  unclean: number;
}

export const defaultBounds: Bounds = {
  calls: 2,
  notifications: 2,
  drops: 2,
  resumes: 2,
  reinitializes: 1,
  retries: 1,
  deletes: 0,
  migrations: 1,
  foreignCursors: 1,
  moves: 0,
  trims: 2,
  unsolicited: 0,
  inFlight: 1,
  undrained: 2,
  unclean: 1,
};

/** The largest value each bound accepts: beyond these, exploration would not finish in minutes. */
export const maxBounds: Bounds = {
  calls: 4,
  notifications: 4,
  drops: 4,
  resumes: 4,
  reinitializes: 2,
  retries: 2,
  deletes: 1,
  migrations: 1,
  foreignCursors: 1,
  moves: 1,
  trims: 3,
  unsolicited: 1,
  inFlight: 4,
  undrained: 4,
  unclean: 1,
};

/**
 * Parses `calls=2,notifications=2,drops=2` over the defaults.
 * @throws RangeError with a one-line reason on an unknown name, a malformed pair or a value out of range.
 */
export function parseBounds(text: string, base: Bounds = defaultBounds): Bounds {
  const bounds: Bounds = { ...base };
  const trimmed = text.trim();
  if (trimmed === '') return bounds;
  for (const pair of trimmed.split(',')) {
    const match = /^\s*([a-zA-Z]+)\s*=\s*(\d+)\s*$/.exec(pair);
    if (!match) throw new RangeError(`malformed bound "${pair}": expected name=integer, e.g. calls=2`);
    const [, name, digits] = match as unknown as [string, string, string];
    if (!(name in defaultBounds)) {
      throw new RangeError(`unknown bound "${name}"; known bounds: ${Object.keys(defaultBounds).join(', ')}`);
    }
    const key = name as keyof Bounds;
    const value = Number(digits);
    if (!Number.isSafeInteger(value) || value > maxBounds[key]) {
      throw new RangeError(`bound ${name}=${digits} is too large: at most ${maxBounds[key]} (exploration would not finish)`);
    }
    bounds[key] = value;
  }
  return bounds;
}

/** `calls=2,notifications=2,...`, the form `parseBounds` reads. */
export function formatBounds(bounds: Bounds): string {
  return (Object.keys(defaultBounds) as (keyof Bounds)[]).map((k) => `${k}=${bounds[k]}`).join(',');
}
