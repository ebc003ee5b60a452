/**
 * The client checker: client scenarios per second against the adversary (the correct reference
 * client, where no call waits out a timeout but `delayed-result`'s), and for every client mutant the
 * time to its first counterexample (median of 3; target under 2 s).
 */
import { referenceClientFactory } from '../../src/client-adapters/reference-client.js';
import { runClientCheck } from '../../src/client-check/run.js';
import { clientMutants } from '../../src/client-mutants/index.js';
import type { BenchSection } from './section.js';

const timeoutMs = 300;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export default async function clientsBench(): Promise<BenchSection> {
  const lines: string[] = [];
  await runClientCheck(referenceClientFactory(), { name: 'warm-up', timeoutMs, scenarios: ['cut-after-frames'] });
  const started = performance.now();
  const report = await runClientCheck(referenceClientFactory(), { name: 'reference', timeoutMs });
  const ms = performance.now() - started;
  lines.push(`client scenarios against the adversary (reference client, ${timeoutMs} ms timeout): ${report.scenarios.length} in ${(ms / 1000).toFixed(2)} s = ${((report.scenarios.length / ms) * 1000).toFixed(1)} scenarios/s`);
  lines.push('client mutant                   first counterexample (median of 3)');
  for (const mutant of clientMutants) {
    const times: number[] = [];
    for (let round = 0; round < 3; round++) {
      const t0 = performance.now();
      let first: number | undefined;
      await runClientCheck(mutant.factory, {
        name: mutant.name,
        timeoutMs,
        onScenario: (outcome) => void (outcome.broke.length > 0 && first === undefined && (first = performance.now() - t0)),
      });
      times.push(first ?? Number.POSITIVE_INFINITY);
    }
    const m = median(times);
    lines.push(`${mutant.name.padEnd(31)} ${Number.isFinite(m) ? `${(m / 1000).toFixed(2)} s` : 'not caught'}${m < 2000 ? '' : ' (target: under 2 s)'}`);
  }
  return { title: 'client checker', lines };
}
