/**
 * JUnit XML for CI (`mcp-resume-spec check --junit FILE`): one `<testsuite>` per check, one
 * `<testcase>` per property (classname `mcp-resume-spec.<candidate name>`, name the property id),
 * `<failure>` with the counterexample's trace as text, `<skipped>` with the reason.
 *
 * Everything from the candidate is escaped; characters XML 1.0 cannot hold at all (most C0
 * controls, U+FFFE/U+FFFF, lone surrogates) are written as visible `\uXXXX` text. Pure: no I/O.
 */
import type { PropertyResult, SuiteReport } from '../suite/types.js';
import { countStatuses, numberSteps, replayLine } from './common.js';

/** XML 1.0 `Char` minus what we escape: everything else becomes visible `\uXXXX`. */
const notXmlChar =
  // eslint-disable-next-line no-control-regex
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

function attributes(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('');
}

/** The text of a `<failure>`: reason, numbered trace, oracle lines, replay flags. */
function failureText(p: PropertyResult, invocation: string | undefined): string {
  const lines = [p.reason ?? '(no reason given)'];
  const c = p.counterexample;
  if (c) {
    lines.push('', 'trace:', ...numberSteps(c.steps).map((l) => `  ${l}`));
    if (c.oracle && c.oracle.length > 0) lines.push('', 'oracle:', ...c.oracle.map((l) => `  ${l}`));
    lines.push('', `replay: ${replayLine(c, invocation)}`);
  }
  return lines.join('\n');
}

export interface JunitReportOptions {
  /** The command that checked the candidate, without `--seed`/`--path`: prefixes replay lines. */
  invocation?: string;
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
  const suiteName = `mcp-resume-spec.${report.candidate.name}`;
  const time = report.interleavings ? (report.interleavings.ms / 1000).toFixed(3) : undefined;
  const tally = { tests: counts.total, failures: counts.fail, errors: 0, skipped: counts.skip };
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
  lines.push('    </properties>');
  for (const p of report.properties) {
    const open = `    <testcase${attributes({ classname: suiteName, name: p.id, assertions: p.runs })}`;
    if (p.status === 'fail') {
      lines.push(`${open}>`);
      lines.push(
        `      <failure${attributes({ message: p.reason ?? 'property violated', type: 'counterexample' })}>${escapeXmlText(failureText(p, options.invocation))}</failure>`,
      );
      lines.push('    </testcase>');
    } else if (p.status === 'skip') {
      lines.push(`${open}>`);
      lines.push(`      <skipped${attributes({ message: p.reason ?? 'skipped' })}/>`);
      lines.push('    </testcase>');
    } else if (p.reason) {
      lines.push(`${open}>`);
      lines.push(`      <system-out>${escapeXmlText(p.reason)}</system-out>`);
      lines.push('    </testcase>');
    } else {
      lines.push(`${open}/>`);
    }
  }
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}
