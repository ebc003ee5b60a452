/**
 * The yardstick for the graph traversal: a minimal breadth-first search over the same world,
 * stepping it with the world machine's own transition function and keying states with the same
 * compact key, with an index-based queue and parent pointers (enough to rebuild shortest paths).
 */
import type { SnapshotFrom } from 'xstate';
import { modelActorScope } from '../../model/session-step.js';
import type { Bounds } from '../../model/bounds.js';
import type { Policy } from '../../model/policy.js';
import { worldKey } from '../../model/world-key.js';
import { worldMachine } from '../../model/world-machine.js';
import { enabledSteps } from '../../model/world-steps.js';
import type { World, WorldStep } from '../../model/world-types.js';

type Snapshot = SnapshotFrom<typeof worldMachine>;

const scope = modelActorScope<Parameters<typeof worldMachine.transition>[2]>();

export interface BfsResult {
  states: number;
  transitions: number;
  ms: number;
}

/** Visits every reachable world once; returns counts and time. */
export function minimalBfs(policy: Policy, bounds: Bounds): BfsResult {
  const started = performance.now();
  const initial = worldMachine.getInitialSnapshot(scope, { policy, bounds });
  const parents = new Map<string, { parent: string; step: WorldStep } | null>([[worldKey(initial.context as World), null]]);
  const queue: Snapshot[] = [initial];
  let transitions = 0;
  for (let head = 0; head < queue.length; head++) {
    const snapshot = queue[head]!;
    const key = worldKey(snapshot.context as World);
    for (const step of enabledSteps(snapshot.context as World)) {
      transitions++;
      const next = worldMachine.transition(snapshot, step, scope);
      const nextKey = worldKey(next.context as World);
      if (parents.has(nextKey)) continue;
      parents.set(nextKey, { parent: key, step });
      queue.push(next);
    }
  }
  return { states: parents.size, transitions, ms: performance.now() - started };
}
