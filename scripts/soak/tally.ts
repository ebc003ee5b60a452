/**
 * Flaky-test accounting for `npm run soak`: reads what vitest's JSON reporter wrote for each run
 * and counts, per test, the runs it failed in. Pure: the script does the running.
 */

/** The part of vitest's JSON report (`--reporter=json`, jest's format) that the tally reads. */
export interface VitestJsonReport {
  testResults: Array<{
    /** The test file's absolute path. */
    name: string;
    /** `failed` also when the file could not be collected (then `assertionResults` is empty). */
    status: string;
    message?: string;
    assertionResults: Array<{ fullName: string; status: string; failureMessages?: string[] }>;
  }>;
}

/** One `npm test` run: its exit status and, when vitest got to report, its JSON report. */
export interface SoakRun {
  exitCode: number | null;
  report?: VitestJsonReport;
}

/** A test (or a whole file that failed to run) that failed in at least one run. */
export interface FailingTest {
  /** `file > describe > test`, the file relative to the repository; or `file` alone. */
  name: string;
  /** Runs it failed in. */
  failed: number;
  /** Runs that reported it at all (passed or failed). */
  reported: number;
  /** The first line of its first failure message. */
  firstMessage: string;
}

/** What `runs` add up to. */
export interface SoakTally {
  runs: number;
  /** Runs that exited 0. */
  green: number;
  /** Runs with no vitest report (a type error, a crash, a kill). */
  unreported: number;
  /** Failed in some reported runs but not all: the flaky ones. */
  flaky: FailingTest[];
  /** Failed in every run that reported it. */
  broken: FailingTest[];
}

const firstLine = (text: string | undefined): string =>
  (text ?? '')
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim() ?? '';

/**
 * Tallies soak runs.
 *
 * @param runs - the runs, in order
 * @param root - the repository root, cut from test file paths
 */
export function tally(runs: readonly SoakRun[], root: string): SoakTally {
  const seen = new Map<string, FailingTest>();
  const relative = (file: string): string => (file.startsWith(root) ? file.slice(root.length).replace(/^\/+/, '') : file);
  const note = (name: string, failedNow: boolean, message: string | undefined): void => {
    const entry = seen.get(name) ?? { name, failed: 0, reported: 0, firstMessage: '' };
    entry.reported++;
    if (failedNow) {
      entry.failed++;
      if (entry.firstMessage === '') entry.firstMessage = firstLine(message);
    }
    seen.set(name, entry);
  };
  for (const run of runs) {
    for (const file of run.report?.testResults ?? []) {
      const fileName = relative(file.name);
      // The file itself, in every run that reported it: failed when it could not run its tests.
      note(fileName, file.assertionResults.length === 0 && file.status === 'failed', file.message);
      for (const test of file.assertionResults) {
        note(`${fileName} > ${test.fullName}`, test.status === 'failed', test.failureMessages?.[0]);
      }
    }
  }
  const failing = [...seen.values()].filter((t) => t.failed > 0).sort((a, b) => b.failed - a.failed || a.name.localeCompare(b.name));
  return {
    runs: runs.length,
    green: runs.filter((r) => r.exitCode === 0).length,
    unreported: runs.filter((r) => r.report === undefined).length,
    flaky: failing.filter((t) => t.failed < t.reported),
    broken: failing.filter((t) => t.failed === t.reported),
  };
}

/** The tally as lines for the terminal. */
export function renderTally(result: SoakTally): string[] {
  const lines = [`soak: ${result.green} of ${result.runs} run(s) green${result.unreported > 0 ? `, ${result.unreported} without a vitest report` : ''}`];
  const list = (title: string, tests: FailingTest[]): void => {
    if (tests.length === 0) return;
    lines.push(`${title}:`);
    for (const t of tests) lines.push(`  ${t.failed}/${t.reported}  ${t.name}${t.firstMessage ? `: ${t.firstMessage}` : ''}`);
  };
  list('flaky (failed in some runs, passed in others)', result.flaky);
  list('failed in every run', result.broken);
  if (result.flaky.length === 0 && result.broken.length === 0) {
    lines.push(result.unreported > 0 ? 'no test failed in the runs vitest reported' : 'no test failed');
  }
  return lines;
}
