/**
 * Exploration speed: the reference world at the default bounds traversed by xstate/graph (as
 * `explore` does it, invariants included, and the bare traversal), beside the minimal BFS over
 * the same world with the same transition function and key.
 */
import { getShortestPaths } from 'xstate/graph';
import { defaultBounds, formatBounds } from '../../model/bounds.js';
import { explore } from '../../model/explore.js';
import { reference } from '../../model/policy.js';
import { worldKey } from '../../model/world-key.js';
import { worldMachine } from '../../model/world-machine.js';
import { enabledSteps } from '../../model/world-steps.js';
import type { World } from '../../model/world-types.js';
import { minimalBfs } from './minimal-bfs.js';
import type { BenchSection } from './section.js';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function graphTraversal(): { states: number; ms: number } {
  const started = performance.now();
  const paths = getShortestPaths(worldMachine, {
    input: { policy: reference, bounds: defaultBounds },
    serializeState: (s) => worldKey(s.context as World),
    events: (s) => enabledSteps(s.context as World),
  });
  return { states: paths.length, ms: performance.now() - started };
}

export default async function modelBench(): Promise<BenchSection> {
  const rounds = 5;
  const graph: number[] = [];
  const bfs: number[] = [];
  const full: number[] = [];
  let states = 0;
  let transitions = 0;
  graphTraversal(); // warm-up
  minimalBfs(reference, defaultBounds);
  for (let i = 0; i < rounds; i++) {
    const g = graphTraversal();
    const b = minimalBfs(reference, defaultBounds);
    const e = explore({ policy: reference, bounds: defaultBounds });
    if (g.states !== b.states || e.states !== b.states) throw new Error(`traversals disagree: ${g.states} / ${b.states} / ${e.states} states`);
    graph.push(g.ms);
    bfs.push(b.ms);
    full.push(e.ms);
    states = b.states;
    transitions = b.transitions;
  }
  const g = median(graph);
  const b = median(bfs);
  const e = median(full);
  return {
    title: `model exploration: reference, bounds ${formatBounds(defaultBounds)} (median of ${rounds})`,
    lines: [
      `distinct states ${states}, transitions ${transitions}`,
      `explore (xstate/graph getShortestPaths + every invariant on every state): ${(e / 1000).toFixed(2)} s, ${Math.round((states / e) * 1000)} states/s (target: under 10 s)`,
      `xstate/graph traversal alone: ${(g / 1000).toFixed(2)} s, ${Math.round((states / g) * 1000)} states/s`,
      `minimal BFS (same transition function and key): ${(b / 1000).toFixed(2)} s, ${Math.round((states / b) * 1000)} states/s`,
      `ratio graph traversal / minimal BFS: ${(g / b).toFixed(2)}x (target: within 3x); explore / minimal BFS: ${(e / b).toFixed(2)}x`,
      `peak RSS so far: ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`,
    ],
  };
}
