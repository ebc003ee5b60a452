/**
 * The checking client follows the model: a divergence is recorded as data on its step and the
 * scenario goes on where the model can follow; every stream kind is dropped, resumed and then
 * carries live traffic in the coverage scenarios, against the real reference server.
 */
import { afterEach, expect, test } from 'vitest';
import { replay } from '../../model/trace.js';
import { diverged } from '../../model/trace-step.js';
import type { WorldStep } from '../../model/world-types.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { probeAbilities } from '../../src/check-server/abilities.js';
import { boundsOf, candidateBounds, planCoverage } from '../../src/check-server/coverage.js';
import { oraclePolicy } from '../../src/check-server/lockstep.js';
import { referenceClient } from '../../src/check-server/run-suite.js';
import { runSteps, type ScenarioContext } from '../../src/check-server/scenario.js';
import { judgeHistory } from '../../src/check-server/verdicts.js';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function contextFor(policy: string): Promise<ScenarioContext> {
  server = await createReferenceServer({ policy });
  const target = { name: policy, url: server.url };
  const abilities = await probeAbilities(target, 3000);
  return { target, abilities, client: referenceClient, timeoutMs: 3000, runTag: `fidelity-${policy}` };
}

test('a divergence is a finding on its step, and the scenario goes on with what the model can still follow', async () => {
  const context = await contextFor('unknown-cursor-empty-stream');
  const bounds = candidateBounds(context.abilities, { calls: 2, notifications: 1, drops: 1, resumes: 1, inFlight: 1, undrained: 1 });
  const path: WorldStep[] = [
    { type: 'INITIALIZE', transport: 'streamable' },
    { type: 'CALL', unsolicited: false },
    { type: 'DROP', stream: 'r1' },
    { type: 'RESUME', stream: 'r1', via: 'same', cursor: 'garbage' },
    // the model answered 404 and asks for a new session; the candidate answered 200
    { type: 'INITIALIZE', transport: 'streamable' },
    { type: 'CALL', unsolicited: false },
  ];
  // the new call's stream, as the model names it
  const world = replay(oraclePolicy(referenceClient), bounds, path).at(-1)!.world;
  const stream = world.client.streams.find((s) => s.kind === 'request')!.id;
  path.push({ type: 'SEND', stream }, { type: 'RECEIVE', stream }, { type: 'DRAIN', stream });
  const record = await runSteps(context, bounds, path, { seed: -1, path: 'test' });
  const divergences = record.steps.filter(diverged);
  expect(divergences.map((s) => [s.index, s.kind, s.cursor?.origin, s.answer.status, s.expected.status])).toEqual([[4, 'resume', 'garbage', 200, 404]]);
  // every step ran, in lockstep up to the divergence
  expect(record.steps.slice(0, path.length).map((s) => s.kind)).toEqual([
    'initialize',
    'call',
    'drop',
    'resume',
    'initialize',
    'call',
    'send',
    'receive',
    'drain',
  ]);
  expect(record.followed).toBe(3);
  expect(record.steps[7]!.answer.frames![0]).toMatchObject({ call: 'c2', seq: 1 });
  expect(judgeHistory(record.history, ['unknown-cursor-rejected']).get('unknown-cursor-rejected')!.status).toBe('fail');
}, 60_000);

test('every stream kind is dropped, resumed and then carries live traffic in a coverage scenario, and is judged', async () => {
  const context = await contextFor('reference');
  const plan = planCoverage(context.abilities, referenceClient);
  expect([...plan.streamKinds.values()].sort()).toEqual(['legacy', 'request', 'standalone']);
  for (const [i, kind] of plan.streamKinds) {
    const path = plan.paths[i]!;
    const record = await runSteps(context, boundsOf(plan, i), path, { seed: -1, path: `coverage:${i}` });
    expect(record.followed, kind).toBe(path.length);
    const resume = record.steps.findIndex((s) => s.kind === 'resume');
    expect(record.steps[resume - 1]!.kind, kind).toBe('drop');
    expect(record.steps[resume]!.answer.status, kind).toBe(200);
    const stream = record.steps[resume]!.stream;
    // after the resume, the server sends on that stream and the application drains what it sent
    const after = record.steps.slice(resume + 1);
    expect(
      after.some((s) => s.kind === 'send' && s.stream === stream),
      kind,
    ).toBe(true);
    expect(after.filter((s) => s.kind === 'drain' && s.stream === stream && s.answer.frames?.[0]?.call !== undefined).length, kind).toBeGreaterThan(0);
    // the standalone stream also carries what a call made after its resume sends
    if (kind === 'standalone')
      expect(
        after.some((s) => s.kind === 'call'),
        kind,
      ).toBe(true);
    const judged = judgeHistory(record.history, ['no-silent-loss', 'no-silent-stall', 'order-preserved', 'event-ids-unique']);
    expect(judged.get('no-silent-loss')!.status, `${kind}: ${judged.get('no-silent-loss')!.reason}`).toBe('pass');
    for (const [id, j] of judged) expect(j.status, `${kind} ${id}: ${j.reason}`).not.toBe('fail');
  }
}, 60_000);
