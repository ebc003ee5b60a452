/** "Bridging alone is safe", re-judged on a world where a legacy client moves its session to /mcp without a cursor. */
import { describe, expect, test } from 'vitest';
import { defaultBounds } from '../../model/bounds.js';
import { bridgingAlone, bridgingBounds } from '../../model/claims/bridging.js';
import { explore } from '../../model/explore.js';
import { violatedInvariants } from '../../model/invariants.js';
import { reference, safeVariants } from '../../model/policy.js';
import { replay } from '../../model/trace.js';
import { canStep, enabledSteps } from '../../model/world-steps.js';
import { initialWorld, step } from '../../model/world.js';

describe('bridging alone', () => {
  test('the move is a step of the world only with moves=1, only from a legacy session', () => {
    const move = { type: 'CALL', unsolicited: false, migrate: true } as const;
    const legacyUnder = (policy: typeof reference) => step(initialWorld({ policy, bounds: bridgingBounds }), { type: 'INITIALIZE', transport: 'sse' });
    const legacy = legacyUnder(reference);
    expect(canStep(legacy, move)).toBe(true);
    expect(enabledSteps(legacy)).toContainEqual(move);
    expect(canStep({ ...legacy, bounds: { ...bridgingBounds, moves: 0 } }, move)).toBe(false);
    const streamable = step(initialWorld({ policy: reference, bounds: bridgingBounds }), { type: 'INITIALIZE', transport: 'streamable' });
    expect(canStep(streamable, move)).toBe(false);
    // The reference refuses it with 404 and the client must re-initialize; the bridged session serves it at /mcp.
    expect(step(legacy, move).client.phase).toBe('mustReinitialize');
    const bridged = step(legacyUnder(safeVariants.bridging!), move);
    expect(bridged.client.phase).toBe('ready');
    expect(bridged.client.transport).toBe('streamable');
  });

  test('with the move, bridging reaches states the reference does not, and has no consequence (confirmed)', () => {
    const j = bridgingAlone.judge();
    expect(j.verdict).toBe('confirmed');
    // This project's variant, not a seed's claim: outside the seeds' tally.
    expect(j.variant).toBe(true);
    // [policy, moves, states, moved call answered, rule broken, loss, stall, duplicate effect, foreign capabilities]
    const [ref0, bridge0, ref1, bridge1] = j.tables[0]!.rows;
    expect(bridge0![2]).toBe(ref0![2]);
    expect(Number(bridge1![2])).toBeGreaterThan(Number(ref1![2]));
    expect(ref1!.slice(3)).toEqual(['no', 'no', 'no', 'no', 'no', 'no']);
    expect(bridge1!.slice(3)).toEqual(['yes', 'yes', 'no', 'no', 'no', 'no']);
    const moved = j.traces.find((t) => t.title.startsWith('A legacy client moves'))!;
    const end = replay(moved.policy, moved.bounds, moved.path).at(-1)!.world;
    expect(end.client.requests.some((r) => r.status === 'answered')).toBe(true);
    expect(violatedInvariants(end)).toEqual([]);
  });

  test('at the default bounds with moves=1 the bridging variant breaks only the rule invariant', () => {
    const result = explore({ policy: safeVariants.bridging!, bounds: { ...defaultBounds, calls: 2, notifications: 1, moves: 1 } });
    expect(result.violations.map((v) => v.property)).toEqual(['no-cross-transport-resume']);
  });
});
