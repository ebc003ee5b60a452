/**
 * The driver presents only cursors it has: a stale resume without an earlier session's event ID is
 * left out (a divergence), never sent with a made-up cursor; against a candidate that offers no
 * resumption, a made-up cursor on a stream that never sent an event ID is not presented at all; and
 * the stale-cursor coverage scenario shows what accepting an unplaceable cursor costs.
 */
import { afterEach, expect, test } from 'vitest';
import { garbageCursor } from '../../model/world.js';
import type { WorldStep } from '../../model/world-types.js';
import type { History } from '../../properties/history.js';
import startReference from '../../src/check-server/candidates/reference.js';
import type { RunningCandidate } from '../../src/check-server/candidates/adapter.js';
import noPriming from '../../src/check-server/candidates/variants/no-priming.js';
import noResumption from '../../src/check-server/candidates/variants/no-resumption.js';
import { mutantByName } from '../../src/check-server/mutants/index.js';
import { probeAbilities } from '../../src/check-server/abilities.js';
import { boundsOf, candidateBounds, planCoverage, staleCursorPath } from '../../src/check-server/coverage.js';
import { referenceClient } from '../../src/check-server/run-suite.js';
import { runSteps, type ScenarioContext } from '../../src/check-server/scenario.js';
import { judgeHistory } from '../../src/check-server/verdicts.js';
import { traceLines } from '../../src/report/findings.js';

let running: RunningCandidate | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function contextFor(start: () => Promise<RunningCandidate>, name: string): Promise<ScenarioContext> {
  running = await start();
  const target = { name, url: running.url };
  const abilities = await probeAbilities(target, 3000);
  return { target, abilities, client: referenceClient, timeoutMs: 3000, runTag: `cursors-${name}` };
}

/** The Last-Event-ID values the client presented. */
function presented(record: { history: History }): string[] {
  return record.history.entries.flatMap((e) => (e.type === 'request' && e.lastEventId !== undefined ? [e.lastEventId] : []));
}

test('a stale resume with no earlier event ID to carry over is left out as a divergence, not sent with a made-up cursor', async () => {
  // Without priming events, the first session's standalone stream never gives the client an event ID.
  const context = await contextFor(noPriming, 'no-priming');
  const bounds = candidateBounds(context.abilities, { calls: 2, notifications: 1, drops: 1, resumes: 1, inFlight: 1, undrained: 1 });
  const path: WorldStep[] = [
    { type: 'INITIALIZE', transport: 'streamable' },
    { type: 'DELETE' },
    { type: 'INITIALIZE', transport: 'streamable' },
    { type: 'CALL', unsolicited: false },
    { type: 'DROP', stream: 'r1' },
    { type: 'RESUME', stream: 'r1', via: 'same', cursor: 'stale' },
  ];
  const record = await runSteps(context, bounds, path, { seed: -1, path: 'test' });
  const resume = record.steps.find((s) => s.kind === 'resume')!;
  expect(resume.cursor).toEqual({ value: null, origin: 'stale' });
  // Said as what it is: no earlier session's ID, though this session's stream may have sent one.
  expect(resume.answer).toEqual({ error: 'no earlier session gave an event ID to present as a stale cursor' });
  expect(traceLines([resume])[0]).toMatch(
    /^6\. client resumes r1 over streamable with no stale Last-Event-ID\b.* -> no earlier session gave an event ID to present as a stale cursor\b/,
  );
  expect(resume.expected).toEqual({ missing: 'cursor' });
  expect(presented(record)).not.toContain(garbageCursor);
}, 60_000);

test('without resumption offered, a made-up cursor on a stream that never sent an event ID is not presented', async () => {
  const context = await contextFor(noResumption, 'no-resumption');
  expect(context.abilities.resumption?.offered).toBe(false);
  expect(context.abilities.fixtures.emitUnsolicited).toBe(true);
  const bounds = candidateBounds(context.abilities, { calls: 1, notifications: 1, drops: 1, resumes: 1, inFlight: 1, undrained: 1 });
  // The standalone stream owes an unsolicited notification; once it is gone, the SDK answers a GET
  // with a new standalone stream, whatever its Last-Event-ID.
  const path: WorldStep[] = [
    { type: 'INITIALIZE', transport: 'streamable' },
    { type: 'CALL', unsolicited: true },
    { type: 'DROP', stream: 's0' },
    { type: 'RESUME', stream: 's0', via: 'same', cursor: 'garbage' },
  ];
  const record = await runSteps(context, bounds, path, { seed: -1, path: 'test' });
  // The resume is left out; the scenario ends asking session_info, a step of its own.
  expect(record.steps.map((s) => `${s.kind}${s.tool === 'session_info' ? ' session_info' : ''}`)).toEqual(['initialize', 'call', 'drop', 'call session_info']);
  expect(record.followed).toBe(3);
  expect(presented(record)).toEqual([]);
  // The same step is presented once the candidate is taken to offer resumption: a probe of its answer.
  const offered = { ...context, abilities: { ...context.abilities, resumption: { ...context.abilities.resumption!, offered: true } } };
  const probed = await runSteps(offered, bounds, path, { seed: -1, path: 'test' });
  expect(presented(probed)).toEqual([garbageCursor]);
  expect(probed.steps.find((s) => s.kind === 'resume')!.answer).toEqual({ status: 200 });
  // The accepted probe never became the standalone stream's handle: the scenario's end did not wait
  // on it for the notification lost with the dropped stream.
  const waits = probed.history.entries.filter((e) => e.type === 'failure' && e.reason === 'timeout');
  expect(waits).toEqual([]);
}, 60_000);

test('the stale-cursor coverage scenario: unknown-cursor-200 loses, stalls and runs the call twice; the reference passes', async () => {
  for (const [name, expected] of [
    ['unknown-cursor-200', ['at-most-once-effect', 'no-silent-loss', 'no-silent-stall', 'unknown-cursor-rejected']],
    ['reference', []],
  ] as const) {
    const context = await contextFor(name === 'reference' ? () => startReference() : mutantByName(name).start, name);
    const plan = planCoverage(context.abilities, referenceClient);
    const i = [...plan.wider.keys()].find((k) => plan.paths[k]!.at(-1)?.type === 'RESUME');
    expect(i, name).toBeDefined();
    expect(plan.paths[i!]).toEqual(staleCursorPath(context.abilities, referenceClient, boundsOf(plan, i!)));
    expect(plan.paths[i!]!.at(-1)).toMatchObject({ type: 'RESUME', cursor: 'stale' });
    const record = await runSteps(context, boundsOf(plan, i!), plan.paths[i!]!, { seed: -1, path: `coverage:${i}` });
    const failed = [...judgeHistory(record.history, ['no-silent-loss', 'unknown-cursor-rejected', 'no-silent-stall', 'at-most-once-effect'])]
      .filter(([, j]) => j.status === 'fail')
      .map(([id]) => id)
      .sort();
    expect(failed, name).toEqual(expected);
    // Where the candidate accepted the cursor, the model's answer is noted, naming none of the model's event IDs.
    const resume = record.steps.find((step) => step.kind === 'resume')!;
    if (name === 'unknown-cursor-200') expect(resume.expected).toEqual({ status: 404, reason: "the Last-Event-ID is not an event of this session's streams" });
    else expect(resume.expected).toBeUndefined();
    await running!.stop();
    running = undefined;
  }
}, 60_000);

test('the standalone coverage scenario resumes with a notification cursor and judges what comes after: resumed-standalone-silent loses; the reference and an SDK server without priming pass', async () => {
  for (const [name, start, expected] of [
    ['resumed-standalone-silent', mutantByName('resumed-standalone-silent').start, ['no-silent-loss']],
    ['reference', () => startReference(), []],
    ['no-priming', noPriming, []],
  ] as const) {
    const context = await contextFor(start, name);
    const plan = planCoverage(context.abilities, referenceClient);
    const i = [...plan.streamKinds].find(([, kind]) => kind === 'standalone')?.[0];
    expect(i, name).toBeDefined();
    const record = await runSteps(context, boundsOf(plan, i!), plan.paths[i!]!, { seed: -1, path: `coverage:${i}` });
    // The resume presented an event ID the stream carried (a notification's where the server does not prime).
    const resume = record.steps.find((s) => s.kind === 'resume')!;
    expect(resume.cursor?.value, name).not.toBeNull();
    expect(resume.answer.status, name).toBe(200);
    const judged = judgeHistory(record.history, ['no-silent-loss']).get('no-silent-loss')!;
    expect(judged.status === 'fail' ? ['no-silent-loss'] : [], `${name}: ${judged.reason}`).toEqual(expected);
    await running!.stop();
    running = undefined;
  }
}, 90_000);
