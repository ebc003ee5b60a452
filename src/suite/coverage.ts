/**
 * Scenarios from the model: the shortest path to every state of the oracle world (within small
 * bounds, steps this candidate can be asked), keeping only paths no other path extends, so that
 * running them exercises every state the specification distinguishes at least once.
 */
import { getShortestPaths } from 'xstate/graph';
import { defaultBounds, type Bounds } from '../../model/bounds.js';
import { worldKey } from '../../model/world-key.js';
import { worldMachine } from '../../model/world-machine.js';
import type { World, WorldStep } from '../../model/world-types.js';
import { drivableSteps, oraclePolicy } from './lockstep.js';
import type { CandidateAbilities, ClientSettings } from './types.js';

/**
 * Bounds of a world this candidate can be driven through: the sizes given, with notifications,
 * migrations and unsolicited calls only where its fixtures and transports allow them.
 */
export function candidateBounds(
  abilities: CandidateAbilities,
  sizes: Pick<Bounds, 'calls' | 'drops' | 'resumes' | 'inFlight' | 'undrained'> & { notifications: number },
): Bounds {
  return {
    ...defaultBounds,
    ...sizes,
    notifications: abilities.fixtures.emit ? sizes.notifications : 0,
    reinitializes: 1,
    retries: 0,
    deletes: 1,
    migrations: abilities.transports.length === 2 ? 1 : 0,
    foreignCursors: 1,
    unsolicited: abilities.fixtures.emitUnsolicited ? 1 : 0,
    unclean: 1,
  };
}

/** Small enough to run against a candidate in seconds, large enough for every kind of step. */
export function coverageBounds(abilities: CandidateAbilities): Bounds {
  return candidateBounds(abilities, { calls: 1, notifications: 1, drops: 1, resumes: 1, inFlight: 1, undrained: 1 });
}

export interface CoveragePlan {
  bounds: Bounds;
  /** Distinct model states reachable with drivable steps. */
  states: number;
  /** One path per maximal shortest path; each covers every state along it. */
  paths: WorldStep[][];
  /** For each path, the number of distinct states along it that no earlier path covered. */
  fresh: number[];
}

export function planCoverage(abilities: CandidateAbilities, client: ClientSettings): CoveragePlan {
  const bounds = coverageBounds(abilities);
  const all = getShortestPaths(worldMachine, {
    input: { policy: oraclePolicy(client), bounds },
    serializeState: (s) => worldKey(s.context as World),
    events: (s) => drivableSteps(s.context as World, abilities),
  });
  const steps = all.map((p) => p.steps.slice(1).map((s) => s.event as WorldStep));
  const keyOf = (path: WorldStep[]) => path.map((s) => JSON.stringify(s)).join('>');
  const prefixes = new Set<string>();
  for (const path of steps) for (let i = 0; i < path.length; i++) prefixes.add(keyOf(path.slice(0, i)));
  const leaves = steps.filter((path) => !prefixes.has(keyOf(path))).sort((a, b) => b.length - a.length);
  const covered = new Set<string>();
  const fresh = leaves.map((path) => {
    let n = 0;
    for (let i = 0; i <= path.length; i++) {
      const key = keyOf(path.slice(0, i));
      if (!covered.has(key)) {
        covered.add(key);
        n++;
      }
    }
    return n;
  });
  return { bounds, states: all.length, paths: leaves, fresh };
}
