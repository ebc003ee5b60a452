/** `mcp-resume-spec check-client` as a user runs it: adapters load like `check`'s, exit statuses 0/1/2. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadClientAdapter } from '../../src/check-client/load.js';
import { runClientCheck } from '../../src/check-client/run.js';
import { runCli } from '../cli/run-cli.js';
import { findAll, parseXml } from '../report/xml-check.js';
import { clientPropertyIds } from '../../properties/client/ids.js';
import { runBounded } from '../../scripts/run-bounded.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'check-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('check-client CLI', () => {
  it('exits 0 for the checking client loaded as an adapter module', async () => {
    const run = await runCli([
      'check-client',
      '--adapter',
      'src/check-client/adapters/checking.ts',
      '--timeout',
      '300',
      '--scenarios',
      'model:cut-undrained,session-expired',
    ]);
    // Progress on stderr (plain lines off a terminal), the report on stdout.
    expect(run.stderr).toMatch(/^checking the client .*checking\.ts\n/);
    expect(run.stderr).toMatch(/\nscenarios 2\/2 \(/);
    expect(run.stdout).not.toMatch(/scenarios 2\/2/);
    expect(run.stdout).toMatch(/PASS client-delivers-exactly-once/);
    expect(run.code).toBe(0);
  }, 60_000);

  it('exits 1 with the trace for a mutant, and writes the JSON, JUnit and Markdown reports', async () => {
    const out = join(dir, 'report.json');
    const junit = join(dir, 'report.xml');
    const markdown = join(dir, 'report.md');
    // A generous timeout: other test files load the machine, and a resume must come before it.
    const run = await runCli([
      'check-client',
      '--client',
      'no-dedup',
      '--timeout',
      '1500',
      '--path',
      'model:delivers-exactly-once@dedup=false+inclusive',
      '--out',
      out,
      '--junit',
      junit,
      '--markdown',
      markdown,
      '--quiet',
    ]);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/FAIL client-delivers-exactly-once \[POLICY\]/);
    // Why it is required: the level's meaning, the spec's words, and this project's reason for a policy.
    expect(run.stdout).toMatch(
      /why: POLICY: .*\n\s+"The server MAY use this header[^\n]*\n(\s+"[^\n]*\n)*\s+Why this project requires it: The spec makes redelivery possible/,
    );
    expect(run.stdout).toMatch(/notification seq 1 reached the application 2 times/);
    expect(run.stdout).toContain(
      'replay: npx mcp-resume-spec check-client --client no-dedup --timeout 1500 --path model:delivers-exactly-once@dedup=false+inclusive',
    );
    // JUnit: well-formed, one test case per client property, the failure with its level and replay line.
    const xml = parseXml(readFileSync(junit, 'utf8'));
    const cases = findAll(xml, 'testcase');
    expect(cases.map((c) => c.attributes.name)).toEqual([...clientPropertyIds]);
    const failures = findAll(xml, 'failure');
    expect(failures.map((f) => f.attributes.message)).toEqual([expect.stringMatching(/^\[POLICY\] call 1 \(emit "model-1"\): notification seq 1 reached/)]);
    expect(failures[0]!.text).toContain('--path model:delivers-exactly-once@dedup=false+inclusive');
    // Markdown: the summary, a sequence diagram marking the failure, a vitest reproduction through the library API.
    const md = readFileSync(markdown, 'utf8');
    expect(md).toMatch(/\| \*\*FAIL\*\* \| POLICY \| `client-delivers-exactly-once` \|/);
    expect(md).toMatch(/```mermaid\nsequenceDiagram\n {4}participant App[\s\S]*Note over App,Server: ✗ the property fails here[\s\S]*```/);
    expect(md).toContain("import { builtInClientFactory, runClientCheck } from 'mcp-resume-spec';");
    expect(md).toContain('const PATH = "model:delivers-exactly-once@dedup=false+inclusive";');
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      status: string;
      schemaVersion: number;
      tool: { name: string };
      properties: Array<{ id: string; status: string; basis: { quotes: unknown[] } }>;
    };
    // What CI reads first: the status the exit code says, the schema, the tool.
    expect(report).toMatchObject({ status: 'fail', schemaVersion: 1, tool: { name: 'mcp-resume-spec' } });
    const failed = report.properties.find((p) => p.id === 'client-delivers-exactly-once')!;
    expect(failed.status).toBe('fail');
    expect(failed.basis.quotes.length).toBeGreaterThan(0);
  }, 60_000);

  it('prints a replay line that runs as printed in a shell, the adapter path quoted', async () => {
    // A folder and a file name a shell would split or end a quote at.
    const folder = join(dir, "it's a dir");
    mkdirSync(folder);
    const adapter = join(folder, 'no dedup (mutant).mjs');
    const builtIn = pathToFileURL(join(root, 'dist/src/check-client/built-in.js')).href;
    writeFileSync(adapter, `import { builtInClientFactory } from ${JSON.stringify(builtIn)};\nexport default () => builtInClientFactory('no-dedup');\n`);
    const path = 'model:delivers-exactly-once@dedup=false+inclusive';
    const run = await runCli(['check-client', '--adapter', adapter, '--timeout', '1500', '--path', path, '--quiet']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const replay = /^\s*replay: (.*)$/m.exec(run.stdout)?.[1];
    expect(replay).toBeDefined();
    // `npx mcp-resume-spec` stands for this checkout's CLI: the rest of the line is the shell's to read.
    const script = `npx() { shift; exec "${process.execPath}" bin/mcp-resume-spec.js "$@"; }\n${replay!}\n`;
    const again = await runBounded('sh', ['-c', script], { cwd: root, timeoutMs: 60_000 });
    expect(again.code, again.stdout + again.stderr).toBe(1);
    expect(again.stdout).toContain(`adapter ${adapter})`);
    expect(again.stdout).toMatch(/FAIL client-delivers-exactly-once \[POLICY\]/);
  }, 120_000);

  it('exits 2 on a replay it cannot place, before running anything', async () => {
    const noSeed = await runCli(['check-client', '--client', 'checking-client', '--path', '3:1']);
    expect(noSeed.code).toBe(2);
    expect(noSeed.stderr).toMatch(/needs the --seed it was printed with/);
    const unknown = await runCli(['check-client', '--client', 'checking-client', '--path', 'fixed:nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no scenario fixed:nope; scenarios: fixed:legacy-cut/);
  }, 60_000);

  it('exits 2 with one line for a module whose default export is not a factory maker', async () => {
    const bad = join(dir, 'bad.mjs');
    writeFileSync(bad, 'export default 42;\n');
    const run = await runCli(['check-client', '--adapter', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/default export must be a function/);
  }, 60_000);

  it('loads adapters as check does, and refuses a default export that yields no factory', async () => {
    const good = join(dir, 'good.mjs');
    writeFileSync(good, 'export default async () => async () => { throw new Error("unused"); };\n');
    expect(typeof (await loadClientAdapter(good)).factory).toBe('function');
    const notFactory = join(dir, 'not-factory.mjs');
    writeFileSync(notFactory, 'export default () => ({});\n');
    await expect(loadClientAdapter(notFactory)).rejects.toThrow(/must return a client factory function; got object/);
    await expect(loadClientAdapter(join(dir, 'missing.mjs'))).rejects.toThrow(/no such file/);
  });

  it('gives up on a factory that cannot connect under any transport, saying what happened under each', async () => {
    // Every scenario failing to run (exit status 2 with the scenarios kept): report-status.test.ts.
    const check = runClientCheck(
      async () => {
        throw new Error('cannot connect');
      },
      { name: 'broken', timeoutMs: 100, scenarios: ['no-priming-cut', 'legacy-cut'] },
    );
    await expect(check).rejects.toThrow(
      /streamable HTTP: the client could not connect: cannot connect; legacy HTTP\+SSE: the client could not connect: cannot connect/,
    );
  });
});
