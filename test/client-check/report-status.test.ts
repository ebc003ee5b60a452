/**
 * `check-client` for CI: every run that exits 2 still leaves its reports saying why (JSON with
 * `status: "error"`, JUnit with an `<error>`, a short Markdown), as `check` does; the JSON names the
 * tool, its schema version and the status the exit code says; `--fail-on` in any case, with a note
 * for failures it lets pass; scenario names in the form reports print them; JUnit names stable
 * across machines. The CLI runs compiled (dist/, built by the global setup); each run is short.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientPropertyIds } from '../../properties/client/ids.js';
import { parseFailOn } from '../../src/cli/args.js';
import { boundedLoad } from '../../src/loader/bounded-load.js';
import { UsageError } from '../../src/cli/command.js';
import { renderClientJunit } from '../../src/check-client/junit.js';
import { renderClientMarkdown } from '../../src/check-client/markdown.js';
import { clientExitStatus, clientReportSchemaVersion, renderClientJson, renderClientText, type ClientReport } from '../../src/check-client/report.js';
import { toolVersion } from '../../src/version.js';
import { runCli } from '../cli/run-cli.js';
import { findAll, parseXml } from '../report/xml-check.js';

const dir = mkdtempSync(join(tmpdir(), 'check-client-status-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A module at `dir/name` with `source`. */
function module(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

/** The module at `dir/name`: this project's checking client, with `top` run at import and `before` run before each connection. */
function checkingAdapter(name: string, top: string[], before: string[] = []): string {
  const checking = join(process.cwd(), 'dist/src/check-client/adapters/checking-client.js').replace(/\\/g, '/');
  return module(
    name,
    [
      `import { checkingClientFactory } from ${JSON.stringify(checking)};`,
      ...top,
      'export default () => {',
      '  const inner = checkingClientFactory();',
      '  return async (options) => {',
      ...before.map((line) => `    ${line}`),
      '    return inner(options);',
      '  };',
      '};',
      '',
    ].join('\n'),
  );
}

interface ErrorJson {
  tool: { name: string; version: string };
  schemaVersion: number;
  status: string;
  error?: string;
  client: { name: string };
  scenarios: Array<{ name: string; error?: string }>;
  properties: unknown[];
}

/** Runs check-client with all three reports into `dir/<tag>.*`, and reads them back. */
async function withReports(tag: string, args: string[]) {
  const files = { out: join(dir, `${tag}.json`), junit: join(dir, `${tag}.xml`), markdown: join(dir, `${tag}.md`) };
  const run = await runCli(['check-client', ...args, '--out', files.out, '--junit', files.junit, '--markdown', files.markdown, '--quiet']);
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  };
  const json = read(files.out);
  return { run, json: json === undefined ? undefined : (JSON.parse(json) as ErrorJson), junit: read(files.junit), markdown: read(files.markdown) };
}

/** The JUnit file's tally and its `<error>` test case, as a CI dashboard reads them. */
function junitError(xml: string | undefined) {
  expect(xml).toBeDefined();
  const root = parseXml(xml!);
  const suite = findAll(root, 'testsuite')[0]!;
  const errors = findAll(root, 'error');
  return {
    errors: suite.attributes.errors,
    count: errors.length,
    message: errors[0]?.attributes.message,
    classnames: findAll(root, 'testcase').map((c) => c.attributes.classname),
  };
}

describe('check-client exit status 2 leaves its reports', () => {
  it('a module that cannot be loaded (missing, throws or hangs on import, no factory maker): JSON, JUnit and Markdown say why', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['missing', join(dir, 'does-not-exist.mjs'), /does-not-exist\.mjs: no such file/],
      ['throws', module('throws.mjs', 'throw new Error("boom at import");\n'), /failed to load: boom at import/],
      // Nothing left to wait for: without a bound the process would just end (status 13), silent.
      ['hangs', module('hangs.mjs', 'await new Promise(() => {});\nexport default () => () => {};\n'), /hangs\.mjs: .*never finished/],
      ['not-a-maker', module('forty-two.mjs', 'export default 42;\n'), /default export must be a function/],
    ];
    const runs = await Promise.all(cases.map(([tag, path]) => withReports(tag, ['--adapter', path])));
    for (const [i, [tag, , reason]] of cases.entries()) {
      const { run, json, junit, markdown } = runs[i]!;
      expect(run.code, tag).toBe(2);
      expect(run.stderr.trim().split('\n'), tag).toEqual([expect.stringMatching(reason)]);
      expect(json, tag).toMatchObject({
        tool: { name: 'mcp-resume-spec', version: toolVersion() },
        schemaVersion: clientReportSchemaVersion,
        status: 'error',
        properties: [],
      });
      expect(json!.error, tag).toMatch(reason);
      const error = junitError(junit);
      expect(error, tag).toMatchObject({ errors: '1', count: 1 });
      expect(error.message, tag).toMatch(reason);
      expect(markdown, tag).toMatch(/^# mcp-resume-spec check-client: [\s\S]*could not be done: /);
    }
    // The provisional name is the module's file name, as check's: no machine's path in JUnit names.
    expect(junitError(runs[0]!.junit).classnames).toEqual(['mcp-resume-spec.client.does-not-exist']);
  }, 60_000);

  it('a usage error found after the report paths (an unknown built-in client) and --json on stdout', async () => {
    const { run, json, junit } = await withReports('unknown-client', ['--client', 'nope', '--json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--client: unknown client "nope"/);
    const stdout = JSON.parse(run.stdout) as ErrorJson;
    expect(stdout).toEqual(json);
    expect(stdout).toMatchObject({ status: 'error', error: expect.stringMatching(/unknown client "nope"/), client: { name: 'nope' } });
    expect(junitError(junit).count).toBe(1);
  }, 60_000);

  it('a client that completes no call at all: the reason it was given up, in every report', async () => {
    const adapter = module('never-connects.mjs', 'export default () => async () => { throw new Error("cannot connect"); };\n');
    const { run, json, junit, markdown } = await withReports('never-connects', ['--adapter', adapter, '--timeout', '50']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/cannot connect/)]);
    expect(json).toMatchObject({ status: 'error', error: expect.stringMatching(/could not connect: cannot connect/), client: { name: 'never-connects' } });
    const error = junitError(junit);
    expect(error).toMatchObject({
      errors: '1',
      count: 1,
      message: expect.stringMatching(/cannot connect/),
      classnames: ['mcp-resume-spec.client.never-connects'],
    });
    expect(markdown).toMatch(/could not be done: .*cannot connect/);
  }, 60_000);

  it('no scenario could run (a client that connects once per transport, never again): status error, the scenarios kept, an <error> beside the skipped properties', async () => {
    const adapter = checkingAdapter(
      'connects-once.mjs',
      ['const seen = new Set();'],
      ['if (seen.has(options.transport)) throw new Error("cannot connect again");', 'seen.add(options.transport);'],
    );
    // Both forms of a fixed scenario's name: as reports print it, and bare.
    // A baseline of this run would say the client breaks nothing: none is written.
    const baseline = join(dir, 'no-scenario-baseline.json');
    const { run, json, junit, markdown } = await withReports('no-scenario', [
      '--adapter',
      adapter,
      '--timeout',
      '300',
      '--scenarios',
      'fixed:no-priming-cut,resume-refused',
      '--write-baseline',
      baseline,
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/no scenario could run: the client could not connect: cannot connect again/);
    expect(run.stderr).toContain(`note: no baseline written to ${baseline}: the check could not be done`);
    expect(existsSync(baseline)).toBe(false);
    expect(json).toMatchObject({
      status: 'error',
      error: 'no scenario could run: the client could not connect: cannot connect again',
      client: { name: 'connects-once' },
    });
    expect(json!.scenarios.map((s) => s.name)).toEqual(['resume-refused', 'no-priming-cut']);
    expect(json!.properties).toHaveLength(clientPropertyIds.length);
    const error = junitError(junit);
    expect(error).toMatchObject({ errors: '1', count: 1, message: expect.stringMatching(/^no scenario could run/) });
    expect(new Set(error.classnames)).toEqual(new Set(['mcp-resume-spec.client.connects-once']));
    expect(markdown).toMatch(/could not be done: no scenario could run/);
  }, 60_000);
});

describe('check-client stdout', () => {
  it('carries the report alone: what the adapter logs, at import and while checked, goes to stderr', async () => {
    const adapter = checkingAdapter('chatty.mjs', ['console.log("chatty adapter loaded");'], ['console.info("chatty client connecting");']);
    const run = await runCli(['check-client', '--adapter', adapter, '--scenarios', 'legacy-cut', '--no-model', '--json', '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as ErrorJson).status).toBe('pass');
    expect(run.stderr).toContain('chatty adapter loaded');
    expect(run.stderr).toContain('chatty client connecting');
  }, 60_000);
});

describe('check-client ends', () => {
  it('even when the adapter leaves something running that would keep the process up', async () => {
    const adapter = checkingAdapter('leaky.mjs', ['setInterval(() => {}, 1000);']);
    const run = await runCli(['check-client', '--adapter', adapter, '--scenarios', 'legacy-cut', '--no-model', '--json', '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as ErrorJson).status).toBe('pass');
    expect(run.stderr).toMatch(
      /^note: an open socket or timer \(one the adapter started and did not stop, say\) still kept the process up 2 s after the command ended \((.*, )?1 Timeout(, .*)?\); exiting\n$/,
    );
  }, 60_000);
});

describe('check-client flags', () => {
  it('--fail-on in any case; failures it lets pass are noted on stderr; the JSON status is what the exit status says', async () => {
    const { run, json, junit } = await withReports('fail-on', [
      '--client',
      'no-dedup',
      '--timeout',
      '1500',
      '--path',
      'model:delivers-exactly-once@dedup=false+inclusive',
      '--fail-on',
      'MUST',
    ]);
    expect(run.code, run.stdout).toBe(0);
    // A JUnit reader reaches the same verdict: the POLICY failure is skipped, with why.
    const xml = parseXml(junit!);
    expect(xml.attributes).toMatchObject({ failures: '0' });
    expect(findAll(xml, 'failure')).toHaveLength(0);
    expect(findAll(xml, 'skipped').map((e) => e.attributes.message)).toContainEqual(
      expect.stringMatching(/^below --fail-on must: does not fail the check: \[POLICY\] /),
    );
    expect(run.stdout).toMatch(/FAIL client-delivers-exactly-once \[POLICY\]/);
    expect(run.stderr).toBe('note: 1 failure(s) below --fail-on must do not fail the check\n');
    expect(json).toMatchObject({ status: 'pass', schemaVersion: clientReportSchemaVersion, tool: { name: 'mcp-resume-spec' } });
    expect(json).not.toHaveProperty('error');
  }, 60_000);

  it('a replay path or a timeout that is wrong says what to write', async () => {
    const [bare, bareModel, abc, zero] = await Promise.all([
      runCli(['check-client', '--client', 'checking-client', '--path', 'session-expired']),
      runCli(['check-client', '--client', 'checking-client', '--path', 'cut-undrained']),
      runCli(['check-client', '--client', 'checking-client', '--timeout', 'abc']),
      runCli(['check-client', '--client', 'checking-client', '--timeout', '0']),
    ]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/--path session-expired: write fixed:session-expired/);
    expect(bareModel.stderr).toMatch(/--path cut-undrained: write model:cut-undrained/);
    for (const run of [abc, zero]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--timeout must be an integer from 50 to 60000/);
    }
  }, 60_000);

  it('a module load that keeps waiting with the event loop alive is given up at its bound', async () => {
    const listeners = process.listenerCount('beforeExit');
    await expect(boundedLoad(new Promise(() => {}), 'adapter x.mjs', 50)).rejects.toThrow('adapter x.mjs: its loading did not finish within 50 ms');
    await expect(boundedLoad(Promise.resolve(7), 'adapter x.mjs', 50)).resolves.toBe(7);
    // Its 'beforeExit' listener is gone once it settles.
    expect(process.listenerCount('beforeExit')).toBe(listeners);
  });

  it('parseFailOn (shared by check and check-client): any case, a usage error naming the levels', () => {
    expect(parseFailOn(undefined)).toBe('policy');
    expect(parseFailOn('MUST')).toBe('must');
    expect(parseFailOn('Should')).toBe('should');
    expect(() => parseFailOn('derived')).toThrow(UsageError);
    expect(() => parseFailOn('may')).toThrow('--fail-on must be one of must, should, policy, got "may"');
  });
});

describe('client reports rendered from a report whose every scenario failed to run', () => {
  const report: ClientReport = {
    client: { name: 'broken' },
    timeoutMs: 100,
    scenarios: ['no-priming-cut', 'legacy-cut'].map((name) => ({
      name,
      summary: name,
      source: 'fixed' as const,
      path: `fixed:${name}`,
      seed: -1,
      calls: [1],
      transport: 'streamable' as const,
      policy: 'reference',
      faults: [],
      broke: [],
      error: 'the client could not connect: refused',
    })),
    properties: clientPropertyIds.map((id) => ({
      id,
      status: 'skip' as const,
      runs: 0,
      level: 'policy' as const,
      statement: id,
      reason: 'no scenario that ran exercised it',
    })),
  };

  it('JUnit shows an error, not six skips alone', () => {
    const xml = parseXml(renderClientJunit(report, 'npx mcp-resume-spec check-client --client broken'));
    const suite = findAll(xml, 'testsuite')[0]!;
    expect(suite.attributes).toMatchObject({ errors: '1', tests: String(clientPropertyIds.length + 1), skipped: String(clientPropertyIds.length) });
    expect(findAll(xml, 'error').map((e) => e.attributes.message)).toEqual(['no scenario could run: the client could not connect: refused']);
  });

  it('a replayed fast-check run is counted in the scenarios line (it said 0 fixed, 0 from the model, and nothing more)', () => {
    const replayed: ClientReport = { ...report, scenarios: [{ ...report.scenarios[0]!, name: 'fc:1:2:0', source: 'fast-check', path: '2:0', seed: 1 }] };
    expect(renderClientText(replayed)).toContain('  scenarios: 0 fixed, 0 from the model, 1 fast-check run (replayed)\n');
  });

  it('exit status 2; the text report says why each scenario could not run', () => {
    expect(clientExitStatus(report)).toBe(2);
    expect(clientExitStatus(report, 'must')).toBe(2);
    expect(renderClientText(report)).toMatch(/scenario no-priming-cut \[streamable, reference\]: could not run: the client could not connect: refused/);
  });

  it('JSON says status error and why; Markdown says the check could not be done', () => {
    const json = JSON.parse(renderClientJson(report)) as ErrorJson;
    expect(json).toMatchObject({
      status: 'error',
      error: 'no scenario could run: the client could not connect: refused',
      schemaVersion: 1,
      client: { name: 'broken' },
    });
    expect(json.scenarios).toHaveLength(2);
    expect(renderClientMarkdown(report, 'npx mcp-resume-spec check-client --client broken', { client: 'broken' })).toMatch(
      /The check could not be done: no scenario could run: the client could not connect: refused/,
    );
  });
});

describe('what the probe noted about the client, in every report', () => {
  const report: ClientReport = {
    client: { name: 'streamable-only' },
    timeoutMs: 100,
    scenarios: [],
    properties: clientPropertyIds.map((id) => ({ id, status: 'pass' as const, runs: 1, level: 'policy' as const, statement: id, reason: 'held' })),
    abilities: {
      transports: ['streamable'],
      notes: ['legacy HTTP+SSE: not served by this client (this client speaks streamable HTTP only): its scenarios were not run'],
    },
  };

  it('text, JUnit (suite output) and Markdown (a Notes section) show the notes', () => {
    const note = 'legacy HTTP+SSE: not served by this client (this client speaks streamable HTTP only): its scenarios were not run';
    expect(renderClientText(report)).toContain(`  note: ${note}\n`);
    const out = findAll(parseXml(renderClientJunit(report, 'npx mcp-resume-spec check-client --client x')), 'system-out');
    expect(out.map((o) => o.text)).toEqual([`note: ${note}`]);
    expect(renderClientMarkdown(report, 'npx mcp-resume-spec check-client --client x', { client: 'x' })).toContain(`\n## Notes\n\n- ${note}\n`);
  });
});
