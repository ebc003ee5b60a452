/**
 * The client check's report: per property a status with its level and, under a failure, the
 * scenario, its faults and the recorded history (data; the renderers make sentences of it). Text
 * and JSON renderers, and the exit status rule shared with `check`.
 */
import { countsAt, type FailOn, type Level } from '../../properties/definition.js';
import { clientDefinitions } from '../../properties/client/definitions.js';
import type { ClientHistory, WireEntry, AppEntry } from '../../properties/client/history.js';
import type { ClientPropertyId } from '../../properties/client/ids.js';
import type { Transport } from '../../model/transport.js';
import { baselineCellMark, baselineJson, baselineLines, type BaselineOutcome } from '../report/baseline.js';
import { whyLines } from '../report/basis.js';
import { shellQuote } from '../report/common.js';
import type { CheckStatus } from '../report/json.js';
import { toolVersion } from '../version.js';

/**
 * The version of the client JSON report's shape (its own, apart from `check`'s `reportSchemaVersion`):
 * it changes when a field changes meaning or goes away; a field added leaves it as it is.
 */
export const clientReportSchemaVersion = 1;

/** The level as the reports print it: `MUST`, `MUST (derived)`, `SHOULD`, `POLICY`. */
export function levelLabel(level: Level): string {
  return level === 'derived' ? 'MUST (derived)' : level.toUpperCase();
}

/** Where a scenario comes from: the fixed catalog, the model's shortest paths, or fast-check. */
export type ScenarioSource = 'fixed' | 'model' | 'fast-check';

export interface ClientCounterexample {
  scenario: string;
  source: ScenarioSource;
  /** The fast-check seed, or -1 for a deterministic scenario. */
  seed: number;
  /** What `--path` replays: `fixed:NAME`, `model:NAME`, or a fast-check path (with `--seed`). */
  path: string;
  transport: Transport;
  policy: string;
  faults: string[];
  /** Each application call's notification count. */
  calls: number[];
  /** The clock value of the entry that shows the failure. */
  at: number;
  history: ClientHistory;
}

export interface ClientPropertyResult {
  id: ClientPropertyId;
  status: 'pass' | 'fail' | 'skip';
  /** Scenarios in which it was judged. */
  runs: number;
  level: Level;
  statement: string;
  reason?: string;
  counterexample?: ClientCounterexample;
}

export interface ScenarioOutcome {
  name: string;
  summary: string;
  source: ScenarioSource;
  path: string;
  seed: number;
  /** Each application call's notification count. */
  calls: number[];
  transport: Transport;
  policy: string;
  faults: string[];
  /** The properties this scenario broke. */
  broke: ClientPropertyId[];
  /** Why the scenario could not run. */
  error?: string;
}

export interface ClientReport {
  /** `name`: the built-in client's, or the adapter module's file name without its extension; `adapter`: the module as given. */
  client: { name: string; adapter?: string };
  timeoutMs: number;
  scenarios: ScenarioOutcome[];
  properties: ClientPropertyResult[];
  /** The whole check's wall time, ms. */
  ms?: number;
  /** What the client was found to do before judging (a plain call per transport), and notes such as a close() that did not finish. */
  abilities?: { transports: Transport[]; notes: string[] };
  /** The fast-check interleavings, when any ran. */
  interleavings?: { runs: number; seed: number };
}

/** The flags that replay a counterexample: `--seed S --path P` for fast-check, `--path P` otherwise. */
export function clientReplayFlags(c: Pick<ClientCounterexample, 'seed' | 'path'>): string {
  const path = shellQuote(c.path);
  return c.seed === -1 ? `--path ${path}` : `--seed ${c.seed} --path ${path}`;
}

/** Why the check could not be done although it ran (every scenario failed to run), or undefined. */
export function clientCheckError(report: ClientReport): string | undefined {
  if (report.scenarios.length === 0 || report.scenarios.some((s) => s.error === undefined)) return undefined;
  const reasons = [...new Set(report.scenarios.map((s) => s.error!))];
  return `no scenario could run: ${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? `; and ${reasons.length - 3} other reason(s)` : ''}`;
}

/** What a client baseline (`--baseline FILE`) made of a client check's failures. */
export type ClientBaseline = BaselineOutcome<ClientPropertyId>;

/**
 * 0 nothing violated at or above `failOn` (failures the baseline knows aside), 1 something is, 2 no
 * scenario could run.
 */
export function clientExitStatus(report: ClientReport, failOn: FailOn = 'policy', baseline?: ClientBaseline): 0 | 1 | 2 {
  if (clientCheckError(report) !== undefined) return 2;
  return report.properties.some((p) => p.status === 'fail' && countsAt(p.level, failOn) && !baseline?.known.includes(p.id)) ? 1 : 0;
}

/** The check's outcome as the JSON report says it: what the exit status says (0 pass, 1 fail, 2 error). */
function clientCheckStatus(report: ClientReport, failOn: FailOn = 'policy', baseline?: ClientBaseline): CheckStatus {
  return (['pass', 'fail', 'error'] as const)[clientExitStatus(report, failOn, baseline)];
}

/**
 * The baseline's lines, as `check` prints them. Client properties have no `followsFrom` (none is
 * another's consequence), so every known failure is a listed one.
 */
export function clientBaselineLines(report: ClientReport, baseline: ClientBaseline): string[] {
  return baselineLines(baseline, new Set([...baseline.known, ...baseline.fixed, ...baseline.unjudged]), report.properties);
}

function short(value: unknown, max = 120): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * One history entry in words, in parts: `by` (who speaks, or what kind of line it is, with its
 * separator), `what` (what is said), and the exchange it belongs to, for a wire entry. A trace line
 * ({@link renderEntry}) and a diagram line (Markdown report) are put together from the parts.
 */
export function entryParts(entry: WireEntry | AppEntry): { by: string; what: string; exchange?: number } {
  switch (entry.kind) {
    case 'request': {
      const rpc = entry.messages.map((m) => m.method ?? (m.id !== undefined ? `response ${String(m.id)}` : '?')).join(', ');
      const extras = [
        entry.sessionId !== undefined ? `session ${entry.sessionId.slice(0, 8)}` : undefined,
        entry.querySession !== undefined ? `?sessionId=${entry.querySession.slice(0, 8)}` : undefined,
        entry.lastEventId !== undefined ? `Last-Event-ID ${entry.lastEventId}` : undefined,
      ].filter(Boolean);
      return {
        by: `${entry.origin === 'checker' ? 'checker' : 'client'} → `,
        what: `${entry.method} ${entry.path}${rpc ? ` ${rpc}` : ''}${extras.length ? ` (${extras.join(', ')})` : ''}`,
        exchange: entry.exchange,
      };
    }
    case 'response':
      return {
        by: 'server → ',
        what: `${entry.status}${entry.stream ? ' SSE' : ''}${entry.sessionId !== undefined ? ` session ${entry.sessionId.slice(0, 8)}` : ''}`,
        exchange: entry.exchange,
      };
    case 'frame': {
      const what =
        entry.event === 'endpoint'
          ? `endpoint ${entry.data}`
          : entry.message
            ? short(
                entry.message.method
                  ? { method: entry.message.method, params: entry.message.params }
                  : { id: entry.message.id, result: entry.message.result, error: entry.message.error },
                100,
              )
            : 'priming (no data)';
      return { by: '  frame', what: `${entry.id !== undefined ? ` id ${entry.id}` : ''}: ${what}`, exchange: entry.exchange };
    }
    case 'fault':
      return { by: '  ⚡ ', what: `${entry.fault}: ${entry.detail}`, exchange: entry.exchange };
    case 'end':
      return { by: '  ', what: entry.cut ? 'connection cut' : 'end of answer', exchange: entry.exchange };
    case 'call':
      return { by: 'app: ', what: `callTool ${entry.name} ${short(entry.args)} (call ${entry.call})` };
    case 'notification':
      return { by: 'app: ', what: `notification ${entry.method} ${short(entry.params, 80)}` };
    case 'settled':
      return {
        by: 'app: ',
        what: `call ${entry.call} ${entry.outcome}${entry.outcome === 'resolved' ? ` ${short(entry.value, 80)}` : entry.error ? `: ${entry.error.slice(0, 100)}` : ''}`,
      };
  }
}

/** One history entry as a line of a trace. */
export function renderEntry(entry: WireEntry | AppEntry): string {
  const { by, what, exchange } = entryParts(entry);
  return `${by}${what}${exchange !== undefined ? ` [#${exchange}]` : ''}`;
}

/** The history as trace lines, in clock order, the failing entry marked. */
export function renderTrace(history: ClientHistory, at?: number): string[] {
  return [...history.wire, ...history.app].sort((a, b) => a.at - b.at).map((e) => `${e.at === at ? '✗ ' : '  '}${String(e.at).padStart(3)} ${renderEntry(e)}`);
}

/** The fast-check part of the scenarios line: the interleavings run, or the one a `--path` replayed. */
function interleavingsText(report: ClientReport, drawn: number): string {
  if (report.interleavings) return `, ${report.interleavings.runs} fast-check interleavings (seed ${report.interleavings.seed})`;
  return drawn > 0 ? `, ${drawn} fast-check run${drawn === 1 ? '' : 's'} (replayed)` : '';
}

/** The text report; with a baseline, its lines at the end (known failures, FIXED ones), as `check`'s. */
export function renderClientText(
  report: ClientReport,
  invocation = `mcp-resume-spec check-client --client ${shellQuote(report.client.name)}`,
  baseline?: ClientBaseline,
): string {
  const adapter = report.client.adapter !== undefined ? `, adapter ${report.client.adapter}` : '';
  const lines = [`check-client: ${report.client.name} (request timeout ${report.timeoutMs} ms${adapter})`, ''];
  const counts = (source: ScenarioSource) => report.scenarios.filter((s) => s.source === source).length;
  for (const note of report.abilities?.notes ?? []) lines.push(`  note: ${note}`);
  lines.push(`  scenarios: ${counts('fixed')} fixed, ${counts('model')} from the model${interleavingsText(report, counts('fast-check'))}`);
  for (const s of report.scenarios) {
    if (s.source === 'fast-check' && s.broke.length === 0 && !s.error) continue;
    lines.push(
      `  scenario ${s.name} [${s.transport}, ${s.policy}]: ${s.error ? `could not run: ${s.error}` : s.broke.length ? `broke ${s.broke.join(', ')}` : 'ok'}`,
    );
  }
  lines.push('');
  for (const p of report.properties) {
    lines.push(`${p.status.toUpperCase().padEnd(4)} ${p.id} [${levelLabel(p.level)}] (${p.runs} scenario(s))${baselineCellMark(baseline, p.id)}`);
    if (p.status === 'skip') lines.push(`     ${p.reason ?? ''}`);
    if (p.status !== 'fail') continue;
    lines.push(`     ${p.reason ?? ''}`);
    // Why it is required, as the server check says it: the level, the spec's words, and for a
    // policy this project's reason.
    lines.push(`     why: ${whyLines(p.level, clientDefinitions[p.id]).join('\n          ')}`);
    const c = p.counterexample;
    if (c) {
      lines.push(`     scenario ${c.scenario} [${c.transport}, ${c.policy}], calls emitting ${c.calls.join(', ')}; faults: ${c.faults.join('; ') || 'none'}`);
      for (const line of renderTrace(c.history, c.at)) lines.push(`     ${line}`);
      lines.push(`     replay: ${invocation} ${clientReplayFlags(c)}`);
    }
  }
  const failed = report.properties.filter((p) => p.status === 'fail').length;
  lines.push('', `${failed} of ${report.properties.length} client properties violated`);
  if (baseline) lines.push(...clientBaselineLines(report, baseline));
  return lines.join('\n');
}

const tool = () => ({ name: 'mcp-resume-spec' as const, version: toolVersion() });

/**
 * The JSON report (the counterexample's history included, as data), led by the fields CI reads:
 * the tool and its version, `schemaVersion`, `status` (what the exit status says under `failOn` and
 * the baseline) and, with `status: "error"`, `error` (why); with a baseline, `baseline` (`file`,
 * `known`, `fixed`, `unjudged`, `narrowedBy`, as `check`'s JSON has it: fields added, `schemaVersion` stays).
 */
export function renderClientJson(report: ClientReport, failOn: FailOn = 'policy', baseline?: ClientBaseline): string {
  const status = clientCheckStatus(report, failOn, baseline);
  const error = clientCheckError(report);
  return JSON.stringify(
    {
      tool: tool(),
      schemaVersion: clientReportSchemaVersion,
      status,
      ...(error !== undefined ? { error } : {}),
      ...report,
      properties: report.properties.map((p) => ({ ...p, levelLabel: levelLabel(p.level), basis: clientDefinitions[p.id] })),
      ...(baseline ? { baseline: baselineJson(baseline) } : {}),
    },
    null,
    2,
  );
}

/**
 * The JSON report of a check that could not be done (exit status 2), in the same shape: `status:
 * "error"`, `error` (the reason), no scenarios and no properties.
 * @param client - the client as far as it is known (the adapter's file name, or the built-in name)
 * @param timeoutMs - the request timeout, once the flags have been read
 * @param ms - wall time until the check gave up
 */
export function renderClientJsonError(client: ClientReport['client'], reason: string, timeoutMs?: number, ms?: number): string {
  return JSON.stringify(
    {
      tool: tool(),
      schemaVersion: clientReportSchemaVersion,
      status: 'error',
      error: reason,
      client,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      scenarios: [],
      properties: [],
      ...(ms !== undefined ? { ms: Math.round(ms) } : {}),
    },
    null,
    2,
  );
}
