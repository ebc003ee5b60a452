/**
 * `mcp-resume-spec check-client`: checks an MCP client (an adapter module, or a built-in one)
 * against the reference server as an adversary, through a fault-injecting loopback proxy, and
 * reports which client properties it breaks. Exit status as `check`: 0 nothing violated at or above
 * `--fail-on`, 1 a property violated at or above it, 2 the check could not run.
 */
import { writeFileSync } from 'node:fs';
import { failOnLevels, type FailOn } from '../../properties/definition.js';
import { clientPropertyIds, type ClientPropertyId } from '../../properties/client/ids.js';
import { builtInClientFactory } from '../client-check/built-in.js';
import type { ClientFactory } from '../client-check/contract.js';
import { renderClientJunit } from '../client-check/junit.js';
import { loadClientAdapter } from '../client-check/load.js';
import { renderClientMarkdown } from '../client-check/markdown.js';
import { clientExitStatus, renderClientJson, renderClientText } from '../client-check/report.js';
import { deterministicScenarios, runClientCheck } from '../client-check/run.js';
import { clientScenarios } from '../client-check/scenarios.js';
import { integerFlag, parseFlags } from './args.js';
import { UsageError, type Command } from './command.js';
import { checkWritable } from './output-paths.js';
import { progressRenderer } from './progress.js';

const usage = `usage: mcp-resume-spec check-client (--adapter MODULE | --client NAME) [--timeout MS] [--only IDS]
                                    [--runs N] [--seed S] [--path P] [--scenarios NAMES] [--no-model]
                                    [--json] [--out FILE] [--junit FILE] [--markdown FILE] [--fail-on must|should|policy]

Checks an MCP client: per scenario a fresh reference server, a loopback proxy that records the wire
and injects the scenario's faults (cuts, an undrained cut, delays, chosen answers, withheld priming,
an expired session), and a fresh client; then judges what the client's application saw and what went
over the wire. Scenarios: the model's shortest paths to each client-relevant state, a fixed catalog,
then fast-check interleavings of calls and faults (a failure shrunk, replayable with --seed/--path).
  --adapter MODULE   a .ts, .mts, .cts, .js, .mjs or .cjs module whose default export returns (or resolves to)
                     a factory (opts: {url, transport, timeoutMs}) => Promise<{callTool, onNotification, close}>
                     (docs/clients.md; the official SDK's: src/client-adapters/sdk.ts)
  --client NAME      a built-in client: checking-client (this project's, cursor on drain), sdk, or a client
                     mutant (src/client-mutants/)
  --runs N           fast-check interleavings after the fixed and model scenarios (default 20)
  --seed S           fast-check seed (default random); with --path, replays one counterexample
  --path P           replay one scenario: fixed:NAME, model:NAME, or a fast-check path (with --seed)
  --timeout MS       the request timeout the client is asked to use (default 1000); calls are awaited 3x + 500 ms
  --only IDS         comma-separated client properties: ${clientPropertyIds.join(', ')}
  --scenarios NAMES  comma-separated fixed or model scenarios, and no interleavings (default all): the fixed
                     ${clientScenarios(1000).map((s) => s.name).join(', ')}, and the model's (model:…, docs/clients.md)
  --no-model         leave out the model's scenarios
  --json             print the JSON report on stdout instead of the text report
  --out FILE         also write the JSON report to FILE
  --junit FILE       also write a JUnit XML report (one test case per client property)
  --markdown FILE    also write a Markdown report (Mermaid sequence diagrams, vitest reproductions)
  --fail-on LEVEL    the weakest level whose failure fails the check (default policy): must, should, policy
  --quiet            no progress on stderr (by default a live line on a terminal, a line every few seconds otherwise)
Exit status: 0 no property violated at or above --fail-on, 1 a property violated at or above it,
2 the check could not run.`;

function list<T extends string>(flag: string, text: string | undefined, known: readonly T[]): T[] | undefined {
  if (text === undefined) return undefined;
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${flag} needs at least one name`);
  for (const item of items) {
    if (!(known as readonly string[]).includes(item)) throw new UsageError(`--${flag}: unknown "${item}"; known: ${known.join(', ')}`);
  }
  return items as T[];
}

export const checkClientCommand: Command = {
  name: 'check-client',
  summary: 'check an MCP client against the reference server with injected faults',
  usage,
  async run(argv) {
    const flags = parseFlags(argv, {
      adapter: { type: 'string' },
      client: { type: 'string' },
      timeout: { type: 'string' },
      only: { type: 'string' },
      scenarios: { type: 'string' },
      runs: { type: 'string' },
      seed: { type: 'string' },
      path: { type: 'string' },
      'no-model': { type: 'boolean' },
      json: { type: 'boolean' },
      out: { type: 'string' },
      junit: { type: 'string' },
      markdown: { type: 'string' },
      'fail-on': { type: 'string' },
      quiet: { type: 'boolean' },
    });
    if ((flags.adapter === undefined) === (flags.client === undefined)) throw new UsageError('give exactly one of --adapter MODULE or --client NAME');
    const failOnText = flags['fail-on'] ?? 'policy';
    if (!(failOnLevels as readonly string[]).includes(failOnText)) throw new UsageError(`--fail-on must be one of ${failOnLevels.join(', ')}, got ${JSON.stringify(failOnText)}`);
    const timeoutMs = integerFlag('timeout', flags.timeout, 1000, 60_000);
    if (timeoutMs < 50) throw new UsageError('--timeout must be at least 50 ms');
    const only = list<ClientPropertyId>('only', flags.only, clientPropertyIds);
    const scenarioNames = deterministicScenarios(timeoutMs, !flags['no-model']).map((s) => s.scenario.name);
    const scenarios = list('scenarios', flags.scenarios, scenarioNames);
    const runs = integerFlag('runs', flags.runs, 20, 10_000);
    let seed: number | undefined;
    if (flags.seed !== undefined) {
      if (!/^-?\d+$/.test(flags.seed)) throw new UsageError(`--seed must be an integer, got ${JSON.stringify(flags.seed)}`);
      seed = Number(flags.seed);
    }
    const path = flags.path;
    if (path !== undefined && !/^(fixed|model):/.test(path)) {
      if (seed === undefined) throw new UsageError('--path with a fast-check path needs the --seed it was printed with');
      if (!/^\d+(:\d+)*$/.test(path)) throw new UsageError(`--path must be fixed:NAME, model:NAME or a fast-check path (digits separated by ':'), got ${JSON.stringify(path)}`);
    }

    let factory: ClientFactory;
    let name: string;
    if (flags.adapter !== undefined) {
      const loaded = await loadClientAdapter(flags.adapter);
      factory = loaded.factory;
      name = loaded.path;
    } else {
      factory = await builtInClientFactory(flags.client!).catch((error: Error) => {
        throw new UsageError(`--client: ${error.message}`);
      });
      name = flags.client!;
    }
    for (const flag of ['out', 'junit', 'markdown'] as const) {
      const path = flags[flag];
      if (path !== undefined) checkWritable(flag, path);
    }
    const progress = progressRenderer({ write: (text) => process.stderr.write(text), tty: process.stderr.isTTY === true }, flags.quiet === true);
    progress.start(`checking the client ${name}`);
    let report;
    try {
      report = await runClientCheck(factory, {
        name,
        onProgress: progress.update,
        timeoutMs,
        runs,
        model: !flags['no-model'],
        ...(seed !== undefined ? { seed } : {}),
        ...(path !== undefined ? { path } : {}),
        ...(only ? { only } : {}),
        ...(scenarios ? { scenarios } : {}),
      });
    } catch (error) {
      // A replay path that names nothing is the user's to fix.
      if (error instanceof RangeError) throw new UsageError(error.message);
      throw error;
    } finally {
      progress.done();
    }
    const invocation = `npx mcp-resume-spec check-client ${flags.adapter !== undefined ? `--adapter ${flags.adapter}` : `--client ${flags.client}`}${flags.timeout !== undefined ? ` --timeout ${timeoutMs}` : ''}`;
    const json = renderClientJson(report);
    if (flags.out !== undefined) writeFileSync(flags.out, json);
    if (flags.junit !== undefined) writeFileSync(flags.junit, renderClientJunit(report, invocation));
    if (flags.markdown !== undefined) {
      const source = flags.adapter !== undefined ? { adapter: flags.adapter, cwd: process.cwd() } : { client: flags.client! };
      writeFileSync(flags.markdown, renderClientMarkdown(report, invocation, source));
    }
    console.log(flags.json ? json : renderClientText(report, invocation));
    const status = clientExitStatus(report, failOnText as FailOn);
    if (status === 2) console.error('mcp-resume-spec check-client: no scenario could run (see the report)');
    return status;
  },
};
