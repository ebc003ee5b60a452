/**
 * The property suite against real HTTP: interleavings per second against the reference server,
 * and for every mutant the time to its first counterexample (median of 3), the length of each
 * reported counterexample and, for a policy mutant, the model's shortest violation of the property
 * (and, where that presents a made-up cursor, the shortest with cursors a client holds).
 */
import { explore } from '../../model/explore.js';
import { shortestWithHeldCursors } from '../../model/held-cursors.js';
import type { PropertyId } from '../../model/property-ids.js';
import { policies, reference } from '../../model/policy.js';
import { mutants, type Mutant } from '../../src/check-server/mutants/index.js';
import { coverageBounds } from '../../src/check-server/coverage.js';
import { drivableSteps } from '../../src/check-server/lockstep.js';
import type { CandidateAbilities } from '../../src/check-server/types.js';
import { createReferenceServer } from '../../src/reference/index.js';
import { referenceClient, runSuite } from '../../src/check-server/run-suite.js';
import type { BenchSection } from './section.js';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The model's shortest violation of each property under a policy mutant's server knobs (with the
 * checking client's knobs, in the bounds of the coverage scenarios); none for a code mutant, whose
 * fault the model does not describe.
 */
function modelShortest(mutant: Mutant, abilities: CandidateAbilities): Map<PropertyId, number> {
  const policy = mutant.kind === 'policy' ? policies[mutant.name] : undefined;
  if (!policy) return new Map();
  const model = explore({ policy: { server: policy.server, client: { ...reference.client, ...referenceClient } }, bounds: coverageBounds(abilities) });
  return new Map(model.violations.map((v) => [v.property, v.path.length]));
}

/**
 * The model's shortest violation of each property under a policy mutant when the client presents
 * only cursors it holds, over the steps the checker can drive (see `shortestWithHeldCursors`).
 */
function heldShortest(mutant: Mutant, abilities: CandidateAbilities): Map<PropertyId, number> {
  const policy = mutant.kind === 'policy' ? policies[mutant.name] : undefined;
  if (!policy) return new Map();
  const input = { policy: { server: policy.server, client: { ...reference.client, ...referenceClient } }, bounds: coverageBounds(abilities) };
  return shortestWithHeldCursors(input, (world) => drivableSteps(world, abilities));
}

/** Properties the judges count on a client's resume only, never after a made-up cursor (`HistoryView.isClientResume`). */
const onClientResumes = new Set<PropertyId>(['no-silent-loss', 'no-silent-stall', 'at-most-once-effect', 'replay-has-no-gap']);

export default async function suiteBench(): Promise<BenchSection> {
  const lines: string[] = [];
  const server = await createReferenceServer();
  try {
    // A warm-up long enough for the JIT to settle (after 20 runs the next 300 still ran a third
    // slower than the 300 after them), then three rounds and their median: one round's rate
    // varies by a third on a shared machine.
    await runSuite({ name: 'warm-up', url: server.url }, { runs: 150, seed: 1, coverage: false });
    const rates: number[] = [];
    for (let round = 0; round < 3; round++) {
      const i = (await runSuite({ name: 'reference', url: server.url }, { runs: 300, seed: 2 + round, coverage: false })).interleavings!;
      rates.push((i.runs / i.ms) * 1000);
    }
    lines.push(
      `interleavings against the reference over loopback, after 150 to warm up: 3 rounds of 300 runs at ${rates.map(Math.round).join(', ')} runs/s; ` +
        `median ${Math.round(median(rates))} runs/s (target: at least 100/s, ${median(rates) >= 100 ? 'MET' : 'NOT MET'})`,
    );
  } finally {
    await server.close();
  }
  const firsts: number[] = [];
  lines.push(
    "mutant                          first counterexample (median of 3)   steps per failed property: reported (model's shortest, policy mutants; " +
      "'; N held': the shortest with cursors a client holds, where the model's needs a made-up one, after which the judges count no loss or stall)",
  );
  for (const mutant of mutants) {
    const times: number[] = [];
    let shrunk = '';
    for (let round = 0; round < 3; round++) {
      const running = await mutant.start();
      const started = performance.now();
      let first: number | undefined;
      try {
        const report = await runSuite(
          { name: mutant.name, url: running.url },
          {
            runs: 50,
            seed: 20261130 + round,
            onProgress: ({ broke }) => void (broke.length > 0 && first === undefined && (first = performance.now() - started)),
          },
        );
        if (round === 0) {
          const shortest = report.abilities ? modelShortest(mutant, report.abilities) : new Map<PropertyId, number>();
          const judgeable = report.abilities ? heldShortest(mutant, report.abilities) : new Map<PropertyId, number>();
          // The model's shortest; for a property judged on client resumes only, where that needs a
          // made-up cursor, then the shortest with cursors a client holds.
          const model = (id: PropertyId) =>
            !shortest.has(id)
              ? ''
              : !onClientResumes.has(id) || judgeable.get(id) === shortest.get(id)
                ? ` (${shortest.get(id)})`
                : ` (${shortest.get(id)}; ${judgeable.get(id) ?? '-'} held)`;
          shrunk = report.properties
            .filter((p) => p.status === 'fail')
            .map((p) => `${p.id} ${p.counterexample?.steps.length ?? '?'}${model(p.id)}`)
            .join(', ');
        }
      } finally {
        await running.stop();
      }
      if (first !== undefined) times.push(first);
    }
    const killed = times.length > 0 ? `${Math.round(median(times))} ms` : 'not killed (breaks nothing as a server)';
    if (times.length > 0) firsts.push(median(times));
    lines.push(`${mutant.name.padEnd(32)}${killed.padEnd(37)}${shrunk}`);
  }
  lines.push(
    `median time to the first counterexample over the killed mutants: ${Math.round(median(firsts))} ms; slowest ${Math.round(Math.max(...firsts))} ms (target: every mutant under 2 s median)`,
  );
  return { title: 'property suite over real HTTP', lines };
}
