/**
 * The engine of `explore` against the previous one (xstate/graph's traversal of the world
 * machine): the same states, transitions and verdicts, with whole keys or fingerprints, with or
 * without the memo tables and compact sessions; and its paths really lead where it says.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { parseBounds } from '../../model/bounds.js';
import { explore, fingerprint, type ExploreResult } from '../../model/explore.js';
import { exploreWithGraph } from '../../model/explore-graph.js';
import { invariants, violatedInvariants } from '../../model/invariants.js';
import { memoization } from '../../model/memo.js';
import { policies } from '../../model/policy.js';
import { replay } from '../../model/trace.js';
import type { World } from '../../model/world-types.js';
import { FingerprintSink } from '../../model/explore-fingerprint.js';
import { WorldFingerprinter, type KeyParts } from '../../model/world-fingerprint.js';
import { computeWorldKey, writeWorldKey } from '../../model/world-key.js';
import { canStep, candidateSteps, enabledSteps } from '../../model/world-steps.js';
import { initialWorld, step } from '../../model/world.js';

const bounds = parseBounds('calls=1,notifications=1,drops=1,resumes=1');
const full = parseBounds('calls=1,notifications=1,drops=1,resumes=1,deletes=1,unsolicited=1');

/** What must agree: counts, and per violated property the length of its shortest trace. */
function verdicts(result: ExploreResult) {
  return {
    states: result.states,
    transitions: result.transitions,
    violations: result.violations.map((v) => `${v.property}:${v.path.length}`).sort(),
    matches: Object.fromEntries(Object.entries(result.matches).map(([name, m]) => [name, m.path.length])),
  };
}

const signatures = {
  resumed: (w: World) => w.used.resumes > 0,
  reinitialized: (w: World) => w.used.reinitializes > 0,
};

afterEach(() => {
  memoization.sessionTransitions = true;
  memoization.sessionVerdicts = true;
  memoization.sessionKeys = true;
  memoization.compactSessions = true;
});

describe('explore finds what xstate/graph finds', () => {
  test.each(Object.keys(policies))('%s', (name) => {
    const policy = policies[name]!;
    for (const b of [bounds, full]) {
      const graph = verdicts(exploreWithGraph({ policy, bounds: b, signatures }));
      expect(graph.states).toBeGreaterThan(50);
      expect(verdicts(explore({ policy, bounds: b, signatures }))).toEqual(graph);
      expect(verdicts(explore({ policy, bounds: b, signatures, keys: 'exact' }))).toEqual(graph);
    }
  });

  test('it reports exactly what a breadth-first search of worlds reports: each first violation and match, its path, message and world', () => {
    // The plainest such search, as an oracle: a queue of worlds, each state kept as the world first reached.
    const breadthFirst = (policy: (typeof policies)[string], b: typeof full, sigs: Record<string, (w: World) => boolean>) => {
      const start = initialWorld({ policy: policy!, bounds: b });
      const seen = new Set([computeWorldKey(start)]);
      const queue = [{ world: start, path: [] as unknown[] }];
      const violations = new Map<string, unknown>();
      const matches: Record<string, unknown> = {};
      for (let head = 0; head < queue.length; head++) {
        const { world, path } = queue[head]!;
        for (const v of violatedInvariants(world)) if (!violations.has(v.property)) violations.set(v.property, { ...v, path, world });
        for (const [name, accepts] of Object.entries(sigs)) if (!(name in matches) && accepts(world)) matches[name] = { name, path, world };
        for (const s of enabledSteps(world)) {
          const next = step(world, s);
          const key = computeWorldKey(next);
          if (seen.has(key)) continue;
          seen.add(key);
          queue.push({ world: next, path: [...path, s] });
        }
      }
      const sorted = [...violations.values()].sort((x, y) => (x as { path: unknown[] }).path.length - (y as { path: unknown[] }).path.length);
      return JSON.parse(JSON.stringify({ states: seen.size, violations: sorted, matches }));
    };
    const sigs = { ...signatures, told404: (w: World) => w.last?.status === 404, neverMatches: () => false };
    for (const name of ['reference', 'seed-000', 'seed-003', 'bounded-log', 'retention-partial-replay']) {
      const { states, violations, matches } = explore({ policy: policies[name]!, bounds: full, signatures: sigs });
      expect(JSON.parse(JSON.stringify({ states, violations, matches })), name).toEqual(breadthFirst(policies[name], full, sigs));
    }
  });

  test('under bounded log retention, which drops the oldest event across streams, the engines agree with two calls in flight', () => {
    // Two streams interleave: the key must tell which stream's event retention drops next.
    const twoCalls = parseBounds('calls=2,notifications=1,drops=1,resumes=1');
    for (const name of ['bounded-log', 'retention-partial-replay']) {
      const graph = verdicts(exploreWithGraph({ policy: policies[name]!, bounds: twoCalls }));
      expect(verdicts(explore({ policy: policies[name]!, bounds: twoCalls })), name).toEqual(graph);
    }
  });

  test('with every memo table off and whole session snapshots, and with all on, the verdicts are the same', () => {
    const policy = policies['seed-000']!;
    const expected = verdicts(exploreWithGraph({ policy, bounds: full }));
    memoization.sessionTransitions = false;
    memoization.sessionVerdicts = false;
    memoization.sessionKeys = false;
    memoization.compactSessions = false;
    expect(verdicts(explore({ policy, bounds: full }))).toEqual(expected);
    memoization.sessionTransitions = true;
    memoization.sessionVerdicts = true;
    memoization.sessionKeys = true;
    memoization.compactSessions = true;
    expect(verdicts(explore({ policy, bounds: full }))).toEqual(expected);
  });

  test('a compact session steps exactly as a whole XState snapshot does, through every world found', () => {
    // The same exploration visits the same worlds in the same order either way: their sessions must match field for field.
    const sessionsOf = (compact: boolean, name: string) => {
      memoization.compactSessions = compact;
      const seen: string[] = [];
      explore({ policy: policies[name]!, bounds: full, visit: (w) => void seen.push(JSON.stringify(w.sessions.map((s) => [s.value, s.context]))) });
      return seen;
    };
    for (const name of ['reference', 'seed-000', 'seed-003', 'idle-ttl', 'retention-partial-replay']) {
      const whole = sessionsOf(false, name);
      expect(whole.length, name).toBeGreaterThan(100);
      expect(sessionsOf(true, name), name).toEqual(whole);
    }
  });

  test('a signature that reads what the state key leaves out is judged on the world its path reaches', () => {
    const policy = policies.reference!;
    // The last answer is not part of the key: two paths to one state can end in different answers.
    const told404 = (w: World) => w.last?.status === 404;
    const { matches } = explore({ policy, bounds: full, signatures: { told404 } });
    expect(matches.told404).toBeDefined();
    const end = replay(policy, full, matches.told404!.path).at(-1)!.world;
    expect(told404(end)).toBe(true);
    expect(matches.told404!.path.length).toBe(verdicts(exploreWithGraph({ policy, bounds: full, signatures: { told404 } })).matches.told404);
  });

  test('each violation path replays to a world that violates its property', () => {
    const policy = policies['seed-003']!;
    const result = explore({ policy, bounds: full });
    expect(result.violations.length).toBeGreaterThan(2);
    for (const v of result.violations) {
      const end = replay(policy, full, v.path).at(-1)!.world;
      expect(invariants[v.property]!(end), v.property).not.toBeNull();
    }
  });

  test('fingerprints tell apart keys that differ in one character', () => {
    const prints = new Set(['a|b', 'a|c', 'b|b', 'ab', 'ba', '', 'x'.repeat(200), `${'x'.repeat(199)}y`].map(fingerprint));
    expect(prints.size).toBe(8);
    expect(fingerprint('same key')).toBe(fingerprint('same key'));
  });

  test('enabledSteps offers exactly the candidate steps canStep allows, in order, in every reachable world', () => {
    for (const name of ['reference', 'seed-000', 'idle-ttl', 'retention-partial-replay']) {
      let worlds = 0;
      let offered = 0;
      explore({
        policy: policies[name]!,
        bounds: parseBounds('calls=1,notifications=1,drops=1,resumes=1,deletes=1,unsolicited=1,moves=1'),
        visit: (world) => {
          worlds++;
          const expected = candidateSteps(world).filter((s) => canStep(world, s));
          offered += expected.length;
          expect(enabledSteps(world)).toEqual(expected);
        },
      });
      expect(worlds, name).toBeGreaterThan(100);
      expect(offered, name).toBeGreaterThan(worlds);
    }
  });

  test("a successor's fingerprint from its parent's reused parts is its fingerprint from scratch and from its whole key's parts", () => {
    const fingerprinter = new WorldFingerprinter();
    const prints = (world: World, parent?: KeyParts) => {
      fingerprinter.fingerprint(world, parent);
      return { print: [fingerprinter.sink.a, fingerprinter.sink.b], parts: fingerprinter.keep() };
    };
    let successors = 0;
    let reused = 0;
    for (const name of ['reference', 'seed-000', 'retention-partial-replay']) {
      explore({
        policy: policies[name]!,
        bounds: full,
        visit: (world) => {
          const parent = prints(world);
          const whole = new FingerprintSink().reset();
          writeWorldKey(world, whole);
          expect([whole.a, whole.b]).toEqual(parent.print);
          for (const s of enabledSteps(world)) {
            const next = step(world, s);
            const fromParent = prints(next, parent.parts);
            expect(fromParent.print).toEqual(prints(next).print);
            successors++;
            if (fromParent.parts.streamParts.some((p, i) => p === parent.parts.streamParts[i])) reused++;
          }
        },
      });
    }
    expect(successors).toBeGreaterThan(1000);
    // The reuse this test exists for really happens.
    expect(reused).toBeGreaterThan(successors / 4);
  });

  test('visit sees every distinct world once', () => {
    let visited = 0;
    const result = explore({ policy: policies.reference!, bounds, visit: () => visited++ });
    expect(visited).toBe(result.states);
  });
});
