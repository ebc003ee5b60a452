/**
 * `check-client --write-baseline` / `--baseline` through the compiled CLI: a client mutant's real
 * DERIVED failure (counted as MUST; no-reinitialize-on-404, in the one fixed scenario that shows it) is baselined (exit
 * 1, then 0 with the baseline, said in every report), a failure the baseline does not list still
 * fails, the checking client's pass of it is reported FIXED, and a file that is no client baseline
 * is an exit 2 whose reports say why. One scenario per run (`--scenarios session-expired`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientPropertyIds } from '../../properties/client/ids.js';
import { readBaseline, readClientBaseline } from '../../src/cli/baseline.js';
import { clientExitStatus, type ClientBaseline, type ClientReport } from '../../src/check-client/report.js';
import { runCli } from '../cli/run-cli.js';
import { findAll, parseXml, type XmlElement } from '../report/xml-check.js';

const dir = mkdtempSync(join(tmpdir(), 'check-client-baseline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const id = 'client-reinitializes-on-404' as const;
const cheap = ['--scenarios', 'session-expired', '--timeout', '1000', '--quiet'];
const at = (name: string) => join(dir, name);
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { status: string; error?: string; baseline?: unknown };
/** A JUnit test case's `baseline` property, if any. */
const junitMark = (xml: string, name: string) => {
  const testcase = findAll(parseXml(xml), 'testcase').find((c) => c.attributes.name === name)!;
  return findAll(testcase, 'property').find((p: XmlElement) => p.attributes.name === 'baseline')?.attributes.value;
};

describe('check-client baselines', () => {
  it('a baselined failure does not fail the check, one it does not list does, and one that passes is FIXED, in every report', async () => {
    const baseline = at('baseline.json');
    const written = await runCli(['check-client', '--client', 'no-reinitialize-on-404', ...cheap, '--write-baseline', baseline]);
    expect(written.code, written.stdout + written.stderr).toBe(1);
    expect(JSON.parse(readFileSync(baseline, 'utf8'))).toEqual({ baselineVersion: 1, kind: 'client', failures: [{ id, level: 'derived' }] });

    const other = at('other.json');
    writeFileSync(other, JSON.stringify({ baselineVersion: 1, kind: 'client', failures: [{ id: 'client-bounded-wait' }] }));
    const rewritten = at('rewritten.json');
    const [known, fresh, fixed, narrowed] = await Promise.all([
      runCli([
        'check-client',
        '--client',
        'no-reinitialize-on-404',
        ...cheap,
        '--baseline',
        baseline,
        '--out',
        at('known.json'),
        '--junit',
        at('known.xml'),
        '--markdown',
        at('known.md'),
      ]),
      runCli(['check-client', '--client', 'no-reinitialize-on-404', ...cheap, '--baseline', other, '--out', at('fresh.json')]),
      runCli([
        'check-client',
        '--client',
        'checking-client',
        ...cheap,
        '--baseline',
        baseline,
        '--out',
        at('fixed.json'),
        '--junit',
        at('fixed.xml'),
        '--markdown',
        at('fixed.md'),
      ]),
      // Rewritten after a run that does not judge the listed failure: it stays listed.
      runCli([
        'check-client',
        '--client',
        'no-reinitialize-on-404',
        ...cheap,
        '--only',
        'client-bounded-wait',
        '--baseline',
        baseline,
        '--write-baseline',
        rewritten,
        '--out',
        at('narrowed.json'),
      ]),
    ]);

    // The same failure again: known, exit 0; still reported as a failure.
    expect(known.code, known.stdout + known.stderr).toBe(0);
    expect(known.stdout).toMatch(new RegExp(`^FAIL ${id} \\[MUST \\(derived\\)\\] \\(\\d+ scenario\\(s\\)\\) \\(known\\)$`, 'm'));
    expect(known.stdout).toContain(`baseline ${baseline}: 1 known failure(s) do not fail the check (${id})`);
    expect(json(at('known.json'))).toMatchObject({ status: 'pass', schemaVersion: 1, baseline: { file: baseline, known: [id], fixed: [] } });
    const knownXml = readFileSync(at('known.xml'), 'utf8');
    expect(junitMark(knownXml, id)).toBe('known');
    // A JUnit reader reaches the exit status's verdict: the known failure is skipped, its detail kept.
    expect(findAll(parseXml(knownXml), 'failure')).toHaveLength(0);
    expect(parseXml(knownXml).attributes).toMatchObject({ failures: '0' });
    const knownCase = findAll(parseXml(knownXml), 'skipped').find((e) => e.attributes.message!.startsWith('known failure'))!;
    expect(knownCase.attributes.message).toMatch(/^known failure \(baseline .*baseline\.json\): does not fail the check: \[DERIVED\] /);
    expect(knownCase.text).toMatch(/^known failure: covered by the baseline .*baseline\.json, it does not fail the check\n/);
    const knownMd = readFileSync(at('known.md'), 'utf8');
    expect(knownMd).toContain(`| **FAIL** (known) | MUST (derived) | \`${id}\` |`);
    expect(knownMd).toMatch(/\n## Baseline\n\n- baseline .*baseline\.json: 1 known failure\(s\) do not fail the check \(client-reinitializes-on-404\)\n/);

    // A baseline that lists another property: this failure is new and fails the check.
    expect(fresh.code, fresh.stdout + fresh.stderr).toBe(1);
    expect(fresh.stdout).toMatch(new RegExp(`^FAIL ${id} \\[MUST \\(derived\\)\\]`, 'm'));
    expect(fresh.stdout).toContain(`baseline ${other}: 0 known failure(s) do not fail the check\n`);
    // (and the property it lists holds: fixed)
    expect(json(at('fresh.json'))).toMatchObject({ status: 'fail', baseline: { known: [], fixed: ['client-bounded-wait'] } });

    // The checking client starts a new session after the 404: the baselined failure is fixed.
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(new RegExp(`^PASS ${id} \\[MUST \\(derived\\)\\]`, 'm'));
    // One scenario is not a full check: the line says so.
    expect(fixed.stdout).toContain(
      `FIXED ${id}: listed in the baseline, passes in this run, narrowed by --scenarios (remove it from the baseline once a check without that flag passes it too)`,
    );
    expect(fixed.stderr).toContain(`note: 1 baselined failure(s) pass in this run, narrowed by --scenarios: ${id}`);
    expect(json(at('fixed.json'))).toMatchObject({ status: 'pass', baseline: { known: [], fixed: [id], unjudged: [], narrowedBy: ['--scenarios'] } });
    expect(junitMark(readFileSync(at('fixed.xml'), 'utf8'), id)).toBe('fixed');
    expect(readFileSync(at('fixed.md'), 'utf8')).toContain(`| PASS (FIXED) | MUST (derived) | \`${id}\` |`);

    // Not judged: neither known nor fixed, said so, and kept in the rewritten baseline.
    expect(narrowed.code, narrowed.stdout + narrowed.stderr).toBe(0);
    expect(narrowed.stdout).toContain(`listed in the baseline, not judged in this run (neither known nor fixed): ${id}`);
    expect(json(at('narrowed.json'))).toMatchObject({ baseline: { known: [], fixed: [], unjudged: [id], narrowedBy: ['--only', '--scenarios'] } });
    expect(JSON.parse(readFileSync(rewritten, 'utf8'))).toEqual({ baselineVersion: 1, kind: 'client', failures: [{ id, level: 'derived' }] });
    expect(narrowed.stderr).toContain(
      `note: ${rewritten} keeps 1 listed failure(s) this run cannot clear (not judged, or passing only in a narrowed run): ${id}`,
    );
  }, 120_000);

  it('a file that is no client baseline: exit 2 with the reason, the reports written saying it', async () => {
    const server = at('server.json');
    writeFileSync(server, JSON.stringify({ baselineVersion: 1, failures: [{ id: 'terminated-session-404', level: 'must' }] }));
    const unknown = at('unknown.json');
    writeFileSync(unknown, JSON.stringify({ baselineVersion: 1, kind: 'client', failures: ['client-no-lost-events'] }));
    const notJson = at('not.json');
    writeFileSync(notJson, '{"baselineVersion": 1,\n');
    const cases = [
      [
        server,
        /--baseline: .*server\.json is a server baseline \(no "kind": "client", as check --write-baseline writes\); check-client takes the baseline check-client --write-baseline writes/,
      ],
      [unknown, /--baseline: .*unknown\.json lists "client-no-lost-events", not a client property id; known: client-delivers-exactly-once,/],
      [notJson, /--baseline: .*not\.json is not JSON: /],
      [at('missing.json'), /--baseline: cannot read .*missing\.json: ENOENT/],
    ] as const;
    const runs = await Promise.all(
      cases.map(([file], i) =>
        runCli(['check-client', '--client', 'checking-client', ...cheap, '--baseline', file, '--out', at(`error-${i}.json`), '--junit', at(`error-${i}.xml`)]),
      ),
    );
    runs.forEach((run, i) => {
      const [, message] = cases[i]!;
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
      expect(json(at(`error-${i}.json`))).toMatchObject({ status: 'error', error: expect.stringMatching(message) });
      expect(findAll(parseXml(readFileSync(at(`error-${i}.xml`), 'utf8')), 'error')[0]!.attributes.message).toMatch(message);
    });
  }, 60_000);

  it('check refuses a client baseline, and a baseline of another version is refused by both', () => {
    const client = at('client.json');
    writeFileSync(client, JSON.stringify({ baselineVersion: 1, kind: 'client', failures: [{ id, level: 'derived' }] }));
    expect([...readClientBaseline(client)]).toEqual([id]);
    expect(() => readBaseline(client)).toThrow(
      /is a client baseline \("kind": "client", as check-client --write-baseline writes\); check takes the baseline check --write-baseline writes/,
    );
    // Without its kind, a client id still tells check whose file it is.
    const bare = at('bare.json');
    writeFileSync(bare, JSON.stringify({ failures: [id] }));
    expect(() => readBaseline(bare)).toThrow(`lists "${id}", a client property id (check-client's), not a property id`);
    // And the reverse, in a file that says it is a client's.
    const mixed = at('mixed.json');
    writeFileSync(mixed, JSON.stringify({ kind: 'client', failures: ['terminated-session-404'] }));
    expect(() => readClientBaseline(mixed)).toThrow(`lists "terminated-session-404", a property id (check's), not a client property id`);
    // A file that is no baseline at all is said to be that, whatever command reads it.
    const shapeless = at('shapeless.json');
    writeFileSync(shapeless, '[]');
    expect(() => readClientBaseline(shapeless)).toThrow('has no "failures" array');
    const future = at('future.json');
    writeFileSync(future, JSON.stringify({ baselineVersion: 2, kind: 'client', failures: [] }));
    expect(() => readClientBaseline(future)).toThrow('"baselineVersion": 2; this version of mcp-resume-spec reads the number 1');
    expect(() => readBaseline(future)).toThrow('"baselineVersion": 2');
  });

  it('with --fail-on, as check: a known failure never counts, a new one counts at or above the level', () => {
    const report: ClientReport = {
      client: { name: 'x' },
      timeoutMs: 100,
      scenarios: [],
      properties: clientPropertyIds.map((p) => ({ id: p, status: 'pass' as const, runs: 1, level: 'policy' as const, statement: p })),
    };
    report.properties[2] = { ...report.properties[2]!, id, status: 'fail', level: 'derived' };
    report.properties[0] = { ...report.properties[0]!, status: 'fail', level: 'policy' };
    const baseline: ClientBaseline = { file: 'b.json', known: [id], fixed: [], unjudged: [] };
    expect(clientExitStatus(report, 'must')).toBe(1);
    expect(clientExitStatus(report, 'must', baseline)).toBe(0);
    expect(clientExitStatus(report, 'should', baseline)).toBe(0);
    expect(clientExitStatus(report, 'policy', baseline)).toBe(1);
  });
});
