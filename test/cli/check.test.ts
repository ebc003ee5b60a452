/**
 * `mcp-resume-spec check` end to end, in child processes: exit statuses, the reports it writes,
 * and a `.ts` adapter.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { propertyIds } from '../../model/property-ids.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { reportSchemaVersion } from '../../src/report/json.js';
import { reportSchema } from '../../src/report/report-schema.js';
import { toolVersion } from '../../src/version.js';
import type { RunningCandidate } from '../../src/check-server/candidates/adapter.js';
import { startPlainServer } from '../candidates/plain-server.js';
import { findAll, parseXml } from '../report/xml-check.js';
import { runCli } from './run-cli.js';

/** Every property the checker judges. */
const count = propertyIds.length;
const version = toolVersion();
const out = mkdtempSync(join(tmpdir(), 'mcp-resume-spec-check-'));
let server: ReferenceServer;
/** A correct server of streamable HTTP only. */
let plain: RunningCandidate;
beforeAll(async () => {
  server = await createReferenceServer();
  plain = await startPlainServer();
});
afterAll(async () => {
  await server.close();
  await plain.stop();
});

describe.concurrent('check', () => {
  test('the reference adapter (.ts): exit 0, every property passes, JSON valid against the schema, JUnit parses back', async () => {
    const junit = join(out, 'reference.xml');
    const run = await runCli(
      ['check', '--adapter', 'src/check-server/candidates/reference.ts', '--runs', '10', '--seed', '7', '--timeout', '3000', '--json', '--junit', junit],
      110_000,
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    const validate = new Ajv2020({ strict: true }).compile(reportSchema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report).toMatchObject({ tool: { name: 'mcp-resume-spec', version }, schemaVersion: reportSchemaVersion, status: 'pass' });
    expect(report.candidate.name).toBe('reference');
    expect(report.properties.map((p: { status: string }) => p.status)).toEqual(Array(count).fill('pass'));
    const suite = findAll(parseXml(readFileSync(junit, 'utf8')), 'testsuite')[0]!;
    expect(suite.attributes.tests).toBe(String(count));
    expect(suite.attributes.failures).toBe('0');
    expect(findAll(suite, 'testcase')).toHaveLength(count);
    // JUnit's time is the whole check's (the JSON's ms), not the interleavings' alone.
    expect(Math.abs(Number(suite.attributes.time) * 1000 - report.ms)).toBeLessThanOrEqual(1);
    expect(report.ms).toBeGreaterThan(report.interleavings.ms);
    // Progress off a terminal: plain lines on stderr, each phase to its end.
    expect(run.stderr).toMatch(/^probes 1\/\d+ \(/m);
    expect(run.stderr).toMatch(/^coverage (\d+)\/\1 \(/m);
    expect(run.stderr).toMatch(/^interleavings 10\/10 \(/m);
  }, 120_000);

  test('a running server by --url: the text summary, and the JSON report in the --out file', async () => {
    const json = join(out, 'by-url.json');
    const run = await runCli(['check', '--url', server.url, '--runs', '5', '--seed', '3', '--timeout', '3000', '--quiet', '--out', json]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ status: 'pass', candidate: { url: server.url.replace(/\/mcp$/, '') } });
    expect(run.stdout).toMatch(/^candidate: 127\.0\.0\.1:\d+ at http:\/\/127\.0\.0\.1:\d+/);
    expect(run.stdout).toContain(`summary: ${count} pass, 0 fail, 0 skip (${count} properties)`);
  });

  test("an adapter's url may be its streamable endpoint, as --url may", async () => {
    // The probes alone: what is checked here is how the url is read.
    const run = await runCli([
      'check',
      '--adapter',
      'test/cli/fixtures/endpoint-adapter.ts',
      '--runs',
      '0',
      '--no-coverage',
      '--only',
      'terminated-session-404',
      '--timeout',
      '3000',
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    // Each transport with the endpoint it answered at: /mcp, not /mcp/mcp.
    expect(run.stdout).toMatch(/^abilities: transports streamable at http:\/\/127\.0\.0\.1:\d+\/mcp, sse at http:\/\/127\.0\.0\.1:\d+\/sse;/m);
    expect(run.stdout).toContain('summary: 1 pass, 0 fail, 0 skip (1 properties)');
  });

  test('--url naming the legacy endpoint: a note, and both transports checked', async () => {
    const sse = `${new URL(server.url).origin}/sse`;
    // The probes alone: what is checked here is how the URL is read (the parse: target-url.test.ts).
    const run = await runCli(['check', '--url', sse, '--runs', '0', '--no-coverage', '--only', 'terminated-session-404', '--timeout', '3000', '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(
      `note: --url names the legacy HTTP+SSE endpoint ${sse}: checking it as such, and streamable HTTP at ${new URL(server.url).origin}/mcp beside it (it should name the streamable endpoint; if /sse is your streamable HTTP endpoint, give the legacy one with --sse PATH)\n`,
    );
    expect(run.stdout).toMatch(/^abilities: transports streamable at http:\/\/127\.0\.0\.1:\d+\/mcp, sse at http:\/\/127\.0\.0\.1:\d+\/sse;/m);
    expect(run.stdout).toContain('summary: 1 pass, 0 fail, 0 skip (1 properties)');
  });

  test.each([
    ['a trailing slash', '/mcp/'],
    ['a wrong path', '/wrongpath'],
  ])('--url naming a streamable endpoint that does not answer (%s): exit 2 with the reason, though the legacy endpoint answers', async (_, path) => {
    const origin = new URL(server.url).origin;
    const run = await runCli(['check', '--url', `${origin}${path}`, '--runs', '0', '--no-coverage', '--timeout', '3000', '--quiet', '--json']);
    expect(run.code, run.stdout).toBe(2);
    const reason = `could not check ${origin}: the streamable HTTP endpoint named, ${origin}${path}, does not answer initialize (`;
    expect(run.stderr).toContain(reason);
    expect(run.stderr).toContain(
      `: the endpoint to check must answer it; legacy HTTP+SSE at ${origin}/sse does (to check a server of that transport alone, give its endpoint or the base URL ${origin})`,
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'error', properties: [] });
  });

  test('--url naming the legacy endpoint of a streamable-only server: exit 2; its base URL checks streamable HTTP alone', async () => {
    const origin = new URL(plain.url).origin;
    const named = await runCli([
      'check',
      '--url',
      `${origin}/sse`,
      '--runs',
      '0',
      '--no-coverage',
      '--only',
      'terminated-session-404',
      '--timeout',
      '3000',
      '--quiet',
    ]);
    expect(named.code, named.stdout).toBe(2);
    expect(named.stderr).toContain(`the legacy HTTP+SSE endpoint named, ${origin}/sse, does not answer initialize (`);
    const base = await runCli(['check', '--url', origin, '--runs', '0', '--no-coverage', '--only', 'terminated-session-404', '--timeout', '3000', '--quiet']);
    expect(base.code, base.stderr).toBe(0);
    expect(base.stdout).toContain('summary: 1 pass, 0 fail, 0 skip (1 properties)');
  });

  test("a check in which no property could be judged is no pass: exit 2 with the skips' reasons", async () => {
    // A streamable-only server has nothing to show of a resume under the other transport.
    const run = await runCli([
      'check',
      '--url',
      plain.url,
      '--runs',
      '0',
      '--no-coverage',
      '--only',
      'no-cross-transport-resume',
      '--timeout',
      '3000',
      '--quiet',
      '--json',
    ]);
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toMatch(/could not check http:\/\/127\.0\.0\.1:\d+: no property could be judged, every one was skipped \(no-cross-transport-resume: /);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'error' });
  });

  test('a mutant breaking a MUST: exit 1 even with --fail-on must, the failure with its level and trace, a Markdown report with a sequence diagram and a vitest reproduction', async () => {
    const markdown = join(out, 'mutant.md');
    const junit = join(out, 'mutant.xml');
    const run = await runCli(
      [
        'check',
        '--adapter',
        'dist/src/check-server/mutants/delete-keeps-session.js',
        '--runs',
        '5',
        '--seed',
        '1',
        '--timeout',
        '3000',
        '--markdown',
        markdown,
        '--junit',
        junit,
        '--fail-on',
        'must',
      ],
      110_000,
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^FAIL {2}\[MUST\] +terminated-session-404 /m);
    expect(run.stdout).toContain('FAIL [MUST] terminated-session-404: ');
    expect(run.stdout).toContain('after which it MUST respond to requests containing that session ID with HTTP 404 Not Found.');
    expect(run.stderr).not.toContain('do not fail the check');
    expect(run.stdout).toMatch(
      /replay: npx mcp-resume-spec check --adapter dist\/src\/check-server\/mutants\/delete-keeps-session.js --timeout 3000 --path probe:delete-then-use/,
    );
    const md = readFileSync(markdown, 'utf8');
    expect(md).toContain('```mermaid');
    expect(md).toContain('sequenceDiagram');
    expect(md).toContain('const PATH = "probe:delete-then-use";');
    expect(md).toContain('runSuite(candidate, { seed: SEED, path: PATH, only: [ID] })');
    const failures = findAll(parseXml(readFileSync(junit, 'utf8')), 'failure');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.attributes.message).toMatch(/^\[MUST\] /);
  }, 120_000);

  test('a mutant breaking only a policy: exit 1 by default, 0 with --fail-on must, saying what it let pass', async () => {
    // Found without the coverage scenarios, which would only take longer.
    const args = [
      'check',
      '--adapter',
      'dist/src/check-server/mutants/legacy-session-at-mcp.js',
      '--runs',
      '5',
      '--seed',
      '1',
      '--timeout',
      '3000',
      '--no-coverage',
      '--json',
    ];
    const junit = join(mkdtempSync(join(tmpdir(), 'fail-on-')), 'must.xml');
    const [byDefault, must] = await Promise.all([runCli(args, 170_000), runCli([...args, '--fail-on', 'MUST', '--junit', junit], 170_000)]); // as reports print levels
    const failed = (run: typeof byDefault) =>
      (JSON.parse(run.stdout) as { properties: Array<{ id: string; status: string; level: string }> }).properties.filter((p) => p.status === 'fail');
    // the same findings each time: only policy-level properties fail
    for (const run of [byDefault, must]) {
      expect(
        failed(run).map((p) => p.id),
        run.stderr,
      ).toContain('no-cross-transport-resume');
      expect(new Set(failed(run).map((p) => p.level))).toEqual(new Set(['policy']));
    }
    expect(byDefault.code, byDefault.stderr).toBe(1);
    expect(must.code, must.stderr).toBe(0);
    expect(must.stderr).toMatch(/note: \d+ failure\(s\) below --fail-on must do not fail the check/);
    // The JUnit file says what the exit status says: no failure, the policy ones skipped with why.
    const xml = parseXml(readFileSync(junit, 'utf8'));
    expect(findAll(xml, 'failure')).toHaveLength(0);
    expect(findAll(xml, 'skipped').map((e) => e.attributes.message)).toContainEqual(
      expect.stringMatching(/^below --fail-on must: does not fail the check: \[POLICY\] /),
    );
  }, 180_000);

  test.each([
    [['check', '--url', 'http://127.0.0.1:1'], /could not check http:\/\/127\.0\.0\.1:1: .*neither transport/],
    [['check', '--url', 'ftp://127.0.0.1/'], /only http:\/\/ and https:\/\/ candidates/],
    [['check'], /give exactly one of --url URL and --adapter MODULE/],
    [['check', '--url', 'http://nohost.invalid/mcp'], /could not check http:\/\/nohost\.invalid: .*DNS lookup failed/],
    [['check', '--url', 'http://127.0.0.1:1', '--runs', 'many'], /--runs must be an integer/],
    [['check', '--url', 'http://127.0.0.1:1', '--runs', '-5'], /--runs must be an integer from 0 to \d+, got "-5"/],
    // Checked before anything runs: the reference would otherwise be checked in full first.
    [
      ['check', '--adapter', 'src/check-server/candidates/reference.ts', '--junit', 'test/cli/no-such-folder/report.xml'],
      /--junit: cannot write test\/cli\/no-such-folder\/report\.xml: the folder test\/cli\/no-such-folder does not exist/,
    ],
    [['check', '--url', 'http://127.0.0.1:1', '--only', 'nope'], /--only: unknown property "nope"/],
    [['check', '--url', 'http://127.0.0.1:1', '--fail-on', 'may'], /--fail-on must be one of must, should, policy, got "may"/],
    [['check', '--url', 'http://127.0.0.1:1', '--fail-on', 'DERIVED'], /--fail-on must be one of must, should, policy, got "DERIVED"/],
    [['check', '--url', 'http://127.0.0.1:1', '--fail-on'], /--fail-on/],
    [['check', '--adapter', 'test/report/fixtures/throws-on-import.ts'], /adapter .*throws-on-import\.ts: failed to load/],
    [['check', '--adapter', 'test/cli/no-such-module.ts'], /adapter .*no-such-module\.ts: /],
    // Its top-level code awaits what nothing will settle: the process would end with status 13 and no report.
    [['check', '--adapter', 'test/cli/fixtures/never-loads.mjs'], /adapter .*never-loads\.mjs: its loading never finished/],
  ])('cannot run %j: exit 2 with a one-line reason', async (args, reason) => {
    const run = await runCli([...(args as string[]), '--quiet']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(reason as RegExp);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  test('exit 2 still leaves the reports: JSON on stdout and JUnit with status error and the reason', async () => {
    const junit = join(out, 'unreachable.xml');
    const run = await runCli(['check', '--url', 'http://127.0.0.1:1/mcp', '--json', '--junit', junit, '--quiet']);
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout);
    const validate = new Ajv2020({ strict: true }).compile(reportSchema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report).toMatchObject({ tool: { version }, status: 'error', candidate: { name: '127.0.0.1:1', url: 'http://127.0.0.1:1' }, properties: [] });
    expect(report.error).toMatch(/connection refused: connect ECONNREFUSED/);
    const suite = findAll(parseXml(readFileSync(junit, 'utf8')), 'testsuite')[0]!;
    expect(suite.attributes).toMatchObject({ tests: '1', errors: '1', failures: '0' });
    expect(findAll(suite, 'error')[0]!.attributes.message).toBe(report.error);
  });
});
