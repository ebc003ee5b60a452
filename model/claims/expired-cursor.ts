/**
 * The cost of answering 404 to a cursor the server cannot place on a live session: an expired
 * cursor at `/mcp` (the client's own cursor, whose event the server's bounded log has trimmed),
 * answered 404, tells the client its session is gone.
 */
import { explore } from '../explore.js';
import { reference, withKnob, type Policy } from '../policy.js';
import { sessionContext } from '../session-step.js';
import type { World, WorldMessage } from '../world-types.js';
import { garbageCursor } from '../world.js';
import type { FoundTrace } from './claim.js';
import { ruleBounds } from './seed-003.js';
import { reRunsAFailedCall } from './signatures.js';

/** Bounds: the rule's, one trim of the session's log, no migration and no cursor of another session: only the client's own, expired. */
const expiredCursorBounds = { ...ruleBounds, foreignCursors: 0, migrations: 0, moves: 0, trims: 1 };

/** The reference server with a bounded event log: it may trim the event a client's cursor names, and then answers 404. */
const expiredCursorPolicy: Policy = withKnob(reference, 'logRetention', 'bounded');

/** A live streamable session answered its client's own, expired cursor at `/mcp` with 404, and a call whose tool had run was reported failed. */
function abandonsLiveSession(world: World): boolean {
  return world.sessions.some((snapshot, index) => {
    const c = sessionContext<WorldMessage>(snapshot);
    return (
      snapshot.value === 'active' &&
      c.transport === 'streamable' &&
      c.resumes.some((r) => r.transport === 'streamable' && !r.crossTransport && r.lastEventId !== garbageCursor && r.outcome === 'rejected') &&
      world.client.requests.some((r) => r.session === index && r.status === 'failed' && (world.executions[r.call] ?? 0) > 0)
    );
  });
}

export interface ExpiredCursorCost {
  /** The 404, the client giving up a session that is still active and holds its call. */
  abandoned?: FoundTrace;
  /** The same, and the client re-running the failed call in its new session. */
  rerun?: FoundTrace;
}

/** Explores the reference with and without a client that retries after re-initializing. */
export function expiredCursorCost(): ExpiredCursorCost {
  const cost: ExpiredCursorCost = {};
  const plain: Policy = expiredCursorPolicy;
  const abandoned = explore({ policy: plain, bounds: expiredCursorBounds, signatures: { abandoned: abandonsLiveSession } }).matches.abandoned;
  if (abandoned)
    cost.abandoned = {
      title: 'An expired cursor at /mcp (its event trimmed from the bounded log): 404, and the client abandons a live session',
      policy: plain,
      bounds: expiredCursorBounds,
      path: abandoned.path,
    };
  const retrying = withKnob(expiredCursorPolicy, 'retryAfterReinitialize', true);
  const rerun = explore({
    policy: retrying,
    bounds: expiredCursorBounds,
    signatures: { rerun: (w) => abandonsLiveSession(w) && reRunsAFailedCall(w) },
  }).matches.rerun;
  if (rerun)
    cost.rerun = {
      title: 'The same, with a client that retries the failed call: the tool runs twice',
      policy: retrying,
      bounds: expiredCursorBounds,
      path: rerun.path,
    };
  return cost;
}
