import { describe, expect, test } from 'vitest';
import { basisOf } from '../../properties/definitions.js';
import { applyBaseline, baselineLines } from '../../src/report/baseline.js';
import { escapeXmlAttribute, escapeXmlText, renderJunit } from '../../src/report/junit.js';
import { causedReport, followingReport, nastyReport, nasty, sampleReport } from './sample.js';
import { findAll, parseXml } from './xml-check.js';

describe('JUnit XML', () => {
  test('parses back: one testsuite with the counts, one testcase per property', () => {
    const xml = renderJunit(sampleReport(), { invocation: 'mcp-resume-spec check --url http://127.0.0.1:41234' });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const root = parseXml(xml);
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '4', failures: '2', skipped: '1', errors: '0' });
    const [suite, ...more] = findAll(root, 'testsuite');
    expect(more).toHaveLength(0);
    expect(suite!.attributes).toMatchObject({
      name: 'mcp-resume-spec.@modelcontextprotocol/sdk',
      tests: '4',
      failures: '2',
      skipped: '1',
      errors: '0',
      time: '4.321',
    });
    const cases = findAll(suite!, 'testcase');
    expect(cases.map((c) => c.attributes.name)).toEqual(['no-silent-loss', 'unknown-cursor-rejected', 'order-preserved', 'session-ids-visible-ascii']);
    expect(new Set(cases.map((c) => c.attributes.classname))).toEqual(new Set(['mcp-resume-spec.@modelcontextprotocol/sdk']));
    expect(findAll(suite!, 'failure')).toHaveLength(2);
    expect(findAll(suite!, 'skipped')).toHaveLength(1);

    const failure = findAll(cases[2]!, 'failure')[0]!;
    expect(failure.attributes.message).toBe('[POLICY] r1: seq 3 reached the application before seq 2');
    expect(failure.text).toContain("why this is required:\n  POLICY: this project's rule where the MCP specification is silent.\n");
    expect(failure.text).toContain(
      '  "The server MUST send each of its JSON-RPC messages on only one of the connected streams; that is, it MUST NOT broadcast the same message across multiple streams." (2025-11-25, Multiple Connections: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#multiple-connections)\n',
    );
    expect(failure.text).toContain('  Why this project requires it: An SSE stream is ordered');
    // the level of every test case, as its own property
    expect(cases.map((c) => findAll(c, 'property').map((p) => [p.attributes.name, p.attributes.value]))).toEqual([
      [['level', 'should']],
      [['level', 'policy']],
      [['level', 'policy']],
      [['level', 'must']],
    ]);
    expect(failure.text).toContain('  1. client initializes over streamable -> 200\n');
    expect(failure.text).toContain('  4. connection of r1 drops (unclean: 1 frame(s) in flight or undrained lost)\n');
    expect(failure.text).toContain('replay: mcp-resume-spec check --url http://127.0.0.1:41234 --seed 1234567 --path 12:3:0:0');
    const deterministic = findAll(cases[1]!, 'failure')[0]!;
    expect(deterministic.text).toContain('oracle:\n  step 3: model expects 404 unknown cursor; candidate answered 200, a quiet stream\n');
    expect(deterministic.text).toContain('--path probe:garbage-cursor (deterministic scenario probe:garbage-cursor');
    expect(findAll(cases[3]!, 'skipped')[0]!.attributes.message).toBe('the candidate serves no session IDs');
    const properties = Object.fromEntries(findAll(suite!, 'property').map((p) => [p.attributes.name, p.attributes.value]));
    expect(properties).toMatchObject({ 'candidate.url': 'http://127.0.0.1:41234', 'candidate.version': '1.32.2', seed: '1234567' });
  });

  test('nasty strings: well-formed, and everything XML can hold comes back as it was', () => {
    const report = nastyReport();
    const xml = renderJunit(report);
    // every character is one XML 1.0 allows (its Char production)
    expect(xml).not.toMatch(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
    expect(xml).not.toContain(']]>');
    const root = parseXml(xml);
    const suite = findAll(root, 'testsuite')[0]!;
    // what XML 1.0 cannot hold became visible text; the rest round-trips exactly
    const shown = nasty.replace('\u0001', '\\u0001').replace('\u0007', '\\u0007').replace('\u001b', '\\u001B').replace('\uD800', '\\uD800');
    expect(suite.attributes.name).toBe(`mcp-resume-spec.evil${shown}`);
    const cases = findAll(suite, 'testcase');
    expect(cases[0]!.attributes.classname).toBe(`mcp-resume-spec.evil${shown}`);
    expect(findAll(cases[1]!, 'failure')[0]!.attributes.message).toBe(`[POLICY] ${report.properties[1]!.reason!.replace(nasty, shown)}`);
    expect(findAll(cases[1]!, 'failure')[0]!.text).toContain(`-> 200 ${shown}`);
    expect(findAll(cases[3]!, 'skipped')[0]!.attributes.message).toContain(shown);
  });

  test('a consequence names its cause; divergences are listed in the suite output, not counted as failures', () => {
    const root = parseXml(renderJunit(causedReport()));
    const suite = findAll(root, 'testsuite')[0]!;
    expect(suite.attributes.failures).toBe('3');
    const stall = findAll(suite, 'testcase').find((c) => c.attributes.name === 'no-silent-stall')!;
    expect(findAll(stall, 'failure')[0]!.text).toContain(
      'consequence of unknown-cursor-rejected (same run, step 3): the same trace as unknown-cursor-rejected\n',
    );
    const out = suite.children.filter((c) => c.name === 'system-out');
    expect(out).toHaveLength(1);
    expect(out[0]!.text).toBe(
      'divergences from the model:\ndeviates from the model at step 3 (client resumes r1 over streamable with Last-Event-ID garbage (garbage)): model expects 404 unknown cursor, candidate answered 200, a quiet stream (2 runs)\n' +
        '  trace (to the divergence):\n' +
        '    1. client initializes over streamable -> 200\n' +
        '    2. client calls emit c1 over streamable -> 200\n' +
        '    3. client resumes r1 over streamable with Last-Event-ID garbage (garbage) -> 200, a quiet stream; model expects 404 unknown cursor\n' +
        '  replay: --path coverage:4 (deterministic scenario coverage:4, run on every check)',
    );
  });

  test('a failure that never broke on its own says what it follows from', () => {
    const cases = findAll(parseXml(renderJunit(followingReport())), 'testcase');
    expect(findAll(cases.find((c) => c.attributes.name === 'at-most-once-effect')!, 'failure')[0]!.text).toContain(
      '\nnever failed on its own: every run that broke it also broke unknown-cursor-rejected (or another property of higher precedence) at the same step; fix unknown-cursor-rejected first\n',
    );
  });

  test('escapers', () => {
    expect(escapeXmlText('a <b> & ]]> "q"\r\n')).toBe('a &lt;b&gt; &amp; ]]&gt; "q"&#13;\n');
    expect(escapeXmlAttribute(`<&>"'\t\n\r`)).toBe('&lt;&amp;&gt;&quot;&apos;&#9;&#10;&#13;');
    expect(escapeXmlText('\u0000\u000B\uFFFE\uDC00ok\uD83D\uDE00')).toBe('\\u0000\\u000B\\uFFFE\\uDC00ok\uD83D\uDE00');
    // a multi-line attribute survives attribute-value normalisation
    const root = parseXml(`<a m="${escapeXmlAttribute('one\ntwo\tthree')}"/>`);
    expect(root.attributes.m).toBe('one\ntwo\tthree');
  });

  test('the checker rejects what it should', () => {
    expect(() => parseXml('<a><b></a></b>')).toThrow(/closes/);
    expect(() => parseXml('<a x=1/>')).toThrow(/malformed attribute/);
    expect(() => parseXml('<a>&nbsp;</a>')).toThrow(/unknown entity/);
    expect(() => parseXml('<a>a & b</a>')).toThrow(/bare &/);
    expect(() => parseXml('<a>]]></a>')).toThrow(/]]>/);
    expect(() => parseXml('<a>\u0001</a>')).toThrow(/not allowed/);
    expect(() => parseXml('<a>&#1;</a>')).toThrow(/not an XML 1.0 Char/);
    expect(() => parseXml('<a x="1" x="2"/>')).toThrow(/duplicate/);
    expect(() => parseXml('<a/><b/>')).toThrow(/second root/);
    expect(() => parseXml('<a>')).toThrow(/unclosed/);
  });

  test('a baseline: a failure it covers and a listed one that passes are marked, a new failure is not; its lines in the suite output', () => {
    const report = sampleReport();
    const listed = new Set(['unknown-cursor-rejected', 'no-silent-loss'] as const);
    const outcome = applyBaseline('b.json', listed, report.properties);
    const root = parseXml(renderJunit(report, { baseline: { outcome, lines: baselineLines(outcome, listed, report.properties) } }));
    expect(findAll(findAll(root, 'testsuite')[0]!, 'property').find((p) => p.attributes.name === 'baseline')?.attributes.value).toBe('b.json');
    const cases = new Map(findAll(root, 'testcase').map((c) => [c.attributes.name, c]));
    const mark = (id: string) => findAll(cases.get(id)!, 'property').find((p) => p.attributes.name === 'baseline')?.attributes.value;
    expect([mark('unknown-cursor-rejected'), mark('no-silent-loss'), mark('order-preserved'), mark('session-ids-visible-ascii')]).toEqual([
      'known',
      'fixed',
      undefined,
      undefined,
    ]);
    // A known failure does not fail the check: a JUnit reader must not count it either. Skipped, the detail kept.
    expect(findAll(cases.get('unknown-cursor-rejected')!, 'failure')).toHaveLength(0);
    const known = findAll(cases.get('unknown-cursor-rejected')!, 'skipped')[0]!;
    expect(known.attributes.message).toBe(
      'known failure (baseline b.json): does not fail the check: [POLICY] GET /mcp with an unknown Last-Event-ID was answered 200 with a quiet stream',
    );
    expect(known.text).toMatch(/^known failure: covered by the baseline b\.json, it does not fail the check\n\n/);
    expect(known.text).toContain('replay: ');
    expect(findAll(cases.get('order-preserved')!, 'failure')[0]!.text).not.toContain('baseline');
    expect(findAll(cases.get('no-silent-loss')!, 'system-out')[0]!.text).toBe(
      'FIXED no-silent-loss: listed in the baseline, passes now (remove it from the baseline)\nevery promised event reached the application',
    );
    const suiteOut = findAll(root, 'system-out')
      .map((e) => e.text)
      .at(-1);
    expect(suiteOut).toBe(
      'baseline b.json: 1 known failure(s) do not fail the check (unknown-cursor-rejected)\nFIXED no-silent-loss: listed in the baseline, passes now (remove it from the baseline)',
    );
    // The new failure alone is a failure, as the exit status counts.
    expect(root.attributes).toMatchObject({ failures: '1', skipped: '2' });
  });

  test('a pass with no reason is a testcase with its level only', () => {
    const report = sampleReport();
    report.properties = [{ id: 'event-ids-unique', ...basisOf('event-ids-unique'), status: 'pass', runs: 1 }];
    const root = parseXml(renderJunit(report));
    const [testcase] = findAll(root, 'testcase');
    expect(testcase!.children.map((c) => c.name)).toEqual(['properties']);
    expect(findAll(testcase!, 'property')[0]!.attributes).toEqual({ name: 'level', value: 'must' });
    expect(root.attributes).toMatchObject({ tests: '1', failures: '0', skipped: '0' });
  });

  test('--fail-on: a failure below it is skipped, with why and the whole failure kept; one at or above it stays a failure', () => {
    const report = sampleReport();
    const root = parseXml(renderJunit(report, { failOn: 'must', invocation: 'mcp-resume-spec check --url http://127.0.0.1:41234' }));
    expect(root.attributes).toMatchObject({ tests: '4', failures: '0', skipped: '3' });
    expect(findAll(root, 'failure')).toHaveLength(0);
    const order = findAll(findAll(root, 'testcase').find((c) => c.attributes.name === 'order-preserved')!, 'skipped')[0]!;
    expect(order.attributes.message).toBe('below --fail-on must: does not fail the check: [POLICY] r1: seq 3 reached the application before seq 2');
    expect(order.text).toContain('why this is required:\n');
    expect(order.text).toContain('replay: mcp-resume-spec check --url http://127.0.0.1:41234 --seed 1234567 --path 12:3:0:0');
    // At the default (policy) every failure counts.
    expect(parseXml(renderJunit(report, { failOn: 'policy' })).attributes).toMatchObject({ failures: '2', skipped: '1' });
    // A MUST failure stays a failure at --fail-on must.
    report.properties = report.properties.map((p) => (p.id === 'order-preserved' ? { ...p, level: 'must' as const } : p));
    const must = parseXml(renderJunit(report, { failOn: 'must' }));
    expect(must.attributes).toMatchObject({ failures: '1', skipped: '2' });
    expect(findAll(must, 'failure')[0]!.attributes.message).toBe('[MUST] r1: seq 3 reached the application before seq 2');
  });
});
