import { expect, test } from 'vitest';
import { renderTally, tally, type SoakRun, type VitestJsonReport } from '../../scripts/soak/tally.js';

const root = '/repo/';

/** A vitest JSON report: per file, per test, passed or failed (with a message). */
function report(files: Record<string, Record<string, 'passed' | 'failed'> | { collectError: string }>): VitestJsonReport {
  return {
    testResults: Object.entries(files).map(([file, tests]) =>
      'collectError' in tests
        ? { name: `/repo/${file}`, status: 'failed', message: tests.collectError, assertionResults: [] }
        : {
            name: `/repo/${file}`,
            status: Object.values(tests).includes('failed') ? 'failed' : 'passed',
            assertionResults: Object.entries(tests).map(([fullName, status]) => ({
              fullName,
              status,
              failureMessages: status === 'failed' ? [`AssertionError: ${fullName} went wrong\n    at somewhere`] : [],
            })),
          },
    ),
  };
}

test('a test failing in some runs is flaky, one failing in every run is broken, with counts and first messages', () => {
  const runs: SoakRun[] = [
    { exitCode: 1, report: report({ 'test/a.test.ts': { 'smoke resumes': 'failed', stable: 'passed' }, 'test/b.test.ts': { always: 'failed' } }) },
    { exitCode: 1, report: report({ 'test/a.test.ts': { 'smoke resumes': 'passed', stable: 'passed' }, 'test/b.test.ts': { always: 'failed' } }) },
    { exitCode: 1, report: report({ 'test/a.test.ts': { 'smoke resumes': 'failed', stable: 'passed' }, 'test/b.test.ts': { always: 'failed' } }) },
  ];
  const result = tally(runs, root);
  expect(result).toEqual({
    runs: 3,
    green: 0,
    unreported: 0,
    flaky: [{ name: 'test/a.test.ts > smoke resumes', failed: 2, reported: 3, firstMessage: 'AssertionError: smoke resumes went wrong' }],
    broken: [{ name: 'test/b.test.ts > always', failed: 3, reported: 3, firstMessage: 'AssertionError: always went wrong' }],
  });
  expect(renderTally(result)).toEqual([
    'soak: 0 of 3 run(s) green',
    'flaky (failed in some runs, passed in others):',
    '  2/3  test/a.test.ts > smoke resumes: AssertionError: smoke resumes went wrong',
    'failed in every run:',
    '  3/3  test/b.test.ts > always: AssertionError: always went wrong',
  ]);
});

test('a file that fails to run counts under its own name; a run without a report counts as unreported', () => {
  const runs: SoakRun[] = [
    { exitCode: 0, report: report({ 'test/c.test.ts': { fine: 'passed' } }) },
    { exitCode: 1, report: report({ 'test/c.test.ts': { collectError: 'SyntaxError: Unexpected token\nmore' } }) },
    { exitCode: 2 },
  ];
  const result = tally(runs, root);
  expect(result.green).toBe(1);
  expect(result.unreported).toBe(1);
  expect(result.broken).toEqual([]);
  // The file could not run in one of the two runs that reported it: flaky, under the file's name.
  expect(result.flaky).toEqual([{ name: 'test/c.test.ts', failed: 1, reported: 2, firstMessage: 'SyntaxError: Unexpected token' }]);
  expect(renderTally(result)[0]).toBe('soak: 1 of 3 run(s) green, 1 without a vitest report');
});

test('all green: no test failed', () => {
  const result = tally([{ exitCode: 0, report: report({ 'test/d.test.ts': { ok: 'passed' } }) }], root);
  expect(renderTally(result)).toEqual(['soak: 1 of 1 run(s) green', 'no test failed']);
});
