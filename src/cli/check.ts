/**
 * `mcp-resume-spec check`: checks a candidate server (a URL, or an adapter module that starts
 * one) over real HTTP and reports which properties it breaks. Exit status: 0 every property
 * holds (or could not be judged, with the reason, or fails below the `--fail-on` level), 1 a
 * property is violated at or above that level, 2 the check could not run.
 */
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { propertyIds, type PropertyId } from '../../model/property-ids.js';
import { countsAt, failOnLevels, type FailOn } from '../../properties/definition.js';
import type { Endpoint } from '../../properties/history.js';
import { renderJson } from '../report/json.js';
import { renderJunit } from '../report/junit.js';
import { renderMarkdown } from '../report/markdown.js';
import { renderText } from '../report/text.js';
import { CandidateUnusable } from '../suite/abilities.js';
import { defaultRuns, runSuite } from '../suite/run-suite.js';
import type { CandidateTarget, SuiteOptions, SuiteReport } from '../suite/types.js';
import { loadAdapter, type StartedCandidate } from './adapter-loader.js';
import { integerFlag, parseFlags } from './args.js';
import { UsageError, type Command } from './command.js';
import { parseTargetUrl } from './target-url.js';

const usage = `usage: mcp-resume-spec check (--url URL | --adapter MODULE) [--mcp PATH] [--sse PATH] [--messages PATH]
                             [--runs N] [--seed S] [--path P] [--only IDS] [--json] [--junit FILE] [--markdown FILE]
                             [--timeout MS] [--max-seconds N] [--client-cursor drain|receive] [--no-coverage]
                             [--fail-on must|should|policy]

Drives a candidate MCP server over HTTP with scenarios from the model (coverage of every state the
specification distinguishes) and fast-check interleavings, and reports each property:
  --url URL          a running server's streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp
                     (legacy endpoints default to sse and messages beside it); a URL without a path is a base URL
  --adapter MODULE   a .ts, .mts, .cts, .js, .mjs or .cjs module whose default export starts a candidate: () => Promise<{url, stop}>
  --mcp/--sse/--messages PATH   endpoint paths under the base URL (defaults /mcp, /sse, /messages); with --mcp, --url is the base
  --runs N           fast-check interleavings (default 200)
  --seed S           fast-check seed (default random); with --path, replays one counterexample
  --path P           replay a counterexample: a fast-check path (with --seed), coverage:N or probe:NAME
  --only IDS         comma-separated property ids: ${propertyIds.join(', ')}
  --json             print the JSON report on stdout instead of the text summary
  --junit FILE       also write a JUnit XML report (one test case per property)
  --markdown FILE    also write a Markdown report (sequence diagrams, vitest reproductions)
  --timeout MS       bound of each wait for the candidate (default 2000)
  --max-seconds N    bound of the whole check (default 300); what is left is reported skipped
  --client-cursor    when the checking client's cursor moves: drain (default, the reference client) or receive
  --no-coverage      skip the model-coverage scenarios
  --fail-on LEVEL    the weakest level whose failure fails the check (default policy: every failure counts):
                     must (a MUST of the MCP spec, or derived from one: spec conformance),
                     should (also the spec's SHOULDs), policy (also this project's rules where the spec is silent)
Exit status: 0 no property violated at or above --fail-on, 1 a property violated at or above it,
2 the check could not run.`;

/** `--fail-on`: one of the thresholds, else a usage error naming them. */
function parseFailOn(text: string | undefined): FailOn {
  if (text === undefined) return 'policy';
  if (!(failOnLevels as readonly string[]).includes(text)) throw new UsageError(`--fail-on must be one of ${failOnLevels.join(', ')}, got ${JSON.stringify(text)}`);
  return text as FailOn;
}

function parseOnly(text: string | undefined): PropertyId[] | undefined {
  if (text === undefined) return undefined;
  const ids = text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of ids) {
    if (!(propertyIds as readonly string[]).includes(id)) throw new UsageError(`--only: unknown property "${id}"; known: ${propertyIds.join(', ')}`);
  }
  if (ids.length === 0) throw new UsageError('--only needs at least one property id');
  return ids as PropertyId[];
}

/** Sends console.log/info/debug to stderr until the returned function restores them. */
function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = console.info = console.debug = toStderr;
  return () => Object.assign(console, saved);
}

/** A progress line on stderr, rewritten in place; only when stderr is a terminal. */
function progressLine(): { update: SuiteOptions['onProgress']; done: () => void } {
  if (!process.stderr.isTTY) return { update: undefined, done: () => {} };
  let last = 0;
  return {
    update: ({ scenarios, phase, elapsedMs }) => {
      if (elapsedMs - last < 100) return;
      last = elapsedMs;
      process.stderr.write(`\r\x1b[K${phase}: ${scenarios} scenarios, ${(elapsedMs / 1000).toFixed(1)} s`);
    },
    done: () => process.stderr.write('\r\x1b[K'),
  };
}

export const checkCommand: Command = {
  name: 'check',
  summary: 'check a candidate server over HTTP',
  usage,
  async run(argv) {
    const flags = parseFlags(argv, {
      url: { type: 'string' },
      adapter: { type: 'string' },
      mcp: { type: 'string' },
      sse: { type: 'string' },
      messages: { type: 'string' },
      runs: { type: 'string' },
      seed: { type: 'string' },
      path: { type: 'string' },
      only: { type: 'string' },
      json: { type: 'boolean' },
      junit: { type: 'string' },
      markdown: { type: 'string' },
      timeout: { type: 'string' },
      'max-seconds': { type: 'string' },
      'client-cursor': { type: 'string' },
      'no-coverage': { type: 'boolean' },
      'fail-on': { type: 'string' },
    });
    if ((flags.url === undefined) === (flags.adapter === undefined)) throw new UsageError('give exactly one of --url URL and --adapter MODULE');
    const paths: Partial<Record<Endpoint, string>> = {};
    for (const endpoint of ['mcp', 'sse', 'messages'] as const) {
      const path = flags[endpoint];
      if (path !== undefined) {
        if (!path.startsWith('/')) throw new UsageError(`--${endpoint} must be a path starting with /, got ${JSON.stringify(path)}`);
        paths[endpoint] = path;
      }
    }
    const cursor = flags['client-cursor'] ?? 'drain';
    if (cursor !== 'drain' && cursor !== 'receive') throw new UsageError(`--client-cursor must be drain or receive, got ${JSON.stringify(cursor)}`);
    const failOn = parseFailOn(flags['fail-on']);
    const options: SuiteOptions = {
      runs: integerFlag('runs', flags.runs, defaultRuns, 100_000),
      timeoutMs: integerFlag('timeout', flags.timeout, 2000, 600_000),
      maxMs: integerFlag('max-seconds', flags['max-seconds'], 300, 86_400) * 1000,
      coverage: !flags['no-coverage'],
      client: { cursorAdvance: cursor === 'drain' ? 'onDrain' : 'onReceive' },
    };
    if (flags.seed !== undefined) {
      if (!/^-?\d+$/.test(flags.seed)) throw new UsageError(`--seed must be an integer, got ${JSON.stringify(flags.seed)}`);
      options.seed = Number(flags.seed);
    }
    if (flags.path !== undefined) options.path = flags.path;
    const only = parseOnly(flags.only);
    if (only) options.only = only;
    const location = flags.url !== undefined ? parseTargetUrl(flags.url, paths) : undefined;

    // Stdout carries the report alone: whatever an in-process candidate logs goes to stderr.
    const restoreConsole = consoleToStderr();
    let started: StartedCandidate | undefined;
    let target: CandidateTarget;
    if (flags.adapter !== undefined) {
      const adapter = await loadAdapter(flags.adapter).catch((error: Error) => {
        restoreConsole();
        throw error;
      });
      started = await adapter.start().catch((error: Error) => {
        restoreConsole();
        throw error;
      });
      target = { name: started.name ?? basename(adapter.path).replace(/\.[^.]+$/, ''), url: started.url, paths };
      if (started.version !== undefined) target.version = started.version;
    } else {
      target = { name: new URL(location!.base).host, url: location!.base, paths: location!.paths };
    }
    const progress = progressLine();
    options.onProgress = progress.update;
    let report: SuiteReport;
    try {
      report = await runSuite(target, options);
    } catch (error) {
      if (error instanceof CandidateUnusable) throw new UsageError(`could not check ${target.url}: ${error.message}`);
      throw error;
    } finally {
      progress.done();
      await started?.stop();
      restoreConsole();
    }
    const source = flags.adapter !== undefined ? { adapter: flags.adapter, cwd: process.cwd(), paths } : { url: target.url, paths: target.paths ?? paths };
    if (flags.junit !== undefined) writeFileSync(flags.junit, renderJunit(report));
    if (flags.markdown !== undefined) writeFileSync(flags.markdown, renderMarkdown(report, source));
    const invocation = flags.adapter !== undefined ? `mcp-resume-spec check --adapter ${flags.adapter}` : `mcp-resume-spec check --url ${location!.endpoint}`;
    process.stdout.write(flags.json ? renderJson(report) : renderText(report, { color: process.stdout.isTTY === true, invocation }));
    const failures = report.properties.filter((p) => p.status === 'fail');
    const counted = failures.filter((p) => countsAt(p.level, failOn));
    if (counted.length < failures.length) {
      process.stderr.write(`note: ${failures.length - counted.length} failure(s) below --fail-on ${failOn} do not fail the check\n`);
    }
    return counted.length > 0 ? 1 : 0;
  },
};
