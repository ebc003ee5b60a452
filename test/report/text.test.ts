import { describe, expect, test } from 'vitest';
import { renderText } from '../../src/report/text.js';
import { nastyReport, sampleReport } from './sample.js';

describe('text report', () => {
  test('header, one line per property, summary, then each failure with trace, oracle and replay', () => {
    const text = renderText(sampleReport(), { invocation: 'mcp-resume-spec check --adapter src/candidates/sdk.ts' });
    const lines = text.split('\n');
    expect(text.endsWith('\n')).toBe(true);
    expect(lines[0]).toBe('candidate: @modelcontextprotocol/sdk 1.32.2 at http://127.0.0.1:41234');
    expect(lines[1]).toBe('PASS  no-silent-loss             runs 200   every promised event reached the application');
    expect(lines[2]).toBe(
      'FAIL  unknown-cursor-rejected    runs 3     GET /mcp with an unknown Last-Event-ID was answered 200 with a quiet stream',
    );
    expect(lines[3]).toBe('FAIL  order-preserved            runs 57    r1: seq 3 reached the application before seq 2');
    expect(lines[4]).toBe('SKIP  session-ids-secure         runs 0     the candidate serves no session IDs');
    expect(lines[5]).toBe('summary: 1 pass, 2 fail, 1 skip (4 properties)');
    expect(text).toContain('coverage: 38/40 model states reached by 17 scenarios\n');
    expect(text).toContain('interleavings: 200 runs, seed 1234567, 4321 ms\n');

    // the deterministic counterexample: its own numbers kept, its path as the replay
    expect(text).toContain(
      [
        'FAIL unknown-cursor-rejected: GET /mcp with an unknown Last-Event-ID was answered 200 with a quiet stream',
        '  trace:',
        '    1. client initializes over streamable -> 200',
        '    2. client calls emit c1 over streamable -> 200',
        '    3. client resumes r1 over streamable with Last-Event-ID garbage (garbage) -> 200, a quiet stream',
        '  oracle:',
        '    model: 404 unknown cursor',
        '    candidate: 200 text/event-stream, nothing replayed',
        '  replay: mcp-resume-spec check --adapter src/candidates/sdk.ts --path probe:garbage-cursor (deterministic scenario probe:garbage-cursor, run on every check)',
      ].join('\n'),
    );
    // the fast-check counterexample: numbered from 1, seed and path
    expect(text).toContain(
      [
        'FAIL order-preserved: r1: seq 3 reached the application before seq 2',
        '  trace:',
        '    1. client initializes over streamable -> 200',
        '    2. client calls emit c1 over streamable -> 200',
        '    3. client receives a frame on r1 -> r1-1(c1#1)',
        '    4. connection of r1 drops (unclean: 1 frame(s) in flight or undrained lost)',
        '    5. client resumes r1 over streamable with Last-Event-ID r1-1 -> 200, replays [r1-3(c1#3) r1-2(c1#2)]',
        '  replay: mcp-resume-spec check --adapter src/candidates/sdk.ts --seed 1234567 --path 12:3:0:0',
      ].join('\n'),
    );
    expect(text).not.toContain('\u001b');
  });

  test('greppable: every property line starts with its status word', () => {
    const text = renderText(sampleReport());
    expect(text.match(/^(PASS|FAIL|SKIP) {2}\S+/gm)).toHaveLength(4);
    expect(text).toMatch(/^ {2}replay: --seed 1234567 --path 12:3:0:0$/m);
  });

  test('colours only when asked', () => {
    const text = renderText(sampleReport(), { color: true });
    expect(text).toContain('\u001b[32mPASS\u001b[0m  no-silent-loss');
    expect(text).toContain('\u001b[31mFAIL\u001b[0m  order-preserved');
    expect(text).toContain('\u001b[33mSKIP\u001b[0m  session-ids-secure');
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
    report.properties = [{ id: 'no-silent-stall', status: 'fail', runs: 1, reason: 'request r1 never answered' }];
    expect(renderText(report)).toContain('FAIL no-silent-stall: request r1 never answered\n  (no counterexample recorded)\n');
  });
});
