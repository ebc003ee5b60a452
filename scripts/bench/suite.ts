/**
 * The property suite against real HTTP: interleavings per second against the reference server,
 * and for every mutant the time to its first counterexample (median of 3) and the length of the
 * shrunk counterexamples.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { mutants } from '../../src/mutants/index.js';
import { createReferenceServer } from '../../src/reference/index.js';
import { runSuite } from '../../src/suite/run-suite.js';
import type { BenchSection } from './section.js';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Warm-up, then 300 interleavings (seed 2) against the server at `url`; one line of figures. */
async function interleavingsPerSecond(url: string, where: string): Promise<string> {
  await runSuite({ name: 'warm-up', url }, { runs: 20, seed: 1, coverage: false });
  const report = await runSuite({ name: 'reference', url }, { runs: 300, seed: 2, coverage: false });
  const i = report.interleavings!;
  return `interleavings against the reference ${where}: ${i.runs} runs in ${(i.ms / 1000).toFixed(2)} s = ${Math.round((i.runs / i.ms) * 1000)} runs/s (target: at least 100/s)`;
}

/**
 * The reference as a user checks it: `mcp-resume-spec serve` in a process of its own (so the
 * server and the checker each have a core when the machine has two), `check` against its URL.
 */
async function againstServeProcess(): Promise<string> {
  const path = (relative: string) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));
  const child = spawn(process.execPath, [path('bin/run-ts.js'), path('src/cli/run.ts'), 'serve'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`serve exited with ${code} before printing its URL`)));
    });
    return await interleavingsPerSecond(endpoint.replace(/\/mcp$/, ''), 'served by `mcp-resume-spec serve` (its own process)');
  } catch (error) {
    return `interleavings against \`mcp-resume-spec serve\`: could not run: ${(error as Error).message}`;
  } finally {
    child.kill();
  }
}

export default async function suiteBench(): Promise<BenchSection> {
  const lines: string[] = [];
  const server = await createReferenceServer();
  try {
    lines.push(await interleavingsPerSecond(server.url, 'over loopback, in the checker\'s process'));
  } finally {
    await server.close();
  }
  lines.push(await againstServeProcess());
  const firsts: number[] = [];
  lines.push('mutant                          first counterexample (median of 3)   shrunk steps per failed property');
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
          { runs: 50, seed: 20261130 + round, onProgress: ({ broke }) => void (broke.length > 0 && first === undefined && (first = performance.now() - started)) },
        );
        if (round === 0) shrunk = report.properties.filter((p) => p.status === 'fail').map((p) => `${p.id} ${p.counterexample?.steps.length ?? '?'}`).join(', ');
      } finally {
        await running.stop();
      }
      if (first !== undefined) times.push(first);
    }
    const killed = times.length > 0 ? `${Math.round(median(times))} ms` : 'not killed (breaks nothing as a server)';
    if (times.length > 0) firsts.push(median(times));
    lines.push(`${mutant.name.padEnd(32)}${killed.padEnd(37)}${shrunk}`);
  }
  lines.push(`median time to the first counterexample over the killed mutants: ${Math.round(median(firsts))} ms; slowest ${Math.round(Math.max(...firsts))} ms (target: every mutant under 2 s median)`);
  return { title: 'property suite over real HTTP', lines };
}
