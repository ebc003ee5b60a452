/**
 * What production adds, judged by the model (issue 12): sessions that expire when idle, and an
 * event log that keeps only its newest events. Each is a knob explored with the reference's other
 * knobs; the claim is this project's rule for it, and the verdict is what exploration finds.
 * These are not a seed's claims: `seed` is `production` (docs/claims.md may list them apart).
 */
import { parseBounds } from '../bounds.js';
import { explore } from '../explore.js';
import { reference, withKnob, type Policy } from '../policy.js';
import { sessionContext } from '../session-step.js';
import type { World, WorldMessage } from '../world-types.js';
import { grade, yesNo, type ClaimJudgement, type FoundTrace } from './claim.js';

const test = 'test/model/claims-production.test.ts';

/** Bounds: two calls, one notification each, one drop and one resume (retention's lattice is larger). */
const productionBounds = parseBounds('calls=2,notifications=1,drops=1,resumes=1');
/** The partial-replay cell needs two events to drop before the cursor's successor: one call, two notifications. */
const partialReplayBounds = parseBounds('calls=1,notifications=2,drops=1,resumes=1');

/** A production claim: a claim's shape, with `production` for its source. */
export interface ProductionClaim {
  id: string;
  seed: 'production';
  claim: string;
  test: string;
  judge(): ProductionJudgement;
}
export type ProductionJudgement = Omit<ClaimJudgement, 'seed'> & { seed: 'production' };

/** A judgement of `claim` (as `judgementOf` builds a seed claim's). */
function judgementOf(
  claim: Pick<ProductionClaim, 'id' | 'seed' | 'claim' | 'test'>,
  found: Pick<ClaimJudgement, 'verdict' | 'finding'> & Partial<Pick<ClaimJudgement, 'tables' | 'traces'>>,
): ProductionJudgement {
  return { id: claim.id, seed: claim.seed, claim: claim.claim, test: claim.test, tables: [], traces: [], ...found };
}

/** The client was told 404 by a session that had expired. */
function toldExpired(world: World): boolean {
  return world.client.phase === 'mustReinitialize' && world.sessions.some((s) => sessionContext<WorldMessage>(s).expired);
}

/** The client was told 404 for a cursor the log had dropped (the session itself is still active). */
function toldTrimmed(world: World): boolean {
  const session = world.sessions[world.client.session];
  if (session?.value !== 'active' || world.client.phase !== 'mustReinitialize') return false;
  const c = sessionContext<WorldMessage>(session);
  const last = c.resumes.at(-1);
  if (last?.outcome !== 'rejected') return false;
  const at = c.log.findIndex((e) => e.id === last.lastEventId);
  return at >= 0 && at < c.retainedFrom;
}

/** A call whose tool ran was reported failed to a client told 404: the cost of ending what it waited on. */
function abandonsRanCall(world: World): boolean {
  return world.client.requests.some((r) => r.status === 'failed' && (world.executions[r.call] ?? 0) > 0);
}

function found(title: string, policy: Policy, bounds: typeof productionBounds, match: { path: FoundTrace['path'] } | undefined): FoundTrace[] {
  return match ? [{ title, policy, bounds, path: match.path }] : [];
}

export const expiryClaim: ProductionClaim = {
  id: 'production-expiry',
  seed: 'production',
  claim: 'A session idle past a TTL answers 404, exactly like a terminated one, and expiry breaks no property.',
  test,
  judge() {
    const policy = withKnob(reference, 'sessionExpiry', 'idleTtl');
    const result = explore({ policy, bounds: productionBounds, signatures: { told: toldExpired, cost: (w) => toldExpired(w) && abandonsRanCall(w) } });
    const baseline = explore({ policy: reference, bounds: productionBounds });
    const broken = [...new Set(result.violations.map((v) => v.property))];
    const reached = result.matches.told !== undefined;
    return judgementOf(this, {
      verdict: grade({ contradicted: broken.length > 0 || !reached, boundaryMoved: false }),
      finding:
        (broken.length > 0
          ? `Expiry breaks ${broken.join(', ')}. `
          : `No invariant fails in any of ${result.states} reachable states (${baseline.states} with expiry off). `) +
        (reached
          ? 'An expired session answers every later request and resume 404, and the client re-initializes, as after a DELETE. '
          : 'The model never reaches a client told 404 by an expired session. ') +
        (result.matches.cost
          ? 'The cost is the one any 404 has: a call whose tool had run before its stream dropped is reported failed once the session expired while the client was away.'
          : ''),
      tables: [
        {
          header: ['sessionExpiry', 'states', 'violations', 'client told 404 by an expired session'],
          rows: [
            ['never', String(baseline.states), baseline.violations.map((v) => v.property).join(', ') || 'none', 'no'],
            ['idleTtl', String(result.states), broken.join(', ') || 'none', yesNo(reached)],
          ],
        },
      ],
      traces: [
        ...found('An idle session expires; the client resuming is told 404 and re-initializes', policy, productionBounds, result.matches.told),
        ...found('The cost: a call whose tool ran is reported failed', policy, productionBounds, result.matches.cost),
      ],
    });
  },
};

export const retentionClaim: ProductionClaim = {
  id: 'production-retention',
  seed: 'production',
  claim:
    'A cursor older than the retained log is rejected with 404, never answered with a partial replay; with that rule, bounded retention breaks no property.',
  test,
  judge() {
    const bounded = withKnob(reference, 'logRetention', 'bounded');
    const partial = withKnob(reference, 'logRetention', 'boundedPartialReplay');
    const ok = explore({ policy: bounded, bounds: productionBounds, signatures: { refused: toldTrimmed } });
    const gap = explore({ policy: partial, bounds: partialReplayBounds });
    const okBroken = [...new Set(ok.violations.map((v) => v.property))];
    const gapBroken = [...new Set(gap.violations.map((v) => v.property))];
    const gapTrace = gap.violations.find((v) => v.property === 'replay-has-no-gap');
    return judgementOf(this, {
      verdict: grade({ contradicted: okBroken.length > 0 || ok.matches.refused === undefined || gapTrace === undefined, boundaryMoved: false }),
      finding:
        (okBroken.length > 0
          ? `Bounded retention with 404 breaks ${okBroken.join(', ')}. `
          : `Bounded retention that refuses a dropped cursor with 404 breaks nothing in ${ok.states} reachable states${ok.matches.refused ? ', and the client told 404 re-initializes' : ''}. `) +
        (gapTrace
          ? `Answering the same cursor with what is left of its stream breaks ${gapBroken.join(', ')}: the replay skips events the client never got and looks complete.`
          : 'The model finds no gap when a dropped cursor is answered with what is left, so the rule would not be needed.'),
      tables: [
        {
          header: ['logRetention', 'states', 'violations'],
          rows: [
            ['bounded (dropped cursor: 404)', String(ok.states), okBroken.join(', ') || 'none'],
            ['boundedPartialReplay (dropped cursor: what is left)', String(gap.states), gapBroken.join(', ') || 'none'],
          ],
        },
      ],
      traces: [
        ...found("The log drops the cursor's event; the resume is refused 404 and the client re-initializes", bounded, productionBounds, ok.matches.refused),
        ...found(
          'The log drops events after the cursor; the resume is answered with what is left: a replay with a gap',
          partial,
          partialReplayBounds,
          gapTrace,
        ),
      ],
    });
  },
};
