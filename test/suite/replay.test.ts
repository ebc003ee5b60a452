/**
 * Counterexamples replay from {seed, path} in one run, and shrinking gets the seed-000 failure
 * down to the model's own shortest path for the same property.
 */
import { afterEach, expect, test } from 'vitest';
import { parseBounds } from '../../model/bounds.js';
import { explore } from '../../model/explore.js';
import { seed000 } from '../../model/policy.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { diverged, type TraceStepData } from '../../model/trace-step.js';
import { runSuite } from '../../src/check-server/run-suite.js';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test("seed-000: the shrunk counterexample is no longer than the model's shortest path, and {seed, path} replays it in one run", async () => {
  server = await createReferenceServer({ policy: 'seed-000' });
  const target = { name: 'seed-000', url: server.url };
  const only = ['no-cross-transport-resume'] as const;
  // A generous shrinking budget: the outcome (a short counterexample) is asserted, not the time.
  const report = await runSuite(target, { runs: 100, seed: 4242, coverage: false, only: [...only], shrinkMs: 60_000 });
  const [result] = report.properties;
  expect(result!.status).toBe('fail');
  const counterexample = result!.counterexample!;
  expect(counterexample.seed).toBe(4242);
  expect(counterexample.path).toMatch(/^\d+(:\d+)*(@.+)?$/);
  const model = explore({ policy: seed000, bounds: parseBounds('calls=1,notifications=1,drops=1,resumes=1') });
  const shortest = model.violations.find((v) => v.property === 'no-cross-transport-resume')!;
  // The scenario goes on after the candidate leaves the model (here: by re-initializing, as the
  // model asks); the failure itself is at the divergence.
  const upTo = counterexample.steps.find(diverged)?.index ?? counterexample.steps.length;
  console.log(
    `seed-000 no-cross-transport-resume: shrunk ${counterexample.steps.length} steps, failing at step ${upTo}, model shortest ${shortest.path.length} steps`,
  );
  expect(upTo).toBeLessThanOrEqual(shortest.path.length);

  let scenarios = 0;
  const replay = await runSuite(target, { seed: counterexample.seed, path: counterexample.path, only: [...only], onProgress: () => scenarios++ });
  expect(replay.properties[0]!.status).toBe('fail');
  // The same trace: the same steps with the same answers (session and event IDs are random per
  // run, so they are left out of the comparison).
  expect(shape(replay.properties[0]!.counterexample!.steps)).toEqual(shape(counterexample.steps));
  expect(scenarios).toBe(0); // a replay runs the one scenario, nothing else
}, 120_000);

/** A trace without the IDs a run makes up (session IDs, event IDs, cursor values). */
function shape(steps: TraceStepData[]): unknown[] {
  return steps.map(({ cursor, answer, expected, ...rest }) => ({
    ...rest,
    cursor: cursor?.origin,
    answer: { ...answer, sessionId: undefined, frames: answer.frames?.map((f) => ({ ...f, id: undefined })) },
    expected,
  }));
}

test('the printed trace is the run its replay path names: replaying a shrunk path gives the same trace, for every failing property', async () => {
  server = await createReferenceServer({ policy: 'seed-000' });
  const target = { name: 'seed-000', url: server.url };
  const report = await runSuite(target, { runs: 30, seed: 99, coverage: false, timeoutMs: 3000 });
  const shrunk = report.properties.filter((p) => p.status === 'fail' && p.counterexample!.seed === 99);
  expect(shrunk.length).toBeGreaterThan(0);
  for (const p of shrunk) {
    const again = await runSuite(target, { seed: 99, path: p.counterexample!.path, only: [p.id], timeoutMs: 3000 });
    expect(again.properties[0]!.status, p.id).toBe('fail');
    expect(shape(again.properties[0]!.counterexample!.steps), p.id).toEqual(shape(p.counterexample!.steps));
  }
}, 120_000);

test('a coverage counterexample replays from its path', async () => {
  server = await createReferenceServer({ policy: 'unknown-cursor-empty-stream' });
  const target = { name: 'unknown-cursor-empty-stream', url: server.url };
  const report = await runSuite(target, { runs: 0, only: ['unknown-cursor-rejected'] });
  const counterexample = report.properties[0]!.counterexample!;
  expect(counterexample.path).toMatch(/^(coverage|probe):/);
  const replay = await runSuite(target, { path: counterexample.path, only: ['unknown-cursor-rejected'] });
  expect(replay.properties[0]!.status).toBe('fail');
}, 60_000);

test('replay paths that name nothing are refused with a reason', async () => {
  server = await createReferenceServer();
  const target = { name: 'reference', url: server.url };
  await expect(runSuite(target, { path: 'coverage:99999' })).rejects.toThrow(/no coverage scenario/);
  await expect(runSuite(target, { path: 'probe:nope' })).rejects.toThrow(/no probe probe:nope/);
  await expect(runSuite(target, { path: '3:1' })).rejects.toThrow(/needs its --seed/);
}, 30_000);

test('a replay runs the one scenario its path names, even when that scenario passes (fast-check alone would go on to the next ones)', async () => {
  server = await createReferenceServer();
  const target = { name: 'reference', url: server.url };
  const replay = await runSuite(target, { seed: 7, path: '3', only: ['order-preserved', 'no-silent-stall'], timeoutMs: 3000 });
  expect(replay.properties.map((p) => p.status)).toEqual(['pass', 'pass']);
  // Each property is judged in at most the one scenario.
  expect(replay.properties.map((p) => p.runs)).toEqual([1, 1]);
}, 60_000);
