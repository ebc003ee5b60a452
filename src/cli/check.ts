/**
 * `mcp-resume-spec check`: checks a candidate server (a URL, or an adapter module that starts
 * one) over real HTTP and reports which properties it breaks. Exit status: 0 every property
 * holds (or could not be judged, with the reason, or fails below the `--fail-on` level), 1 a
 * property is violated at or above that level, 2 the check could not run.
 */
import { writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { propertyIds, type PropertyId } from '../../model/property-ids.js';
import { countsAt } from '../../properties/definition.js';
import type { Endpoint } from '../../properties/history.js';
import { errorJsonReport, renderJson } from '../report/json.js';
import { renderJunit, renderJunitError } from '../report/junit.js';
import { escapeMarkdown, renderMarkdown } from '../report/markdown.js';
import { headerFlags, shellQuote } from '../report/common.js';
import { renderText } from '../report/text.js';
import { CandidateUnusable } from '../check-server/abilities.js';
import { defaultRuns, runSuite } from '../check-server/run-suite.js';
import type { CandidateTarget, SuiteOptions, SuiteReport } from '../check-server/types.js';
import { loadAdapter, type StartedCandidate } from '../loader/adapter-loader.js';
import { integerFlag, parseFailOn, parseFlags, type Flags } from './args.js';
import { applyBaseline, baselineLines, stillListed } from '../report/baseline.js';
import { endNotes, graverThanListed, readBaseline, writeBaseline } from './baseline.js';
import { boundedLoad } from '../loader/bounded-load.js';
import { consoleToStderr } from './console-to-stderr.js';
import { checkWritable } from './output-paths.js';
import { progressRenderer } from './progress.js';
import { extraHeaderProblem, parseExtraHeader } from '../wire/extra-headers.js';
import { UsageError, type Command } from './command.js';
import { namedByFlags, parseTargetUrl } from './target-url.js';

const usage = `usage: mcp-resume-spec check (--url URL | --adapter MODULE) [--mcp PATH] [--sse PATH] [--messages PATH] [--header 'NAME: VALUE']...
                             [--runs N] [--seed S] [--path P] [--only IDS] [--json] [--out FILE] [--junit FILE] [--markdown FILE]
                             [--timeout MS] [--max-seconds N] [--client-cursor drain|receive] [--client-dedup on|off] [--no-coverage]
                             [--fail-on must|should|policy] [--baseline FILE] [--write-baseline FILE] [--quiet]

Drives a candidate MCP server over HTTP and reports each property. Three kinds of scenario run:
probes (fixed scenarios for what only they reach), coverage (scenarios from the model that
together reach every state it distinguishes) and interleavings (random multi-step scenarios from
fast-check: sessions, calls, dropped connections, resumes, under both transports). A property's
"runs" in the report is the number of scenarios, of all three kinds, in which it was judged.
  --url URL          a running server's streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp
                     (legacy endpoints default to sse and messages beside it); a URL without a path is a base URL;
                     one ending in /sse names the legacy endpoint (streamable HTTP is then taken at /mcp beside it);
                     an endpoint named (by its path, --mcp or --sse) must answer initialize, or exit 2; under a base
                     URL either transport may be missing (what needs it is reported skip);
                     https:// too (certificates verified as Node does; NODE_EXTRA_CA_CERTS=ca.pem for a private CA)
  --adapter MODULE   a .ts, .mts, .cts, .js, .mjs or .cjs module whose default export starts a candidate:
                     () => Promise<{url, stop, name?, version?, headers?}>
  --mcp/--sse/--messages PATH   endpoint paths under the base URL (defaults /mcp, /sse, /messages); with --mcp, --url is the base
  --header 'NAME: VALUE'  sent with every request to the server's origin, e.g. 'Authorization: Bearer TOKEN' for a
                     server behind a gate (repeatable; over an adapter's own headers; never written to a report:
                     replay lines read it from MCP_HEADER_NAME)
  --runs N           fast-check interleavings to run (default ${defaultRuns}; 0: probes and coverage only)
  --seed S           fast-check seed (default random); with --path, replays one counterexample
  --path P           replay a counterexample: a fast-check path (with --seed), coverage:N[:K], witness:N or probe:NAME
  --only IDS         comma-separated property ids: ${propertyIds.join(', ')}
  --json             print the JSON report on stdout instead of the text summary
  --out FILE         also write the JSON report to FILE
  --junit FILE       also write a JUnit XML report (one test case per property)
  --markdown FILE    also write a Markdown report (sequence diagrams, vitest reproductions)
  --timeout MS       bound of each wait for the candidate, at least 1 (default 2000)
  --max-seconds N    bound of the whole check, at least 1 (default 300), checked between scenarios (those running
                     finish); what is left is reported skipped, with the budget as the reason
  --client-cursor    when the checking client's cursor moves: drain (default, the reference client) or receive
  --client-dedup     whether the checking client drops a frame whose event ID it already processed: on (default, the
                     reference client) or off, as a client without dedup (the SDK's) gets a replay: off, an inclusive
                     replay (the cursor's own event again) fails order-preserved
  --no-coverage      skip the model-coverage scenarios
  --fail-on LEVEL    the weakest level whose failure fails the check (default policy: every failure counts):
                     must (a MUST of the MCP spec, or derived from one: spec conformance),
                     should (also the spec's SHOULDs), policy (also this project's rules where the spec is silent)
  --baseline FILE    known failures (a file --write-baseline wrote): listed failures do not fail the check,
                     and a listed failure that now passes is reported FIXED
  --write-baseline FILE   write this check's failures as a baseline: {"baselineVersion": 1, "failures": [{"id", "level"}]}
                     (with --baseline, the listed properties this run did not judge are kept)
  --quiet            no progress on stderr (by default a live line on a terminal, a line every few seconds otherwise)
Report paths are checked before the run. Exit status: 0 no property violated at or above --fail-on
(baselined failures aside), 1 a property violated at or above it, 2 the check could not run (a named
endpoint not answering initialize included), the server stopped accepting connections mid-check, or
no property could be judged (every one skipped: nothing judged is no pass); the --json, --out and
--junit reports then say why, with status "error".`;

/** `--header` values as headers, else a usage error saying which is wrong and why. */
function parseHeaders(texts: string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const text of texts ?? []) {
    try {
      const [name, value] = parseExtraHeader(text);
      headers[name] = value;
    } catch (error) {
      throw new UsageError(`--header: ${(error as Error).message}`);
    }
  }
  return headers;
}

function parseOnly(text: string | undefined): PropertyId[] | undefined {
  if (text === undefined) return undefined;
  const ids = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const id of ids) {
    if (!(propertyIds as readonly string[]).includes(id)) throw new UsageError(`--only: unknown property "${id}"; known: ${propertyIds.join(', ')}`);
  }
  if (ids.length === 0) throw new UsageError('--only needs at least one property id');
  return ids as PropertyId[];
}

/** The flags `check` takes. */
const checkFlags = {
  url: { type: 'string' },
  adapter: { type: 'string' },
  mcp: { type: 'string' },
  sse: { type: 'string' },
  messages: { type: 'string' },
  header: { type: 'string', multiple: true },
  runs: { type: 'string' },
  seed: { type: 'string' },
  path: { type: 'string' },
  only: { type: 'string' },
  json: { type: 'boolean' },
  out: { type: 'string' },
  junit: { type: 'string' },
  markdown: { type: 'string' },
  timeout: { type: 'string' },
  'max-seconds': { type: 'string' },
  'client-cursor': { type: 'string' },
  'client-dedup': { type: 'string' },
  'no-coverage': { type: 'boolean' },
  'fail-on': { type: 'string' },
  baseline: { type: 'string' },
  'write-baseline': { type: 'string' },
  quiet: { type: 'boolean' },
} as const;

type CheckFlags = Flags<typeof checkFlags>;

/**
 * What `check` says of a candidate at `url` it could not check; after a gate's refusal (initialize
 * answered 401 or 403), how to get past it: `headersGiven` says whether headers were sent.
 */
export function unusableMessage(error: CandidateUnusable, url: string, headersGiven: boolean): string {
  const gated = error.statuses.some((status) => status === 401 || status === 403);
  const hint = !gated
    ? ''
    : headersGiven
      ? "; the headers given (--header, or the adapter's) were refused"
      : "; a server behind a gate is given its credentials with --header 'Authorization: ...'";
  return `could not check ${url}: ${error.url === url ? `it ${error.said}` : error.message}${hint}`;
}

export const checkCommand: Command = {
  name: 'check',
  summary: 'check a candidate server over HTTP',
  usage,
  async run(argv) {
    const startedAt = performance.now();
    const flags = parseFlags(argv, checkFlags);
    // Report paths first: a path that cannot be written is a usage error before any time is spent.
    for (const flag of ['out', 'junit', 'markdown', 'write-baseline'] as const) {
      const path = flags[flag];
      if (path !== undefined) checkWritable(flag, path);
    }
    // From here on, a check that cannot be done still leaves its reports, saying why.
    const who: { name: string; url?: string } = { name: provisionalName(flags) };
    try {
      return await check(flags, startedAt, who);
    } catch (error) {
      const reason = error instanceof UsageError || error instanceof RangeError ? error.message : ((error as Error).message?.split('\n')[0] ?? String(error));
      const ms = performance.now() - startedAt;
      const json = flags.json || flags.out !== undefined ? renderJson(errorJsonReport(who, reason, ms)) : undefined;
      if (flags.json) process.stdout.write(json!);
      if (flags.out !== undefined) writeFileSync(flags.out, json!);
      if (flags.junit !== undefined) writeFileSync(flags.junit, renderJunitError(who, reason, ms));
      if (flags.markdown !== undefined)
        writeFileSync(flags.markdown, `# mcp-resume-spec check: ${escapeMarkdown(who.name)}\n\nThe check could not be done: ${escapeMarkdown(reason)}\n`);
      throw error;
    }
  },
};

/** The candidate's name before anything is known of it: the adapter's file name, or the URL's host. */
function provisionalName(flags: CheckFlags): string {
  if (flags.adapter !== undefined) return basename(flags.adapter).replace(/\.[^.]+$/, '');
  return flags.url !== undefined && URL.canParse(flags.url) ? new URL(flags.url).host : (flags.url ?? 'candidate');
}

/** The check itself; `who` learns the candidate's name and URL as soon as they are known. */
async function check(flags: CheckFlags, startedAt: number, who: { name: string; url?: string }): Promise<number> {
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
  const dedup = flags['client-dedup'] ?? 'on';
  if (dedup !== 'on' && dedup !== 'off') throw new UsageError(`--client-dedup must be on or off, got ${JSON.stringify(dedup)}`);
  const failOn = parseFailOn(flags['fail-on']);
  const headers = parseHeaders(flags.header);
  const options: SuiteOptions = {
    runs: integerFlag('runs', flags.runs, defaultRuns, 100_000),
    timeoutMs: integerFlag('timeout', flags.timeout, 2000, 600_000, 1),
    maxMs: integerFlag('max-seconds', flags['max-seconds'], 300, 86_400, 1) * 1000,
    coverage: !flags['no-coverage'],
    client: { cursorAdvance: cursor === 'drain' ? 'onDrain' : 'onReceive', dedup: dedup === 'on' },
  };
  if (flags.seed !== undefined) {
    if (!/^-?\d+$/.test(flags.seed)) throw new UsageError(`--seed must be an integer, got ${JSON.stringify(flags.seed)}`);
    options.seed = Number(flags.seed);
  }
  if (flags.path !== undefined) options.path = flags.path;
  const only = parseOnly(flags.only);
  if (only) options.only = only;
  const baseline = flags.baseline !== undefined ? readBaseline(flags.baseline) : undefined;
  const location = flags.url !== undefined ? parseTargetUrl(flags.url, paths) : undefined;
  if (location) Object.assign(who, { name: new URL(location.base).host, url: location.base });

  // Stdout carries the report alone: whatever an in-process candidate logs goes to stderr.
  const restoreConsole = consoleToStderr();
  const progress = progressRenderer({ write: (text) => process.stderr.write(text), tty: process.stderr.isTTY === true }, flags.quiet === true);
  let started: StartedCandidate | undefined;
  let report: SuiteReport;
  let target: CandidateTarget | undefined;
  try {
    if (flags.adapter !== undefined) {
      progress.start(`starting ${flags.adapter}`);
      const adapter = await boundedLoad(loadAdapter(flags.adapter), `adapter ${resolve(flags.adapter)}`);
      started = await adapter.start();
      // Read as --url is read: the streamable endpoint (what servers print), or a base URL.
      const at = parseTargetUrl(started.url, paths, `the url ${flags.adapter} answered with`);
      for (const [name, value] of Object.entries(started.headers ?? {})) {
        const problem = extraHeaderProblem(name, value);
        if (problem) throw new UsageError(`the headers ${flags.adapter} answered with: ${problem}`);
      }
      if (at.note) process.stderr.write(`note: ${at.note}\n`);
      // The adapter's URL names no endpoint the user chose: only the endpoint flags do.
      target = {
        name: started.name ?? basename(adapter.path).replace(/\.[^.]+$/, ''),
        url: at.base,
        paths: at.paths,
        headers: { ...started.headers, ...headers },
        required: namedByFlags(paths),
      };
      if (started.version !== undefined) target.version = started.version;
    } else {
      target = { name: who.name, url: location!.base, paths: location!.paths, headers, required: location!.named };
    }
    Object.assign(who, { name: target.name, url: target.url });
    if (location?.note) process.stderr.write(`note: ${location.note}\n`);
    progress.start(`checking ${location?.endpoint ?? target.url}: probing both transports`);
    options.onProgress = progress.update;
    report = await runSuite(target, options);
  } catch (error) {
    if (error instanceof CandidateUnusable)
      throw new UsageError(unusableMessage(error, target?.url ?? who.name, Object.keys(target?.headers ?? {}).length > 0));
    throw error;
  } finally {
    progress.done();
    try {
      await started?.stop();
    } finally {
      restoreConsole();
    }
  }
  // Nothing judged is no pass: the candidate could not be checked (exit 2), with the skips' reasons.
  if (report.properties.length > 0 && report.properties.every((p) => p.status === 'skip')) {
    const reasons = report.properties.slice(0, 3).map((p) => `${p.id}: ${p.reason}`);
    const more = report.properties.length > 3 ? `; and ${report.properties.length - 3} more` : '';
    throw new UsageError(`could not check ${target.url}: no property could be judged, every one was skipped (${reasons.join('; ')}${more})`);
  }
  const ms = performance.now() - startedAt;
  const failures = report.properties.filter((p) => p.status === 'fail');
  // What made this run judge less than a default check: a listed failure passing under it may still fail.
  const narrowedBy = [
    ...(only ? ['--only'] : []),
    ...((options.runs ?? defaultRuns) < defaultRuns ? [`--runs ${options.runs}`] : []),
    ...(flags['no-coverage'] ? ['--no-coverage'] : []),
    ...(flags.path !== undefined ? ['--path'] : []),
    ...(report.cutShort ? [`--max-seconds ${options.maxMs! / 1000} (the time budget ran out)`] : []),
  ];
  // A listed failure that now fails graver than it was written at is a new failure.
  const graver = baseline ? graverThanListed(flags.baseline!, report.properties) : [];
  for (const g of graver)
    process.stderr.write(
      `note: ${flags.baseline} lists ${g.id} at ${g.listed.toUpperCase()}; it now fails at ${g.now.toUpperCase()}, a graver failure the baseline does not cover\n`,
    );
  const listed = baseline && graver.length > 0 ? new Set([...baseline].filter((id) => !graver.some((g) => g.id === id))) : baseline;
  const applied = listed ? applyBaseline(flags.baseline!, listed, report.properties, narrowedBy) : undefined;
  const counted = failures.filter((p) => countsAt(p.level, failOn) && !applied?.known.includes(p.id));
  const status = counted.length > 0 ? 'fail' : 'pass';
  const headerNames = Object.keys(headers);
  // A replay runs the same checking client: its settings where not the default.
  const client = { ...(cursor === 'receive' ? { cursorAdvance: 'onReceive' as const } : {}), ...(dedup === 'off' ? { dedup: false } : {}) };
  const source = {
    ...(flags.adapter !== undefined ? { adapter: flags.adapter, cwd: process.cwd(), paths } : { url: target.url, paths: target.paths ?? paths }),
    ...(headerNames.length > 0 ? { headerNames } : {}),
    ...(Object.keys(client).length > 0 ? { client } : {}),
  };
  // The bound of each wait decides what a stall is: a replay waits as long.
  const clientFlags = `${cursor === 'receive' ? ' --client-cursor receive' : ''}${dedup === 'off' ? ' --client-dedup off' : ''}${flags.timeout !== undefined ? ` --timeout ${options.timeoutMs}` : ''}`;
  // The candidate as the user named it: --url or --adapter with the endpoint paths given.
  const endpointFlags = (['mcp', 'sse', 'messages'] as const).map((e) => (flags[e] !== undefined ? ` --${e} ${shellQuote(flags[e])}` : '')).join('');
  const candidateFlags = flags.adapter !== undefined ? `--adapter ${shellQuote(flags.adapter)}` : `--url ${shellQuote(flags.url!)}`;
  const invocation = `npx mcp-resume-spec check ${candidateFlags}${endpointFlags}${headerFlags(headerNames)}${clientFlags}`;
  const reported = applied ? { outcome: applied, lines: baselineLines(applied, listed!, report.properties) } : undefined;
  if (flags.junit !== undefined) writeFileSync(flags.junit, renderJunit(report, { invocation, ms, failOn, ...(reported ? { baseline: reported } : {}) }));
  if (flags.markdown !== undefined)
    writeFileSync(flags.markdown, renderMarkdown(report, { ...source, invocation, ...(reported ? { baseline: reported } : {}) }));
  if (flags['write-baseline'] !== undefined) writeBaseline(flags['write-baseline'], report.properties, 'server', applied ? stillListed(applied) : []);
  const json = renderJson(report, { status, ms, ...(applied ? { baseline: applied } : {}) });
  if (flags.out !== undefined) writeFileSync(flags.out, json);
  if (flags.json) {
    process.stdout.write(json);
  } else {
    const text = renderText(report, { color: process.stdout.isTTY === true, invocation, ...(applied ? { baseline: applied } : {}) });
    process.stdout.write(reported ? `${text}\n${reported.lines.join('\n')}\n` : text);
  }
  const belowThreshold = failures.filter((p) => !countsAt(p.level, failOn) && !applied?.known.includes(p.id)).length;
  for (const note of endNotes({
    belowThreshold,
    failOn,
    ...(applied ? { applied } : {}),
    ...(flags['write-baseline'] !== undefined ? { writtenTo: flags['write-baseline'] } : {}),
  })) {
    process.stderr.write(`${note}\n`);
  }
  return status === 'fail' ? 1 : 0;
}
