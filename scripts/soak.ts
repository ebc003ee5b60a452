/**
 * `npm run soak -- [--runs N] [--hog] [--filter PATTERN]...`: runs `npm test` N times (default 10),
 * optionally beside a CPU hog on every core, and reports each test that failed by name, with the
 * number of runs it failed in: flaky (failed in some runs) apart from broken (failed in all).
 * Each run's output goes to a log file; the tally reads vitest's JSON reporter. Exit status 0 when
 * every run was green, 1 otherwise, 2 on bad flags.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startHog, type Hog } from './soak/hog.js';
import { renderTally, tally, type SoakRun, type VitestJsonReport } from './soak/tally.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const usage = 'usage: npm run soak -- [--runs N] [--hog] [--filter PATTERN]... (PATTERN: a vitest file filter, e.g. test/client/sdk-smoke)';

let flags: { runs?: string; hog?: boolean; filter?: string[]; help?: boolean };
try {
  flags = parseArgs({
    options: { runs: { type: 'string' }, hog: { type: 'boolean' }, filter: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: false,
  }).values;
} catch (error) {
  console.error(`soak: ${(error as Error).message.split('\n')[0]}\n${usage}`);
  process.exit(2);
}
if (flags.help) {
  console.log(usage);
  process.exit(0);
}
const runs = Number(flags.runs ?? '10');
if (!/^\d+$/.test(flags.runs ?? '10') || runs < 1 || runs > 1000) {
  console.error(`soak: --runs must be an integer from 1 to 1000, got ${JSON.stringify(flags.runs)}`);
  process.exit(2);
}
const filters = flags.filter ?? [];

/** One `npm test`, its output to `log`, vitest's JSON report to `json`. */
function npmTest(log: string, json: string): Promise<number | null> {
  const args = ['test', '--', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`, ...filters];
  return new Promise((resolve, reject) => {
    const out = createWriteStream(log);
    const child = spawn('npm', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('error', reject);
    child.on('close', (code) => out.end(() => resolve(code)));
  });
}

const logs = mkdtempSync(join(tmpdir(), 'mcp-resume-spec-soak-'));
let hog: Hog | undefined;
const stopHog = async (): Promise<void> => {
  await hog?.stop();
  hog = undefined;
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stopHog().then(() => process.exit(130)));
}

const outcomes: SoakRun[] = [];
try {
  if (flags.hog) {
    hog = startHog();
    console.log(`soak: CPU hog on ${hog.pids.length} core(s) (pids ${hog.pids.join(', ')})`);
  }
  console.log(`soak: ${runs} run(s) of npm test${filters.length ? ` (${filters.join(' ')})` : ''}; logs in ${logs}`);
  for (let i = 1; i <= runs; i++) {
    const log = join(logs, `run-${i}.log`);
    const json = join(logs, `run-${i}.json`);
    const started = Date.now();
    const exitCode = await npmTest(log, json);
    const outcome: SoakRun = { exitCode };
    if (existsSync(json)) outcome.report = JSON.parse(readFileSync(json, 'utf8')) as VitestJsonReport;
    outcomes.push(outcome);
    const failed = outcome.report?.testResults.flatMap((f) => f.assertionResults.filter((t) => t.status === 'failed')).length;
    const what = outcome.report === undefined ? 'no vitest report (see the log)' : `${failed} failed test(s)`;
    console.log(`run ${i}/${runs}: exit ${exitCode}, ${what}, ${Math.round((Date.now() - started) / 1000)} s (${log})`);
    if (outcome.report === undefined) {
      const tail = readFileSync(log, 'utf8').trimEnd().split('\n').slice(-3);
      for (const line of tail) console.log(`  | ${line}`);
    }
  }
} finally {
  await stopHog();
}
const result = tally(outcomes, root);
for (const line of renderTally(result)) console.log(line);
process.exitCode = result.green === result.runs ? 0 : 1;
