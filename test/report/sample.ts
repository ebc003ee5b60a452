/** Sample suite reports for the report tests. */
import { basisOf } from '../../properties/definitions.js';
import type { SuiteReport } from '../../src/check-server/types.js';

/** A control character, a lone surrogate, CDATA end, markup and entities: what a hostile candidate might answer. */
export const nasty = 'a<b>&c "q" \'s\' ]]> x\u0001y\u0007z\u001b[31m \uD800 #1; 50% `tick` | *star* _u_ [l](x)';

export function sampleReport(): SuiteReport {
  return {
    candidate: { name: '@modelcontextprotocol/sdk', version: '1.32.2', url: 'http://127.0.0.1:41234' },
    properties: [
      { id: 'no-silent-loss', ...basisOf('no-silent-loss'), status: 'pass', runs: 200, reason: 'every promised event reached the application' },
      {
        id: 'unknown-cursor-rejected',
        ...basisOf('unknown-cursor-rejected'),
        status: 'fail',
        runs: 3,
        reason: 'GET /mcp with an unknown Last-Event-ID was answered 200 with a quiet stream',
        counterexample: {
          steps: [
            { index: 1, kind: 'initialize', actor: 'client', transport: 'streamable', answer: { status: 200 } },
            { index: 2, kind: 'call', actor: 'client', tool: 'emit', call: 'c1', transport: 'streamable', answer: { status: 200 } },
            {
              index: 3,
              kind: 'resume',
              actor: 'client',
              stream: 'r1',
              transport: 'streamable',
              cursor: { value: 'garbage', origin: 'garbage' },
              answer: { status: 200, stream: 'quiet' },
              expected: { status: 404, reason: 'unknown cursor' },
            },
          ],
          seed: -1,
          path: 'probe:garbage-cursor',
        },
      },
      {
        id: 'order-preserved',
        ...basisOf('order-preserved'),
        status: 'fail',
        runs: 57,
        reason: 'r1: seq 3 reached the application before seq 2',
        counterexample: {
          steps: [
            { index: 1, kind: 'initialize', actor: 'client', transport: 'streamable', answer: { status: 200 } },
            { index: 2, kind: 'call', actor: 'client', tool: 'emit', call: 'c1', transport: 'streamable', answer: { status: 200 } },
            { index: 3, kind: 'receive', actor: 'client', stream: 'r1', answer: { frames: [{ id: 'r1-1', call: 'c1', seq: 1 }] } },
            { index: 4, kind: 'drop', actor: 'connection', stream: 'r1', lost: 1, answer: {} },
            {
              index: 5,
              kind: 'resume',
              actor: 'client',
              stream: 'r1',
              transport: 'streamable',
              cursor: { value: 'r1-1', origin: 'own' },
              answer: {
                status: 200,
                stream: 'replay',
                frames: [
                  { id: 'r1-3', call: 'c1', seq: 3 },
                  { id: 'r1-2', call: 'c1', seq: 2 },
                ],
              },
            },
          ],
          seed: 1234567,
          path: '12:3:0:0',
        },
      },
      { id: 'session-ids-visible-ascii', ...basisOf('session-ids-visible-ascii'), status: 'skip', runs: 0, reason: 'the candidate serves no session IDs' },
    ],
    coverage: { states: 40, reached: 38, scenarios: 17 },
    interleavings: { runs: 200, seed: 1234567, ms: 4321.4 },
    abilities: {
      transports: ['streamable', 'sse'],
      fixtures: { emit: true, emitUnsolicited: true, sessionInfo: false },
      notes: [],
      endpoints: { streamable: 'http://127.0.0.1:41234/mcp', sse: 'http://127.0.0.1:41234/sse' },
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
      ? {
          counterexample: {
            ...p.counterexample,
            steps: p.counterexample.steps.map((s) => ({
              ...s,
              detail: nasty,
              answer: { ...s.answer, reason: nasty },
              ...(s.expected ? { expected: { reason: nasty } } : {}),
            })),
            path: `probe:${nasty}`,
          },
        }
      : {}),
  }));
  return report;
}

/**
 * The sample with one observation behind two failures (no-silent-stall rests on the same run and
 * step as unknown-cursor-rejected) and the divergence that run showed.
 */
export function causedReport(): SuiteReport {
  const report = sampleReport();
  const cause = report.properties[1]!;
  report.properties.push({
    id: 'no-silent-stall',
    ...basisOf('no-silent-stall'),
    status: 'fail',
    runs: 3,
    reason: 'request q1 (c1) was never answered',
    counterexample: cause.counterexample!,
    causedBy: { property: 'unknown-cursor-rejected', step: 3 },
  });
  const step = cause.counterexample!.steps[2]!;
  report.divergences = [
    { step: { ...step, expected: step.expected! }, seed: -1, path: 'coverage:4', steps: cause.counterexample!.steps.slice(0, step.index), runs: 2 },
  ];
  return report;
}

/**
 * {@link causedReport} with at-most-once-effect failing in a run of its own that also broke
 * unknown-cursor-rejected at the same step, as every run that broke it did: it follows from it.
 */
export function followingReport(): SuiteReport {
  const report = causedReport();
  const cause = report.properties[1]!;
  report.properties.push({
    id: 'at-most-once-effect',
    ...basisOf('at-most-once-effect'),
    status: 'fail',
    runs: 4,
    reason: 'the side effect of emit c1 ran 2 times',
    counterexample: { ...cause.counterexample!, path: 'coverage:9' },
    followsFrom: 'unknown-cursor-rejected',
  });
  return report;
}
