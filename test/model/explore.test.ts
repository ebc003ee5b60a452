import { describe, expect, test } from 'vitest';
import { defaultBounds, formatBounds, parseBounds } from '../../model/bounds.js';
import { ExplorationBudgetExceeded, explore } from '../../model/explore.js';
import { invariants } from '../../model/invariants.js';
import { mutants, policies, reference, safeVariants } from '../../model/policy.js';
import { historyOnlyProperties, propertyIds, type PropertyId } from '../../model/property-ids.js';
import { sessionContext } from '../../model/session-step.js';
import type { World, WorldMessage } from '../../model/world-types.js';

const held = (w: World) => sessionContext<WorldMessage>(w.sessions[w.client.session]!);

describe('exhaustive exploration', () => {
  test('the default bounds are at least what the specification promises to cover', () => {
    expect(defaultBounds.calls).toBeGreaterThanOrEqual(2);
    expect(defaultBounds.notifications).toBeGreaterThanOrEqual(2);
    expect(defaultBounds.drops).toBeGreaterThanOrEqual(2);
    expect(defaultBounds.resumes).toBeGreaterThanOrEqual(2);
    expect(defaultBounds.migrations).toBe(1);
    expect(defaultBounds.reinitializes).toBeGreaterThanOrEqual(1);
  });

  test('reference: no invariant is violated in any reachable state, and the world does what it should', () => {
    const result = explore({
      policy: reference,
      bounds: defaultBounds,
      signatures: {
        migratedBothWays: (w) =>
          w.sessions.some((s) => sessionContext(s).transport === 'sse' && sessionContext(s).resumes.some((r) => r.crossTransport)) &&
          w.sessions.some((s) => sessionContext(s).transport === 'streamable' && sessionContext(s).resumes.some((r) => r.crossTransport)),
        reinitialized: (w) => w.used.reinitializes > 0 && w.client.phase === 'ready',
        resumedThenDrained: (w) =>
          w.client.session >= 0 && held(w).resumes.some((r) => r.outcome === 'replayed') && w.client.streams.some((s) => s.drained.length >= 2),
        twoCallsAnswered: (w) => w.client.requests.filter((r) => r.status === 'answered').length === 2,
        foreignCursorRefused: (w) => w.client.staleCursor !== null && w.client.phase === 'mustReinitialize',
      },
    });
    // Pinned: a traversal that silently explores less (or more) than the specification's world fails here.
    expect(result.states).toBe(4226);
    expect(result.transitions).toBe(13385);
    expect(result.violations).toEqual([]);
    expect(Object.keys(result.matches).sort()).toEqual(
      ['foreignCursorRefused', 'migratedBothWays', 'reinitialized', 'resumedThenDrained', 'twoCallsAnswered'].sort(),
    );
  });

  test('reference with DELETE and unsolicited notifications: still nothing violated', () => {
    const bounds = parseBounds('calls=1,deletes=1,unsolicited=1');
    const result = explore({
      policy: reference,
      bounds,
      signatures: {
        deleted: (w) => w.sessions.some((s) => s.value === 'terminated'),
        unsolicitedDrained: (w) =>
          w.client.streams.some((s) => s.kind === 'standalone' && s.drained.length > 0) &&
          w.client.requests.some((r) => r.unsolicited && r.status === 'answered'),
      },
    });
    expect(result.states).toBe(1322);
    expect(result.violations).toEqual([]);
    expect(Object.keys(result.matches).sort()).toEqual(['deleted', 'unsolicitedDrained']);
  });

  test.each(Object.keys(safeVariants))('safe variant %s: no violation', (name) => {
    expect(explore({ policy: safeVariants[name]!, bounds: parseBounds('calls=2,notifications=1') }).violations).toEqual([]);
  });

  const expected: Record<string, PropertyId[]> = {
    'seed-000': ['no-silent-loss', 'no-cross-transport-resume', 'at-most-once-effect', 'no-silent-stall'],
    'seed-003': ['no-silent-loss', 'no-cross-transport-resume', 'unknown-cursor-rejected', 'capabilities-honoured', 'no-silent-stall'],
    'bridging-shared-ids': ['no-cross-transport-resume'],
    'unknown-cursor-empty-stream': ['no-silent-loss', 'unknown-cursor-rejected', 'at-most-once-effect', 'no-silent-stall'],
    'default-capabilities': ['no-cross-transport-resume', 'capabilities-honoured'],
    'inclusive-replay-no-dedup': ['order-preserved'],
    'cursor-on-receive': ['no-silent-loss', 'at-most-once-effect', 'no-silent-stall'],
    // At these bounds (two trims by default): the stall and the re-run need a third trim (trims=3 finds them).
    'retention-partial-replay': ['no-silent-loss', 'replay-has-no-gap'],
  };

  test('every mutant and incident policy is named in the table below', () => {
    expect(Object.keys(expected).sort()).toEqual(['seed-000', 'seed-003', ...Object.keys(mutants)].sort());
  });

  test.each(Object.entries(expected))('%s violates exactly the properties it breaks', (name, properties) => {
    const result = explore({ policy: policies[name]!, bounds: parseBounds('calls=2,notifications=1,drops=1,resumes=1') });
    expect(result.violations.map((v) => v.property).sort()).toEqual([...properties].sort());
    for (const v of result.violations) expect(v.path.length).toBeGreaterThan(0);
  });

  test('every property with a model invariant is broken by some policy or by a mutated world (see invariants.test.ts)', () => {
    const brokenByPolicies = new Set(Object.values(expected).flat());
    const structural = ['no-cross-stream-replay', 'no-cross-session-replay', 'event-ids-unique', 'terminated-session-404'];
    for (const id of propertyIds) {
      if (historyOnlyProperties.includes(id)) {
        expect(id in invariants).toBe(false);
        continue;
      }
      expect(id in invariants).toBe(true);
      expect(brokenByPolicies.has(id) || structural.includes(id)).toBe(true);
    }
  });

  test('bounds beyond the budget stop with an error instead of running on', () => {
    expect(() => explore({ policy: reference, bounds: defaultBounds, maxStates: 100 })).toThrow(ExplorationBudgetExceeded);
    expect(() => explore({ policy: reference, bounds: parseBounds('calls=4,notifications=4'), maxMs: 300 })).toThrow(/still exploring/);
  });

  test('bounds parse over the defaults and reject what they cannot explore', () => {
    expect(parseBounds('calls=1, drops=0')).toEqual({ ...defaultBounds, calls: 1, drops: 0 });
    expect(parseBounds(formatBounds(defaultBounds))).toEqual(defaultBounds);
    expect(() => parseBounds('calls')).toThrow(/malformed bound/);
    expect(() => parseBounds('calls=-1')).toThrow(/malformed bound/);
    expect(() => parseBounds('frob=1')).toThrow(/unknown bound "frob"/);
    expect(() => parseBounds('calls=99')).toThrow(/too large/);
  });
});
