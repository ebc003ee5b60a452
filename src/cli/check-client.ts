/**
 * `mcp-resume-spec check-client`: checks an MCP client (an adapter module, or a built-in one)
 * against the reference server as an adversary, through a fault-injecting loopback proxy, and
 * reports which client properties it breaks. Exit status as `check`: 0 nothing violated at or above
 * `--fail-on` (failures a `--baseline` lists aside), 1 a property violated at or above it, 2 the
 * check could not run.
 */
import { writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { countsAt, type FailOn } from '../../properties/definition.js';
import { clientPropertyIds, type ClientPropertyId } from '../../properties/client/ids.js';
import { builtInClientFactory } from '../check-client/built-in.js';
import type { ClientFactory } from '../check-client/adapters/contract.js';
import { renderClientJunit, renderClientJunitError } from '../check-client/junit.js';
import { loadClientAdapter } from '../check-client/load.js';
import { renderClientMarkdown, renderClientMarkdownError } from '../check-client/markdown.js';
import { applyBaseline, stillListed } from '../report/baseline.js';
import { shellQuote } from '../report/common.js';
import { clientCheckError, clientExitStatus, renderClientJson, renderClientJsonError, renderClientText, type ClientReport } from '../check-client/report.js';
import { deterministicScenarios, runClientCheck } from '../check-client/run.js';
import { clientScenarios } from '../check-client/scenarios.js';
import { integerFlag, parseFailOn, parseFlags, type Flags } from './args.js';
import { endNotes, readClientBaseline, writeBaseline } from './baseline.js';
import { UsageError, type Command } from './command.js';
import { boundedLoad, loadBoundMs } from '../loader/bounded-load.js';
import { consoleToStderr } from './console-to-stderr.js';
import { checkWritable } from './output-paths.js';
import { progressRenderer } from './progress.js';

const usage = `usage: mcp-resume-spec check-client (--adapter MODULE | --client NAME) [--timeout MS] [--only IDS]
                                    [--runs N] [--seed S] [--path P] [--scenarios NAMES] [--no-model] [--json]
                                    [--out FILE] [--junit FILE] [--markdown FILE] [--fail-on must|should|policy]
                                    [--baseline FILE] [--write-baseline FILE] [--quiet]

Checks an MCP client: per scenario a fresh reference server, a loopback proxy that records the wire
and injects the scenario's faults (cuts, an undrained cut, delays, chosen answers, withheld priming,
an expired session), and a fresh client; then judges what the client's application saw and what went
over the wire. Scenarios: the model's shortest paths to each client-relevant state, a fixed catalog,
then fast-check interleavings of calls and faults (a failure shrunk, replayable with --seed/--path).
  --adapter MODULE   a .ts, .mts, .cts, .js, .mjs or .cjs module whose default export returns (or resolves to)
                     a factory (opts: {url, transport, timeoutMs}) => Promise<{callTool, onNotification, close}>
                     (docs/clients.md; the official SDK's: src/check-client/adapters/sdk.ts)
  --client NAME      a built-in client: checking-client (this project's, cursor on drain), sdk, or a client
                     mutant (src/check-client/mutants/)
  --runs N           fast-check interleavings after the fixed and model scenarios (default 20)
  --seed S           fast-check seed (default random); with --path, replays one counterexample
  --path P           replay one scenario, as the report prints it: fixed:NAME, model:NAME, or a fast-check path
                     (with --seed)
  --timeout MS       the request timeout the client is asked to use, from 50 to 60000 (default 1000); calls are
                     awaited 3x + 500 ms
  --only IDS         comma-separated client properties: ${clientPropertyIds.join(', ')}
  --scenarios NAMES  comma-separated fixed or model scenarios, and no interleavings (default all): the fixed
                     ${clientScenarios(1000)
                       .map((s) => s.name)
                       .join(', ')} (as reports print them,
                     fixed:NAME, or the bare NAME), and the model's (model:NAME, docs/clients.md)
  --no-model         leave out the model's scenarios
  --json             print the JSON report on stdout instead of the text report
  --out FILE         also write the JSON report to FILE
  --junit FILE       also write a JUnit XML report (one test case per client property)
  --markdown FILE    also write a Markdown report (Mermaid sequence diagrams, vitest reproductions)
  --fail-on LEVEL    the weakest level whose failure fails the check (default policy), in any case: must, should,
                     policy; failures below it are reported, and noted on stderr
  --baseline FILE    known failures (a file --write-baseline wrote): listed failures do not fail the check,
                     and a listed failure that now passes is reported FIXED
  --write-baseline FILE   write this check's failures as a baseline: {"baselineVersion": 1, "kind": "client",
                     "failures": [{"id", "level"}]} (check's baselines are refused, and the reverse; with
                     --baseline, the listed properties this run did not judge are kept)
  --quiet            no progress on stderr (by default a live line on a terminal, a line every few seconds otherwise)
Report paths are checked before the run. The JSON report leads with tool, schemaVersion and status (pass, fail
or error: what the exit status says). Exit status: 0 no property violated at or above --fail-on (baselined
failures aside), 1 a property violated at or above it, 2 the check could not run (a flag, a baseline file it
cannot use, a module that does not load, a client that runs no scenario; the JSON, JUnit and Markdown reports
then say why, the JSON with status "error").`;

/** check-client's fast-check interleavings by default. */
const defaultClientRuns = 20;

function list<T extends string>(flag: string, text: string | undefined, known: readonly T[]): T[] | undefined {
  if (text === undefined) return undefined;
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${flag} needs at least one name`);
  for (const item of items) {
    if (!(known as readonly string[]).includes(item)) throw new UsageError(`--${flag}: unknown "${item}"; known: ${known.join(', ')}`);
  }
  return items as T[];
}

/** `--scenarios`: each name as reports print it (`fixed:NAME`, `model:NAME`) or a fixed scenario's bare NAME; the scenarios' names. */
function scenarioList(text: string | undefined, timeoutMs: number, model: boolean): string[] | undefined {
  if (text === undefined) return undefined;
  const known = deterministicScenarios(timeoutMs, model);
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError('--scenarios needs at least one name');
  return items.map((item) => {
    const found = known.find((s) => s.path === item || s.scenario.name === item);
    if (!found) throw new UsageError(`--scenarios: unknown "${item}"; known (fixed: may be left out): ${known.map((s) => s.path).join(', ')}`);
    return found.scenario.name;
  });
}

const checkClientFlags = {
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
  baseline: { type: 'string' },
  'write-baseline': { type: 'string' },
  quiet: { type: 'boolean' },
} as const;

type CheckClientFlags = Flags<typeof checkClientFlags>;

/** What is known of the check before it is done, for a report that says why it could not be. */
interface Known {
  client: ClientReport['client'];
  timeoutMs?: number;
}

/** The client as named before anything is loaded: the adapter's file name (as `check` names a candidate), or the built-in name. */
function provisionalClient(flags: CheckClientFlags): ClientReport['client'] {
  if (flags.adapter !== undefined) return { name: basename(flags.adapter).replace(/\.[^.]+$/, ''), adapter: flags.adapter };
  return { name: flags.client ?? 'client' };
}

export const checkClientCommand: Command = {
  name: 'check-client',
  summary: 'check an MCP client against the reference server with injected faults',
  usage,
  async run(argv) {
    const startedAt = performance.now();
    const flags = parseFlags(argv, checkClientFlags);
    // Report paths first: a path that cannot be written is a usage error before any time is spent.
    for (const flag of ['out', 'junit', 'markdown', 'write-baseline'] as const) {
      const path = flags[flag];
      if (path !== undefined) checkWritable(flag, path);
    }
    // From here on, a check that cannot be done still leaves its reports, saying why (as `check`'s).
    const known: Known = { client: provisionalClient(flags) };
    try {
      return await checkClient(flags, known);
    } catch (error) {
      const reason =
        error instanceof Error ? (error instanceof UsageError || error instanceof RangeError ? error.message : error.message.split('\n')[0]!) : String(error);
      const ms = performance.now() - startedAt;
      const json = renderClientJsonError(known.client, reason, known.timeoutMs, ms);
      if (flags.json) console.log(json);
      if (flags.out !== undefined) writeFileSync(flags.out, json);
      if (flags.junit !== undefined) writeFileSync(flags.junit, renderClientJunitError(known.client, reason, ms));
      if (flags.markdown !== undefined) writeFileSync(flags.markdown, renderClientMarkdownError(known.client, reason));
      throw error;
    }
  },
};

/** The check itself; `known` learns the request timeout once it is read. */
async function checkClient(flags: CheckClientFlags, known: Known): Promise<number> {
  if ((flags.adapter === undefined) === (flags.client === undefined)) throw new UsageError('give exactly one of --adapter MODULE or --client NAME');
  const failOn: FailOn = parseFailOn(flags['fail-on']);
  const timeoutMs = integerFlag('timeout', flags.timeout, 1000, 60_000, 50);
  known.timeoutMs = timeoutMs;
  const only = list<ClientPropertyId>('only', flags.only, clientPropertyIds);
  const scenarios = scenarioList(flags.scenarios, timeoutMs, !flags['no-model']);
  const runs = integerFlag('runs', flags.runs, defaultClientRuns, 10_000);
  let seed: number | undefined;
  if (flags.seed !== undefined) {
    if (!/^-?\d+$/.test(flags.seed)) throw new UsageError(`--seed must be an integer, got ${JSON.stringify(flags.seed)}`);
    seed = Number(flags.seed);
  }
  const baseline = flags.baseline !== undefined ? readClientBaseline(flags.baseline) : undefined;
  const path = flags.path;
  if (path !== undefined && !/^(fixed|model):/.test(path)) {
    // A scenario's bare name: the user meant the form the report prints.
    const named = deterministicScenarios(timeoutMs).find((s) => s.scenario.name === path || s.path === `model:${path}`);
    if (named) throw new UsageError(`--path ${path}: write ${named.path} (a scenario's name as the report prints it)`);
    if (seed === undefined) throw new UsageError('--path with a fast-check path needs the --seed it was printed with');
    if (!/^\d+(:\d+)*$/.test(path))
      throw new UsageError(`--path must be fixed:NAME, model:NAME or a fast-check path (digits separated by ':'), got ${JSON.stringify(path)}`);
  }

  // Stdout carries the report alone: whatever the adapter or its client logs goes to stderr.
  const restoreConsole = consoleToStderr();
  const progress = progressRenderer({ write: (text) => process.stderr.write(text), tty: process.stderr.isTTY === true }, flags.quiet === true);
  let report: ClientReport;
  try {
    let factory: ClientFactory;
    if (flags.adapter !== undefined) {
      // Twice the bound: the load includes the default export's call, which load.ts bounds itself
      // (at loadBoundMs) with a message that names it.
      factory = (await boundedLoad(loadClientAdapter(flags.adapter), `adapter ${resolve(flags.adapter)}`, 2 * loadBoundMs)).factory;
    } else {
      factory = await builtInClientFactory(flags.client!).catch((error: Error) => {
        throw new UsageError(`--client: ${error.message}`);
      });
    }
    progress.start(`checking the client ${flags.adapter ?? flags.client!}`);
    report = await runClientCheck(factory, {
      name: known.client.name,
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
    restoreConsole();
  }
  report = { ...report, client: { ...report.client, ...known.client } };
  const invocation = `npx mcp-resume-spec check-client ${flags.adapter !== undefined ? `--adapter ${shellQuote(flags.adapter)}` : `--client ${shellQuote(flags.client!)}`}${flags.timeout !== undefined ? ` --timeout ${timeoutMs}` : ''}`;
  // What made this run judge less than a default check: a listed failure passing under it may still fail.
  const narrowedBy = [
    ...(flags.only !== undefined ? ['--only'] : []),
    ...(flags.scenarios !== undefined ? ['--scenarios'] : []),
    ...(path !== undefined ? ['--path'] : []),
    ...(flags['no-model'] ? ['--no-model'] : []),
    ...(runs < defaultClientRuns ? [`--runs ${runs}`] : []),
  ];
  const applied = baseline ? applyBaseline(flags.baseline!, baseline, report.properties, narrowedBy) : undefined;
  const json = renderClientJson(report, failOn, applied);
  if (flags.out !== undefined) writeFileSync(flags.out, json);
  if (flags.junit !== undefined) writeFileSync(flags.junit, renderClientJunit(report, invocation, applied, failOn));
  if (flags.markdown !== undefined) {
    const source = flags.adapter !== undefined ? { adapter: flags.adapter, cwd: process.cwd() } : { client: flags.client! };
    writeFileSync(flags.markdown, renderClientMarkdown(report, invocation, source, applied));
  }
  console.log(flags.json ? json : renderClientText(report, invocation, applied));
  const status = clientExitStatus(report, failOn, applied);
  const error = clientCheckError(report);
  if (error !== undefined) console.error(`mcp-resume-spec check-client: ${error}`);
  // A check that could not be done found nothing: an empty baseline would say the client breaks nothing.
  if (flags['write-baseline'] !== undefined) {
    if (error === undefined) writeBaseline(flags['write-baseline'], report.properties, 'client', applied ? stillListed(applied) : []);
    else console.error(`note: no baseline written to ${flags['write-baseline']}: the check could not be done`);
  }
  const belowThreshold = report.properties.filter((p) => p.status === 'fail' && !countsAt(p.level, failOn) && !applied?.known.includes(p.id)).length;
  const writtenTo = flags['write-baseline'] !== undefined && error === undefined ? flags['write-baseline'] : undefined;
  for (const note of endNotes({ belowThreshold, failOn, ...(applied ? { applied } : {}), ...(writtenTo !== undefined ? { writtenTo } : {}) }))
    process.stderr.write(`${note}\n`);
  return status;
}
