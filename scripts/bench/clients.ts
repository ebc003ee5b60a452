/**
 * The client checker: client scenarios per second against the adversary (the checking client in
 * its correct setting, fixed and model scenarios, then fast-check interleavings), and for every
 * client mutant the time to its first counterexample (median of 3; target under 2 s): the check's
 * own order, fixed scenarios first, then the model's, then interleavings.
 */
import { checkingClientFactory } from '../../src/check-client/adapters/checking-client.js';
import { runClientCheck } from '../../src/check-client/run.js';
import { clientMutants } from '../../src/check-client/mutants/index.js';
import type { BenchSection } from './section.js';

const timeoutMs = 300;
const seed = 1;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export default async function clientsBench(): Promise<BenchSection> {
  const lines: string[] = [];
  await runClientCheck(checkingClientFactory(), { name: 'warm-up', timeoutMs, scenarios: ['legacy-cut'] });
  const rate = async (what: string, options: Parameters<typeof runClientCheck>[1]) => {
    const started = performance.now();
    const report = await runClientCheck(checkingClientFactory(), options);
    const ms = performance.now() - started;
    lines.push(`${what}: ${report.scenarios.length} in ${(ms / 1000).toFixed(2)} s = ${((report.scenarios.length / ms) * 1000).toFixed(1)} scenarios/s`);
  };
  await rate(`fixed + model scenarios (checking client, ${timeoutMs} ms timeout; delayed-result waits out its timeout)`, {
    name: 'checking-client',
    timeoutMs,
  });
  await rate(`fast-check interleavings (checking client, seed ${seed})`, { name: 'checking-client', timeoutMs, fixed: false, model: false, runs: 20, seed });
  await rate('fast-check interleavings, 4 at once', { name: 'checking-client', timeoutMs, fixed: false, model: false, runs: 20, seed, concurrency: 4 });
  lines.push('client mutant                   first counterexample, median of 3 (1 / 4 scenarios at once)   found by');
  const firstCounterexample = async (mutant: (typeof clientMutants)[number], concurrency: number) => {
    const times: number[] = [];
    let by = '';
    for (let round = 0; round < 3; round++) {
      const t0 = performance.now();
      let first: number | undefined;
      await runClientCheck(mutant.factory, {
        name: mutant.name,
        timeoutMs,
        runs: 20,
        seed,
        concurrency,
        failFast: true,
        onScenario: (outcome) => {
          if (outcome.broke.length > 0 && first === undefined) {
            first = performance.now() - t0;
            by = outcome.name;
          }
        },
      });
      times.push(first ?? Number.POSITIVE_INFINITY);
    }
    return { ms: median(times), by };
  };
  const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : 'not caught');
  for (const mutant of clientMutants) {
    const one = await firstCounterexample(mutant, 1);
    const four = await firstCounterexample(mutant, 4);
    lines.push(`${mutant.name.padEnd(31)} ${`${seconds(one.ms)} / ${seconds(four.ms)}`.padEnd(61)} ${one.by}${one.ms < 2000 ? '' : ' (target: under 2 s)'}`);
  }
  return { title: 'client checker', lines };
}
