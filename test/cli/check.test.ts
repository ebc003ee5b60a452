/**
 * `mcp-resume-spec check` end to end, in child processes: exit statuses, the reports it writes,
 * and a `.ts` adapter.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { reportSchema } from '../../src/report/report-schema.js';
import { findAll, parseXml } from '../report/xml-check.js';
import { runCli } from './run-cli.js';

const out = mkdtempSync(join(tmpdir(), 'mcp-resume-spec-check-'));
let server: ReferenceServer;
beforeAll(async () => {
  server = await createReferenceServer();
});
afterAll(async () => {
  await server.close();
});

describe.concurrent('check', () => {
  test('the reference adapter (.ts): exit 0, every property passes, JSON valid against the schema, JUnit parses back', async () => {
    const junit = join(out, 'reference.xml');
    const run = await runCli(['check', '--adapter', 'src/candidates/reference.ts', '--runs', '10', '--seed', '7', '--timeout', '3000', '--json', '--junit', junit]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    const validate = new Ajv2020({ strict: true }).compile(reportSchema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.candidate.name).toBe('reference');
    expect(report.properties.map((p: { status: string }) => p.status)).toEqual(Array(12).fill('pass'));
    const suite = findAll(parseXml(readFileSync(junit, 'utf8')), 'testsuite')[0]!;
    expect(suite.attributes.tests).toBe('12');
    expect(suite.attributes.failures).toBe('0');
    expect(findAll(suite, 'testcase')).toHaveLength(12);
  });

  test('a running server by --url: the text summary', async () => {
    const run = await runCli(['check', '--url', server.url, '--runs', '5', '--seed', '3', '--timeout', '3000']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^candidate: 127\.0\.0\.1:\d+ at http:\/\/127\.0\.0\.1:\d+/);
    expect(run.stdout).toContain('summary: 12 pass, 0 fail, 0 skip (12 properties)');
  });

  test('a mutant: exit 1, the failure with its trace, a Markdown report with a sequence diagram and a vitest reproduction', async () => {
    const markdown = join(out, 'mutant.md');
    const junit = join(out, 'mutant.xml');
    const run = await runCli(['check', '--adapter', 'src/mutants/delete-keeps-session.ts', '--runs', '5', '--seed', '1', '--timeout', '3000', '--markdown', markdown, '--junit', junit]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/FAIL {2}terminated-session-404/);
    expect(run.stdout).toMatch(/replay: mcp-resume-spec check --adapter src\/mutants\/delete-keeps-session.ts --path probe:delete-then-use/);
    const md = readFileSync(markdown, 'utf8');
    expect(md).toContain('```mermaid');
    expect(md).toContain('sequenceDiagram');
    expect(md).toContain('const PATH = "probe:delete-then-use";');
    expect(md).toContain('runSuite(candidate, { seed: SEED, path: PATH, only: [ID] })');
    const failures = findAll(parseXml(readFileSync(junit, 'utf8')), 'failure');
    expect(failures).toHaveLength(1);
  });

  test.each([
    [['check', '--url', 'http://127.0.0.1:1'], /could not check http:\/\/127\.0\.0\.1:1: .*neither transport/],
    [['check', '--url', 'ftp://127.0.0.1/'], /only http:\/\/ candidates/],
    [['check'], /give exactly one of --url URL and --adapter MODULE/],
    [['check', '--url', 'http://127.0.0.1:1', '--runs', 'many'], /--runs must be an integer/],
    [['check', '--url', 'http://127.0.0.1:1', '--only', 'nope'], /--only: unknown property "nope"/],
    [['check', '--adapter', 'test/report/fixtures/throws-on-import.ts'], /adapter .*throws-on-import\.ts: failed to load/],
    [['check', '--adapter', 'test/cli/no-such-module.ts'], /adapter .*no-such-module\.ts: /],
  ])('cannot run %j: exit 2 with a one-line reason', async (args, reason) => {
    const run = await runCli(args as string[]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(reason as RegExp);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
