/** Sample suite reports for the report tests. */
import type { SuiteReport } from '../../src/suite/types.js';

/** A control character, a lone surrogate, CDATA end, markup and entities: what a hostile candidate might answer. */
export const nasty = 'a<b>&c "q" \'s\' ]]> x\u0001y\u0007z\u001b[31m \uD800 #1; 50% `tick` | *star* _u_ [l](x)';

export function sampleReport(): SuiteReport {
  return {
    candidate: { name: '@modelcontextprotocol/sdk', version: '1.32.2', url: 'http://127.0.0.1:41234' },
    properties: [
      { id: 'no-silent-loss', status: 'pass', runs: 200, reason: 'every promised event reached the application' },
      {
        id: 'unknown-cursor-rejected',
        status: 'fail',
        runs: 3,
        reason: 'GET /mcp with an unknown Last-Event-ID was answered 200 with a quiet stream',
        counterexample: {
          steps: [
            ' 1. client initializes over streamable -> 200',
            ' 2. client calls emit c1 over streamable -> 200',
            ' 3. client resumes r1 over streamable with Last-Event-ID garbage (garbage) -> 200, a quiet stream',
          ],
          seed: -1,
          path: 'probe:garbage-cursor',
          oracle: ['model: 404 unknown cursor', 'candidate: 200 text/event-stream, nothing replayed'],
        },
      },
      {
        id: 'order-preserved',
        status: 'fail',
        runs: 57,
        reason: 'r1: seq 3 reached the application before seq 2',
        counterexample: {
          steps: [
            'client initializes over streamable -> 200',
            'client calls emit c1 over streamable -> 200',
            'client receives a frame on r1 -> r1-1(c1#1)',
            'connection of r1 drops (unclean: 1 frame(s) in flight or undrained lost)',
            'client resumes r1 over streamable with Last-Event-ID r1-1 -> 200, replays [r1-3(c1#3) r1-2(c1#2)]',
          ],
          seed: 1234567,
          path: '12:3:0:0',
        },
      },
      { id: 'session-ids-secure', status: 'skip', runs: 0, reason: 'the candidate serves no session IDs' },
    ],
    coverage: { states: 40, reached: 38, scenarios: 17 },
    interleavings: { runs: 200, seed: 1234567, ms: 4321.4 },
    abilities: {
      transports: ['streamable', 'sse'],
      fixtures: { emit: true, emitUnsolicited: true, sessionInfo: false },
      notes: [],
    },
  };
}

/** The sample with hostile text in every free-text field. */
export function nastyReport(): SuiteReport {
  const report = sampleReport();
  report.candidate = { name: `evil${nasty}`, version: nasty, url: 'http://127.0.0.1:1/?a=1&b=<2>' };
  report.properties = report.properties.map((p) => ({
    ...p,
    reason: `${p.reason} ${nasty}`,
    ...(p.counterexample
      ? { counterexample: { ...p.counterexample, steps: p.counterexample.steps.map((s) => `${s} ${nasty}`), oracle: [nasty], path: `probe:${nasty}` } }
      : {}),
  }));
  return report;
}
