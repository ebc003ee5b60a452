import { describe, expect, test } from 'vitest';
import { basisOf } from '../../properties/definitions.js';
import { whyLines } from '../../src/report/basis.js';
import { applyBaseline } from '../../src/report/baseline.js';
import { renderText } from '../../src/report/text.js';
import { causedReport, followingReport, nastyReport, sampleReport } from './sample.js';

describe('text report', () => {
  test('header, one line per property, summary, then each failure with trace, oracle and replay', () => {
    const text = renderText(sampleReport(), { invocation: 'mcp-resume-spec check --adapter src/check-server/candidates/sdk.ts' });
    const lines = text.split('\n');
    expect(text.endsWith('\n')).toBe(true);
    expect(lines[0]).toBe('candidate: @modelcontextprotocol/sdk 1.32.2 at http://127.0.0.1:41234');
    expect(lines[1]).toBe('PASS  [SHOULD]   no-silent-loss             runs 200   every promised event reached the application');
    expect(lines[2]).toBe('FAIL  [POLICY]   unknown-cursor-rejected    runs 3     GET /mcp with an unknown Last-Event-ID was answered 200 with a quiet stream');
    expect(lines[3]).toBe('FAIL  [POLICY]   order-preserved            runs 57    r1: seq 3 reached the application before seq 2');
    expect(lines[4]).toBe('SKIP  [MUST]     session-ids-visible-ascii  runs 0     the candidate serves no session IDs');
    expect(lines[5]).toBe('summary: 1 pass, 2 fail, 1 skip (4 properties)');
    expect(text).toContain('coverage: 38/40 model states reached by 17 scenarios\n');
    expect(text).toContain(
      'abilities: transports streamable at http://127.0.0.1:41234/mcp, sse at http://127.0.0.1:41234/sse; fixtures emit, emitUnsolicited\n',
    );
    expect(text).toContain('interleavings: 200 runs, seed 1234567, 4321 ms\n');

    // the deterministic counterexample: its own numbers kept, its path as the replay
    expect(text).toContain(
      [
        'FAIL [POLICY] unknown-cursor-rejected: GET /mcp with an unknown Last-Event-ID was answered 200 with a quiet stream',
        "  why: POLICY: this project's rule where the MCP specification is silent.",
        ...whyLines('policy', basisOf('unknown-cursor-rejected').basis)
          .slice(1)
          .map((line) => `    ${line}`),
        '  trace:',
        '    1. client initializes over streamable -> 200',
        '    2. client calls emit c1 over streamable -> 200',
        '    3. client resumes r1 over streamable with Last-Event-ID garbage (garbage) -> 200, a quiet stream; model expects 404 unknown cursor',
        '  oracle:',
        '    step 3: model expects 404 unknown cursor; candidate answered 200, a quiet stream',
        '  replay: mcp-resume-spec check --adapter src/check-server/candidates/sdk.ts --path probe:garbage-cursor (deterministic scenario probe:garbage-cursor, run on every check)',
      ].join('\n'),
    );
    // the fast-check counterexample: numbered from 1, seed and path
    expect(text).toContain(
      [
        'FAIL [POLICY] order-preserved: r1: seq 3 reached the application before seq 2',
        "  why: POLICY: this project's rule where the MCP specification is silent.",
        ...whyLines('policy', basisOf('order-preserved').basis)
          .slice(1)
          .map((line) => `    ${line}`),
        '  trace:',
        '    1. client initializes over streamable -> 200',
        '    2. client calls emit c1 over streamable -> 200',
        '    3. client receives a frame on r1 -> r1-1(c1#1)',
        '    4. connection of r1 drops (unclean: 1 frame(s) in flight or undrained lost)',
        '    5. client resumes r1 over streamable with Last-Event-ID r1-1 -> 200, replays [r1-3(c1#3) r1-2(c1#2)]',
        '  replay: mcp-resume-spec check --adapter src/check-server/candidates/sdk.ts --seed 1234567 --path 12:3:0:0',
      ].join('\n'),
    );
    // the why block quotes the newest revision, with its source
    expect(text).toContain(
      '    "When a client receives HTTP 404 in response to a request containing an MCP-Session-Id, it MUST start a new session by sending a new InitializeRequest without a session ID attached." (2025-11-25, Session Management: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management)\n',
    );
    expect(text).toContain('    Seed claims: 003-quiet-stream, 003-rule (what the incident write-ups claim that this bears on, judged in docs/claims.md)\n');
    expect(text).not.toContain('\u001b');
  });

  test('greppable: every property line starts with its status word', () => {
    const text = renderText(sampleReport());
    expect(text.match(/^(PASS|FAIL|SKIP) {2}\[(MUST|DERIVED|SHOULD|POLICY)\] +\S+/gm)).toHaveLength(4);
    expect(text).toMatch(/^ {2}replay: --seed 1234567 --path 12:3:0:0$/m);
  });

  test('a baseline marks a failure it covers (known) and a listed one that passes (FIXED) before the reason; a new failure is unmarked', () => {
    const report = sampleReport();
    const baseline = applyBaseline('b.json', new Set(['unknown-cursor-rejected', 'no-silent-loss'] as const), report.properties);
    const lines = renderText(report, { baseline }).split('\n');
    expect(lines[1]).toBe('PASS  [SHOULD]   no-silent-loss             runs 200   (FIXED) every promised event reached the application');
    expect(lines[2]).toBe(
      'FAIL  [POLICY]   unknown-cursor-rejected    runs 3     (known) GET /mcp with an unknown Last-Event-ID was answered 200 with a quiet stream',
    );
    expect(lines[3]).toBe('FAIL  [POLICY]   order-preserved            runs 57    r1: seq 3 reached the application before seq 2');
  });

  test('colours only when asked', () => {
    const text = renderText(sampleReport(), { color: true });
    expect(text).toContain('\u001b[32mPASS\u001b[0m  [SHOULD]   no-silent-loss');
    expect(text).toContain('\u001b[31mFAIL\u001b[0m  [POLICY]   order-preserved');
    expect(text).toContain('\u001b[33mSKIP\u001b[0m  [MUST]     session-ids-visible-ascii');
  });

  test("a candidate's control characters cannot break lines or inject colours", () => {
    const text = renderText(nastyReport());
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0001');
    expect(text).toContain('x\\u0001y\\u0007z\\u001B[31m \\uD800');
    // one line per property still
    expect(text.match(/^(PASS|FAIL|SKIP) {2}/gm)).toHaveLength(4);
    // an odd path is quoted for the shell
    expect(text).toMatch(/replay: --path 'probe:a<b>&c "q" '\\''s'\\'' /);
  });

  test('a failure without a counterexample says so', () => {
    const report = sampleReport();
    report.properties = [{ id: 'no-silent-stall', ...basisOf('no-silent-stall'), status: 'fail', runs: 1, reason: 'request r1 never answered' }];
    const text = renderText(report);
    expect(text).toContain('FAIL [SHOULD] no-silent-stall: request r1 never answered\n  why: SHOULD: a SHOULD of the MCP specification.\n');
    expect(text).toContain('    How it follows: JSON-RPC 2.0');
    expect(text).toMatch(/\n {2}\(no counterexample recorded\)\n$/);
  });

  test('one observation, several failures: the cause is named once, its consequences listed under it and not traced again', () => {
    const text = renderText(causedReport());
    // per-property statuses stay
    expect(text).toMatch(/^FAIL {2}\[\w+\] +no-silent-stall +runs 3 /m);
    expect(text).toContain(['root causes (one observation, several failures):', '  unknown-cursor-rejected (step 3)', '    -> no-silent-stall'].join('\n'));
    const at = text.indexOf('] no-silent-stall:');
    expect(at).toBeGreaterThan(0);
    const section = text.slice(at);
    expect(section).toContain('  consequence of unknown-cursor-rejected (same run, step 3): trace under unknown-cursor-rejected\n');
    expect(section.split('\n  replay:')[0]).not.toContain('  trace:');
    // the cause's own section still has the trace
    expect(text.match(/^ {2}trace:$/gm)).toHaveLength(2);
    // what the trace's short names stand for, once, for the names it uses (c1 and r1; no request, no legacy stream)
    expect(text).toContain(
      "\nnames in traces: c1, c2...: tool calls, in the order the client made them (c1#2: notification 2 of c1; on the wire its label ends in -c1); rN: a POST's response stream; a stream's N is its place among the streams its session opened, from 0\n",
    );
    const passing = sampleReport();
    passing.properties = passing.properties.filter((p) => p.status !== 'fail');
    expect(renderText(passing)).not.toContain('names in traces');
  });

  test('a failure that never broke on its own says what it follows from, and keeps its own trace', () => {
    const text = renderText(followingReport());
    const section = text.slice(text.indexOf('] at-most-once-effect:'));
    expect(section).toContain(
      '\n  never failed on its own: every run that broke it also broke unknown-cursor-rejected (or another property of higher precedence) at the same step; fix unknown-cursor-rejected first\n  trace:\n',
    );
    expect(renderText(causedReport())).not.toContain('never failed on its own');
  });

  test('a divergence from the model is a finding of its own, with its replay', () => {
    const text = renderText(causedReport());
    expect(text).toContain(
      [
        'DIVERGENCE deviates from the model at step 3 (client resumes r1 over streamable with Last-Event-ID garbage (garbage)): model expects 404 unknown cursor, candidate answered 200, a quiet stream (2 runs)',
        // The run's own steps, so that "step 3" reads against them.
        '  trace (to the divergence):',
        '    1. client initializes over streamable -> 200',
        '    2. client calls emit c1 over streamable -> 200',
        '    3. client resumes r1 over streamable with Last-Event-ID garbage (garbage) -> 200, a quiet stream; model expects 404 unknown cursor',
        '  replay: --path coverage:4 (deterministic scenario coverage:4, run on every check)',
      ].join('\n'),
    );
    expect(renderText(sampleReport())).not.toContain('DIVERGENCE');
  });
});

describe('a failure graded below its property', () => {
  test("says so under why: the level it rests on, which failures, and why; the property's own level says nothing of it", () => {
    const { basis } = basisOf('no-silent-loss');
    const graded = whyLines('policy', basis);
    expect(graded[0]).toBe("POLICY: this project's rule where the MCP specification is silent.");
    expect(graded.at(-2)).toMatch(
      /^Graded POLICY here, below the property's level: only notifications were lost \(every response arrived, or the stream carries none, as the standalone stream\)\. No MUST or SHOULD states/,
    );
    expect(whyLines('should', basis).join('\n')).not.toContain('Graded');
  });
});
