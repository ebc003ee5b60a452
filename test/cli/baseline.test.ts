/**
 * `check --write-baseline` / `--baseline` end to end through the compiled CLI: a mutant's real
 * failure is baselined (exit 1, then 0 with the baseline), a new failure still fails, and the same
 * baseline against the reference reports the failure fixed. Only the property at stake and the
 * probe that finds it run (`--only`, `--runs 0`, `--no-coverage`), so each run takes seconds. Every
 * report format says what the baseline made of the failure.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCli } from './run-cli.js';

const out = mkdtempSync(join(tmpdir(), 'mcp-resume-spec-baseline-'));
const mutant = 'dist/src/check-server/mutants/delete-keeps-session.js';
const cheap = ['--runs', '0', '--no-coverage', '--timeout', '3000', '--quiet'];

test('a baselined failure does not fail the check, a new one does, and a fixed one is reported FIXED', async () => {
  const baseline = join(out, 'baseline.json');
  const [junit, markdown] = [join(out, 'known.xml'), join(out, 'known.md')];
  const written = await runCli(['check', '--adapter', mutant, '--only', 'terminated-session-404', ...cheap, '--write-baseline', baseline]);
  expect(written.code, written.stderr).toBe(1);
  expect(JSON.parse(readFileSync(baseline, 'utf8'))).toEqual({ baselineVersion: 1, failures: [{ id: 'terminated-session-404', level: 'must' }] });

  // The same failure again: known, exit 0, said in the text and the JSON.
  const [known, knownJson] = await Promise.all([
    runCli(['check', '--adapter', mutant, '--only', 'terminated-session-404', ...cheap, '--baseline', baseline, '--junit', junit, '--markdown', markdown]),
    runCli(['check', '--adapter', mutant, '--only', 'terminated-session-404', ...cheap, '--baseline', baseline, '--json']),
  ]);
  expect(known.code, known.stderr).toBe(0);
  expect(known.stdout).toMatch(/^FAIL {2}\[MUST\] +terminated-session-404 +runs \d+ +\(known\) /m);
  expect(known.stdout).toContain(`baseline ${baseline}: 1 known failure(s) do not fail the check (terminated-session-404)`);
  // Every report says it: the JUnit and Markdown reports mark the known failure.
  expect(readFileSync(junit, 'utf8')).toContain('<property name="level" value="must"/><property name="baseline" value="known"/>');
  expect(readFileSync(markdown, 'utf8')).toContain('| **FAIL** (known) | MUST | `terminated-session-404` |');
  expect(knownJson.code).toBe(0);
  expect(JSON.parse(knownJson.stdout)).toMatchObject({ status: 'pass', baseline: { file: baseline, known: ['terminated-session-404'], fixed: [] } });

  // A baseline that lists another property: this failure is new and fails the check.
  const other = join(out, 'other.json');
  writeFileSync(other, JSON.stringify({ baselineVersion: 1, failures: [{ id: 'no-silent-loss' }] }));
  const fresh = await runCli(['check', '--adapter', mutant, '--only', 'terminated-session-404', ...cheap, '--baseline', other, '--json']);
  expect(fresh.code, fresh.stderr).toBe(1);
  expect(JSON.parse(fresh.stdout)).toMatchObject({ status: 'fail', baseline: { known: [], fixed: [] } });

  // The reference keeps sessions ended: the baselined failure is fixed (reported, exit 0).
  // A narrowed run (this one, and one the time budget cut short) says so; its rewrite keeps the entry.
  const kept = join(out, 'kept.json');
  const [fixed, cut] = await Promise.all([
    runCli([
      'check',
      '--adapter',
      'dist/src/check-server/candidates/reference.js',
      '--only',
      'terminated-session-404',
      ...cheap,
      '--baseline',
      baseline,
      '--write-baseline',
      kept,
    ]),
    runCli([
      'check',
      '--adapter',
      'dist/src/check-server/candidates/reference.js',
      '--only',
      'terminated-session-404',
      // Long enough for the probe that judges it even on a loaded machine, far too short for the whole check.
      '--max-seconds',
      '4',
      '--timeout',
      '3000',
      '--quiet',
      '--baseline',
      baseline,
    ]),
  ]);
  expect(fixed.code, fixed.stderr).toBe(0);
  expect(fixed.stdout).toMatch(/^PASS {2}\[MUST\] +terminated-session-404 /m);
  expect(fixed.stdout).toContain(
    'FIXED terminated-session-404: listed in the baseline, passes in this run, narrowed by --only, --runs 0, --no-coverage (remove it from the baseline once a check without those flags passes it too)',
  );
  expect(fixed.stderr).toContain('note: 1 baselined failure(s) pass in this run, narrowed by --only, --runs 0, --no-coverage: terminated-session-404');
  expect(JSON.parse(readFileSync(kept, 'utf8'))).toEqual({ baselineVersion: 1, failures: [{ id: 'terminated-session-404', level: 'must' }] });
  expect(cut.code, cut.stderr).toBe(0);
  expect(cut.stdout).toContain(
    'FIXED terminated-session-404: listed in the baseline, passes in this run, narrowed by --only, --max-seconds 4 (the time budget ran out)',
  );
}, 120_000);
