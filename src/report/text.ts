/**
 * The human-readable report of `mcp-resume-spec check`: stable, greppable lines.
 *
 * ```
 * candidate: NAME VERSION at URL
 * PASS  [SHOULD]   no-silent-loss             runs 200  REASON
 * FAIL  [POLICY]   unknown-cursor-rejected    runs 3    REASON
 * SKIP  [MUST]     session-ids-visible-ascii  runs 0    REASON
 * summary: 10 pass, 1 fail, 1 skip (12 properties)
 *
 * root causes (one observation, several failures):
 *   unknown-cursor-rejected (step 3)
 *     -> no-silent-loss
 *
 * DIVERGENCE deviates from the model at step 3 (ACTION): model expects X, candidate answered Y (4 runs)
 *   replay: --path coverage:7
 *
 * FAIL [POLICY] unknown-cursor-rejected: REASON
 *   why: POLICY: this project's rule where the MCP specification is silent.
 *     "spec text" (2025-11-25, Section: URL)
 *     Why this project requires it: ...
 *   trace:
 *      1. client initializes over streamable -> 200
 *      ...
 *   oracle:
 *     step 3: model expects X; candidate answered Y
 *   replay: --seed S --path P
 *
 * FAIL [SHOULD] no-silent-loss: REASON
 *   why: ...
 *   consequence of unknown-cursor-rejected (same run, step 3): trace under unknown-cursor-rejected
 *   replay: --seed S --path P
 * ```
 *
 * Pure: returns a string, ending with a newline.
 */
import { propertyIds, type PropertyId } from '../../model/property-ids.js';
import type { Status } from '../../properties/judgement.js';
import type { SuiteReport } from '../check-server/types.js';
import { baselineCellMark, type BaselineOutcome } from './baseline.js';
import { levelTag, levelTagWidth, whyLines } from './basis.js';
import { candidateLine, countStatuses, numberSteps, oneLine, replayLine, visible } from './common.js';
import { causeLine, divergenceLine, followsLine, legendOf, oracleLines, rootCauses, traceLines } from './findings.js';

export interface TextReportOptions {
  /** ANSI colours on the status words (default false: callers pass `process.stdout.isTTY`). */
  color?: boolean;
  /**
   * The command that checked the candidate, without `--seed`/`--path`, e.g.
   * `npx mcp-resume-spec check --adapter src/check-server/candidates/sdk.ts`; prefixes each replay line.
   */
  invocation?: string;
  /** What `--baseline FILE` made of the failures: a property it covers or lists and now passes is marked `(known)` or `(FIXED)` before its reason. */
  baseline?: BaselineOutcome<PropertyId>;
}

const words: Record<Status, string> = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' };
const colours: Record<Status, string> = { pass: '\u001b[32m', fail: '\u001b[31m', skip: '\u001b[33m' };
const reset = '\u001b[0m';

/** Width of the id column: the longest known id, so columns do not move between reports. */
const idWidth = Math.max(...propertyIds.map((id) => id.length));

function word(status: Status, color: boolean): string {
  return color ? `${colours[status]}${words[status]}${reset}` : words[status];
}

/**
 * Renders a suite report as text: a header line naming the candidate, one line per property
 * (`PASS`/`FAIL`/`SKIP`, level, id, runs, reason), a summary line, then, for each failure, why the
 * property is required (level, the spec's words, derivation or rationale), its numbered trace,
 * the oracle lines if any, and the flags that replay it.
 *
 * @param report - what the suite returned
 * @param options - colours and the replay invocation
 * @returns the report, one item per line, ending with a newline
 */
export function renderText(report: SuiteReport, options: TextReportOptions = {}): string {
  const color = options.color ?? false;
  const lines: string[] = [`candidate: ${oneLine(candidateLine(report.candidate))}`];
  for (const p of report.properties) {
    const runs = `runs ${p.runs}`.padEnd(9);
    const reason = `${baselineCellMark(options.baseline, p.id).trimStart()} ${p.reason ? oneLine(p.reason) : ''}`.trim();
    lines.push(
      `${word(p.status, color)}  ${levelTag(p.level).padEnd(levelTagWidth)}  ${p.id.padEnd(idWidth)}  ${runs}${reason ? `  ${reason}` : ''}`.trimEnd(),
    );
  }
  const counts = countStatuses(report);
  lines.push(`summary: ${counts.pass} pass, ${counts.fail} fail, ${counts.skip} skip (${counts.total} properties)`);
  if (report.coverage) {
    const c = report.coverage;
    lines.push(`coverage: ${c.reached}/${c.states} model states reached by ${c.scenarios} scenarios`);
  }
  if (report.interleavings) {
    const i = report.interleavings;
    lines.push(`interleavings: ${i.runs} runs, seed ${i.seed}, ${Math.round(i.ms)} ms`);
  }
  if (report.abilities) {
    const a = report.abilities;
    const fixtures = Object.entries(a.fixtures)
      .filter(([, present]) => present)
      .map(([name]) => name);
    const served = a.transports.map((t) => (a.endpoints?.[t] ? `${t} at ${a.endpoints[t]}` : t));
    lines.push(`abilities: transports ${oneLine(served.join(', ')) || 'none'}; fixtures ${fixtures.join(', ') || 'none'}`);
    if (a.resumption) lines.push(`resumption: ${a.resumption.offered ? 'offered' : 'not offered'} (${oneLine(a.resumption.evidence)})`);
    for (const note of a.notes) lines.push(`note: ${oneLine(note)}`);
  }

  const causes = rootCauses(report);
  if (causes.length > 0) {
    lines.push('', 'root causes (one observation, several failures):');
    for (const c of causes) {
      lines.push(`  ${c.cause} (step ${c.step})`);
      for (const id of c.consequences) lines.push(`    -> ${id}`);
    }
  }
  for (const d of report.divergences ?? []) {
    lines.push('', `DIVERGENCE ${oneLine(divergenceLine(d))}`, '  trace (to the divergence):');
    for (const line of numberSteps(traceLines(d.steps))) lines.push(`    ${line}`);
    lines.push(`  replay: ${replayLine(d, options.invocation)}`);
  }

  for (const p of report.properties.filter((x) => x.status === 'fail')) {
    lines.push('', `${word('fail', color)} ${levelTag(p.level)} ${p.id}: ${oneLine(p.reason ?? '(no reason given)')}`);
    const [level, ...why] = whyLines(p.level, p.basis);
    lines.push(`  why: ${level}`, ...why.map((line) => `    ${line}`));
    const counterexample = p.counterexample;
    if (!counterexample) {
      lines.push('  (no counterexample recorded)');
      continue;
    }
    const cause = causeLine(p);
    if (cause) {
      // The cause's section prints the shared trace once.
      lines.push(`  ${cause}: trace under ${p.causedBy!.property}`);
    } else {
      const follows = followsLine(p);
      if (follows) lines.push(`  ${follows}`);
      lines.push('  trace:');
      for (const line of numberSteps(traceLines(counterexample.steps))) lines.push(`    ${line}`);
      const oracle = oracleLines(counterexample);
      if (oracle.length > 0) {
        lines.push('  oracle:');
        for (const line of oracle) {
          for (const part of visible(line).split(/\r\n|\n/)) lines.push(`    ${part}`);
        }
      }
    }
    lines.push(`  replay: ${replayLine(counterexample, options.invocation)}`);
  }
  const legend = legendOf(report);
  if (legend.length > 0) lines.push('', `names in traces: ${legend.join('; ')}`);
  return `${lines.join('\n')}\n`;
}
