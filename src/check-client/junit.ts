/**
 * JUnit XML for `check-client --junit FILE`: one `<testsuite>` per check, one `<testcase>` per
 * client property (classname `mcp-resume-spec.client.<client name>`, the name a built-in client or
 * the adapter's file name, never a path: stable across machines; its level as the testcase
 * property `level`), `<failure>` with the reason, why the property is required, the trace and the
 * replay flags; `<skipped>` with the reason. A check that could not be done (exit status 2) has a
 * test case `check` with an `<error>` saying why, as `check`'s. With a baseline, a property it
 * covers or that it lists and now passes has the testcase property `baseline` (`known`, `fixed`)
 * and its line (first in a known failure's text, in a fixed one's `<system-out>`); the suite's
 * `<system-out>` has the baseline's lines as the text report prints them. A JUnit reader reaches
 * the exit status's verdict: a failure below `--fail-on` or known to the baseline is a `<skipped>`
 * whose message says why and whose text keeps the whole failure.
 * Escaping as the server report's. Pure: no I/O.
 */
import { clientDefinitions } from '../../properties/client/definitions.js';
import { baselineMark, baselineNote } from '../report/baseline.js';
import { levelTag, whyLines } from '../report/basis.js';
import type { FailOn } from '../../properties/definition.js';
import { attributes, escapeXmlText, notCountedReason } from '../report/junit.js';
import {
  clientBaselineLines,
  clientCheckError,
  clientReplayFlags,
  renderTrace,
  type ClientBaseline,
  type ClientPropertyResult,
  type ClientReport,
} from './report.js';

function failureText(p: ClientPropertyResult, invocation: string, baseline: ClientBaseline | undefined): string {
  const { id: _id, level, ...basis } = clientDefinitions[p.id];
  const note = baselineNote(baseline, p.id);
  const lines = [
    ...(note !== undefined ? [note, ''] : []),
    p.reason ?? '(no reason given)',
    '',
    'why this is required:',
    ...whyLines(level, basis).map((l) => `  ${l}`),
  ];
  const c = p.counterexample;
  if (c) {
    lines.push('', `scenario ${c.scenario} [${c.transport}, ${c.policy}]; faults: ${c.faults.join('; ') || 'none'}`);
    lines.push('', 'trace:', ...renderTrace(c.history, c.at).map((l) => `  ${l}`));
    lines.push('', `replay: ${invocation} ${clientReplayFlags(c)}`);
  }
  return lines.join('\n');
}

const suiteName = (client: ClientReport['client']): string => `mcp-resume-spec.client.${client.name}`;

/** The test case that makes a check that could not be done an error on a CI dashboard. */
function errorCase(client: ClientReport['client'], reason: string): string[] {
  return [
    `    <testcase${attributes({ classname: suiteName(client), name: 'check' })}>`,
    `      <error${attributes({ message: reason.split('\n')[0]!, type: 'check-not-run' })}>${escapeXmlText(reason)}</error>`,
    '    </testcase>',
  ];
}

/**
 * Renders a client report as JUnit XML.
 * @param invocation - the command that checked the client, without `--seed`/`--path`
 * @param baseline - what `--baseline FILE` made of the failures, when one was given
 * @param failOn - the check's `--fail-on` (default `policy`): a failure below it is a `<skipped>`
 * @returns an XML 1.0 document ending with a newline
 */
export function renderClientJunit(report: ClientReport, invocation: string, baseline?: ClientBaseline, failOn: FailOn = 'policy'): string {
  // Every scenario failed to run: the properties are skipped, and the check itself is an error.
  const error = clientCheckError(report);
  const counts = { tests: report.properties.length + (error !== undefined ? 1 : 0), failures: 0, errors: error !== undefined ? 1 : 0, skipped: 0 };
  const uncounted = (p: ClientPropertyResult): string | undefined =>
    p.status === 'fail' ? notCountedReason(p.level, failOn, baseline?.known.includes(p.id) ? baseline.file : undefined) : undefined;
  for (const p of report.properties) {
    if (p.status === 'fail' && uncounted(p) === undefined) counts.failures++;
    if (p.status === 'skip' || uncounted(p) !== undefined) counts.skipped++;
  }
  const suite = suiteName(report.client);
  const time = report.ms !== undefined ? (report.ms / 1000).toFixed(3) : undefined;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'mcp-resume-spec check-client', ...counts, time })}>`,
    `  <testsuite${attributes({ name: suite, ...counts, time })}>`,
    '    <properties>',
    `      <property${attributes({ name: 'client.name', value: report.client.name })}/>`,
    ...(report.client.adapter !== undefined ? [`      <property${attributes({ name: 'client.adapter', value: report.client.adapter })}/>`] : []),
    `      <property${attributes({ name: 'timeoutMs', value: report.timeoutMs })}/>`,
    `      <property${attributes({ name: 'scenarios', value: report.scenarios.length })}/>`,
    ...(baseline ? [`      <property${attributes({ name: 'baseline', value: baseline.file })}/>`] : []),
  ];
  if (report.interleavings) {
    lines.push(`      <property${attributes({ name: 'seed', value: report.interleavings.seed })}/>`);
    lines.push(`      <property${attributes({ name: 'runs', value: report.interleavings.runs })}/>`);
  }
  lines.push('    </properties>');
  for (const p of report.properties) {
    lines.push(`    <testcase${attributes({ classname: suite, name: p.id, assertions: p.runs })}>`);
    const mark = baselineMark(baseline, p.id);
    lines.push(
      `      <properties><property${attributes({ name: 'level', value: p.level })}/>${mark ? `<property${attributes({ name: 'baseline', value: mark })}/>` : ''}</properties>`,
    );
    const why = uncounted(p);
    if (why !== undefined) {
      lines.push(
        `      <skipped${attributes({ message: `${why}: ${levelTag(p.level)} ${p.reason ?? 'property violated'}` })}>${escapeXmlText(failureText(p, invocation, baseline))}</skipped>`,
      );
    } else if (p.status === 'fail') {
      lines.push(
        `      <failure${attributes({ message: `${levelTag(p.level)} ${p.reason ?? 'property violated'}`, type: 'counterexample' })}>${escapeXmlText(failureText(p, invocation, baseline))}</failure>`,
      );
    } else if (p.status === 'skip') {
      lines.push(`      <skipped${attributes({ message: p.reason ?? 'skipped' })}/>`);
    } else if (mark === 'fixed') {
      lines.push(`      <system-out>${escapeXmlText(baselineNote(baseline, p.id)!)}</system-out>`);
    }
    lines.push('    </testcase>');
  }
  if (error !== undefined) lines.push(...errorCase(report.client, error));
  const out = [...(report.abilities?.notes ?? []).map((note) => `note: ${note}`), ...(baseline ? clientBaselineLines(report, baseline) : [])];
  if (out.length > 0) lines.push(`    <system-out>${escapeXmlText(out.join('\n'))}</system-out>`);
  const broken = report.scenarios.filter((s) => s.error !== undefined);
  if (broken.length > 0)
    lines.push(`    <system-err>${escapeXmlText(broken.map((s) => `scenario ${s.name} could not run: ${s.error}`).join('\n'))}</system-err>`);
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}

/**
 * JUnit XML for a check that could not be done before any scenario ran (exit status 2): one test
 * case, `check`, with an `<error>` carrying the reason.
 * @param client - the client as far as it is known
 * @param reason - why the check could not be done
 * @param ms - wall time until it gave up
 */
export function renderClientJunitError(client: ClientReport['client'], reason: string, ms?: number): string {
  const tally = { tests: 1, failures: 0, errors: 1, skipped: 0, time: ms !== undefined ? (ms / 1000).toFixed(3) : undefined };
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'mcp-resume-spec check-client', ...tally })}>`,
    `  <testsuite${attributes({ name: suiteName(client), ...tally })}>`,
    '    <properties>',
    `      <property${attributes({ name: 'client.name', value: client.name })}/>`,
    ...(client.adapter !== undefined ? [`      <property${attributes({ name: 'client.adapter', value: client.adapter })}/>`] : []),
    '    </properties>',
    ...errorCase(client, reason),
    '  </testsuite>',
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}
