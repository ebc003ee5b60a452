/**
 * JUnit XML for CI (`mcp-resume-spec check --junit FILE`): one `<testsuite>` per check, one
 * `<testcase>` per property (classname `mcp-resume-spec.<candidate name>`, name the property id,
 * its level as the testcase property `level`), `<failure>` (message prefixed with the level tag)
 * with why the property is required (the spec's words) and the counterexample's trace as text,
 * `<skipped>` with the reason; a failure another one explains names its cause; divergences from
 * the model are listed in the suite's `<system-out>` (findings, not property failures). With a
 * baseline, the suite has the property `baseline` (the file), a property it covers or lists and
 * now passes has the testcase property `baseline` (`known`, `fixed`) and its line, and the suite's
 * `<system-out>` has the baseline's lines. A JUnit reader reaches the exit status's verdict: a
 * failure that does not fail the check (below `--fail-on`, or known to the baseline) is a
 * `<skipped>` whose message says why and whose text keeps the whole failure, as in
 * `check-client`'s report.
 *
 * Everything from the candidate is escaped; characters XML 1.0 cannot hold at all (most C0
 * controls, U+FFFE/U+FFFF, lone surrogates) are written as visible `\uXXXX` text. Pure: no I/O.
 */
import type { PropertyId } from '../../model/property-ids.js';
import { countsAt, type FailOn, type Level } from '../../properties/definition.js';
import type { PropertyResult, SuiteReport } from '../check-server/types.js';
import { baselineMark, baselineNote, type BaselineOutcome, type ReportBaseline } from './baseline.js';
import { levelTag, whyLines } from './basis.js';
import { countStatuses, numberSteps, replayLine } from './common.js';
import { causeLine, divergenceLine, followsLine, oracleLines, traceLines } from './findings.js';

/** XML 1.0 `Char` minus what we escape: everything else becomes visible `\uXXXX`. */
const notXmlChar =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: it finds control characters on purpose, to escape them
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xmlSafe(text: string): string {
  return text.replace(notXmlChar, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/**
 * Escapes text for an element's content: `&`, `<` and `>` (so `]]>` cannot appear), CR kept as
 * `&#13;` (a parser would otherwise fold it into LF).
 */
export function escapeXmlText(text: string): string {
  return xmlSafe(text).replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

/**
 * Escapes text for a double-quoted attribute value: `&`, `<`, `>`, `"`, `'`, and tab, LF and CR as
 * character references (attribute-value normalisation would turn them into spaces).
 */
export function escapeXmlAttribute(text: string): string {
  const refs: Record<string, string> = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&apos;',
    '\t': '&#9;',
    '\n': '&#10;',
    '\r': '&#13;',
  };
  return xmlSafe(text).replace(/[&<>"'\t\n\r]/g, (c) => refs[c]!);
}

/** XML attributes from a record (`undefined` values left out), each value escaped. */
export function attributes(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('');
}

/** The text of a `<failure>`: reason, why the property is required, numbered trace, oracle lines, replay flags. */
function failureText(p: PropertyResult, invocation: string | undefined, baseline: BaselineOutcome<PropertyId> | undefined): string {
  const note = baselineNote(baseline, p.id);
  const lines = [
    ...(note !== undefined ? [note, ''] : []),
    p.reason ?? '(no reason given)',
    '',
    'why this is required:',
    ...whyLines(p.level, p.basis).map((l) => `  ${l}`),
  ];
  const c = p.counterexample;
  const cause = causeLine(p);
  if (cause) lines.push('', `${cause}: the same trace as ${p.causedBy!.property}`);
  const follows = cause ? undefined : followsLine(p);
  if (follows) lines.push('', follows);
  if (c) {
    lines.push('', 'trace:', ...numberSteps(traceLines(c.steps)).map((l) => `  ${l}`));
    const oracle = oracleLines(c);
    if (oracle.length > 0) lines.push('', 'oracle:', ...oracle.map((l) => `  ${l}`));
    lines.push('', `replay: ${replayLine(c, invocation)}`);
  }
  return lines.join('\n');
}

/**
 * Why a failure does not fail the check, when it does not: known to the baseline, or below
 * `--fail-on`. A JUnit reader must reach the exit status's verdict, so such a failure is written
 * as `<skipped>` with this as its message (and the failure's text kept).
 *
 * @param level - the level the failure counts at
 * @param failOn - the check's `--fail-on`
 * @param known - the baseline file, when the baseline covers this failure
 * @returns the reason, or undefined for a failure that fails the check
 */
export function notCountedReason(level: Level, failOn: FailOn, known: string | undefined): string | undefined {
  if (known !== undefined) return `known failure (baseline ${known}): does not fail the check`;
  return countsAt(level, failOn) ? undefined : `below --fail-on ${failOn}: does not fail the check`;
}

export interface JunitReportOptions {
  /** The check's `--fail-on` (default `policy`): a failure below it is written as `<skipped>`. */
  failOn?: FailOn;
  /** The command that checked the candidate, without `--seed`/`--path`: prefixes replay lines. */
  invocation?: string;
  /** Wall time of the whole check, ms (default: the interleavings' time, all a suite report knows). */
  ms?: number;
  /** What `--baseline FILE` made of the failures, when one was given. */
  baseline?: ReportBaseline<PropertyId>;
}

/**
 * Renders a suite report as JUnit XML.
 *
 * @param report - what the suite returned
 * @param options - the replay invocation
 * @returns an XML 1.0 document (UTF-8), ending with a newline
 */
export function renderJunit(report: SuiteReport, options: JunitReportOptions = {}): string {
  const counts = countStatuses(report);
  const baseline = options.baseline?.outcome;
  const uncounted = (p: PropertyResult): string | undefined =>
    p.status === 'fail' ? notCountedReason(p.level, options.failOn ?? 'policy', baseline?.known.includes(p.id) ? baseline.file : undefined) : undefined;
  const notFailing = report.properties.filter((p) => uncounted(p) !== undefined).length;
  const suiteName = `mcp-resume-spec.${report.candidate.name}`;
  const ms = options.ms ?? report.interleavings?.ms;
  const time = ms !== undefined ? (ms / 1000).toFixed(3) : undefined;
  const tally = { tests: counts.total, failures: counts.fail - notFailing, errors: 0, skipped: counts.skip + notFailing };
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'mcp-resume-spec', ...tally, time })}>`,
    `  <testsuite${attributes({ name: suiteName, ...tally, time })}>`,
    '    <properties>',
    `      <property${attributes({ name: 'candidate.name', value: report.candidate.name })}/>`,
    `      <property${attributes({ name: 'candidate.url', value: report.candidate.url })}/>`,
  ];
  if (report.candidate.version !== undefined) {
    lines.push(`      <property${attributes({ name: 'candidate.version', value: report.candidate.version })}/>`);
  }
  if (report.interleavings) {
    lines.push(`      <property${attributes({ name: 'seed', value: report.interleavings.seed })}/>`);
    lines.push(`      <property${attributes({ name: 'runs', value: report.interleavings.runs })}/>`);
  }
  if (report.coverage) {
    const c = report.coverage;
    lines.push(`      <property${attributes({ name: 'coverage', value: `${c.reached}/${c.states} states, ${c.scenarios} scenarios` })}/>`);
  }
  if (options.baseline) lines.push(`      <property${attributes({ name: 'baseline', value: options.baseline.outcome.file })}/>`);
  lines.push('    </properties>');
  for (const p of report.properties) {
    const open = `    <testcase${attributes({ classname: suiteName, name: p.id, assertions: p.runs })}>`;
    const mark = baselineMark(baseline, p.id);
    const level = `      <properties><property${attributes({ name: 'level', value: p.level })}/>${mark ? `<property${attributes({ name: 'baseline', value: mark })}/>` : ''}</properties>`;
    const why = uncounted(p);
    if (why !== undefined) {
      lines.push(open, level);
      lines.push(
        `      <skipped${attributes({ message: `${why}: ${levelTag(p.level)} ${p.reason ?? 'property violated'}` })}>${escapeXmlText(failureText(p, options.invocation, baseline))}</skipped>`,
      );
    } else if (p.status === 'fail') {
      lines.push(open, level);
      lines.push(
        `      <failure${attributes({ message: `${levelTag(p.level)} ${p.reason ?? 'property violated'}`, type: 'counterexample' })}>${escapeXmlText(failureText(p, options.invocation, baseline))}</failure>`,
      );
    } else if (p.status === 'skip') {
      lines.push(open, level);
      lines.push(`      <skipped${attributes({ message: p.reason ?? 'skipped' })}/>`);
    } else {
      lines.push(open, level);
      const out = [...(mark === 'fixed' ? [baselineNote(baseline, p.id)!] : []), ...(p.reason ? [p.reason] : [])];
      if (out.length > 0) lines.push(`      <system-out>${escapeXmlText(out.join('\n'))}</system-out>`);
    }
    lines.push('    </testcase>');
  }
  // Divergences are findings, not failures of a property: listed beside the test cases.
  const divergences = report.divergences ?? [];
  if (divergences.length > 0) {
    const text = divergences
      .map((d) =>
        [
          divergenceLine(d),
          '  trace (to the divergence):',
          ...numberSteps(traceLines(d.steps)).map((l) => `    ${l}`),
          `  replay: ${replayLine(d, options.invocation)}`,
        ].join('\n'),
      )
      .join('\n');
    lines.push(`    <system-out>${escapeXmlText(`divergences from the model:\n${text}`)}</system-out>`);
  }
  if (options.baseline) lines.push(`    <system-out>${escapeXmlText(options.baseline.lines.join('\n'))}</system-out>`);
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}

/**
 * JUnit XML for a check that could not be done (exit status 2): one test case, `check`, with an
 * `<error>` carrying the reason, so CI shows why rather than nothing.
 *
 * @param candidate - the candidate's name, and its URL when known
 * @param reason - why the check could not be done
 * @param ms - wall time until it gave up
 */
export function renderJunitError(candidate: { name: string; url?: string }, reason: string, ms?: number): string {
  const suiteName = `mcp-resume-spec.${candidate.name}`;
  const tally = { tests: 1, failures: 0, errors: 1, skipped: 0, time: ms !== undefined ? (ms / 1000).toFixed(3) : undefined };
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'mcp-resume-spec', ...tally })}>`,
    `  <testsuite${attributes({ name: suiteName, ...tally })}>`,
    '    <properties>',
    `      <property${attributes({ name: 'candidate.name', value: candidate.name })}/>`,
    ...(candidate.url !== undefined ? [`      <property${attributes({ name: 'candidate.url', value: candidate.url })}/>`] : []),
    '    </properties>',
    `    <testcase${attributes({ classname: suiteName, name: 'check' })}>`,
    `      <error${attributes({ message: reason.split('\n')[0]!, type: 'check-not-run' })}>${escapeXmlText(reason)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}
