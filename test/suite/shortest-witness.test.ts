/**
 * A failure is reported with the model's shortest witness the candidate shows it on: for a policy
 * mutant, at most two steps past the model's own shortest violation of the property under that
 * policy (the run ends with the client's wait, which the model's path leaves out), and the replay
 * line reproduces the very trace.
 */
import { afterAll, expect, test } from 'vitest';
import { explore } from '../../model/explore.js';
import { shortestWithHeldCursors } from '../../model/held-cursors.js';
import { policyByName, reference } from '../../model/policy.js';
import type { TraceStepData } from '../../model/trace-step.js';
import { replayNote } from '../../src/report/common.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { coverageBounds } from '../../src/check-server/coverage.js';
import { drivableSteps } from '../../src/check-server/lockstep.js';
import { referenceClient, runSuite } from '../../src/check-server/run-suite.js';

// The checks run side by side (most of their time is waits on quiet streams): each its own server, all closed at the end.
const servers: ReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(options?: Parameters<typeof createReferenceServer>[0]): Promise<ReferenceServer> {
  const server = await createReferenceServer(options);
  servers.push(server);
  return server;
}

test.concurrent("unknown-cursor-empty-stream: unknown-cursor-rejected is reported within two steps of the model's shortest violation, and its replay line gives the same trace", async () => {
  const policy = 'unknown-cursor-empty-stream';
  const id = 'unknown-cursor-rejected';
  const server = await serve({ policy });
  const target = { name: policy, url: server.url };
  // With no-silent-stall beside it, the targeted stale-cursor scenario shows both on one step (a
  // group, which shrinking keeps whole). A generous budget: the outcome is asserted, not the time.
  const report = await runSuite(target, { runs: 20, seed: 5, only: [id, 'no-silent-stall'], shrinkMs: 30_000 });
  const result = report.properties.find((p) => p.id === id)!;
  expect(result.status).toBe('fail');
  const counterexample = result.counterexample!;
  // The model under the mutant's server knobs and the checking client's, in the bounds the coverage scenarios use.
  const abilities = report.abilities!;
  const model = explore({
    policy: { server: policyByName(policy).server, client: { ...reference.client, ...referenceClient } },
    bounds: coverageBounds(abilities),
  });
  const shortest = model.violations.find((v) => v.property === id)!.path.length;
  expect(counterexample.steps.length).toBeLessThanOrEqual(shortest + 2);
  // A prefix of a coverage scenario, and the report says so beside its replay line.
  expect(counterexample.path).toMatch(/^coverage:\d+:\d+$/);
  expect(replayNote(counterexample)).toMatch(/the first \d+ steps of coverage:\d+/);

  const replay = await runSuite(target, { seed: counterexample.seed, path: counterexample.path, only: [id] });
  expect(replay.properties[0]!.status).toBe('fail');
  expect(shape(replay.properties[0]!.counterexample!.steps)).toEqual(shape(counterexample.steps));
}, 180_000);

test.concurrent("unknown-cursor-empty-stream: no-silent-stall, judged only after a cursor a client holds, is reported within two steps of the model's shortest such violation, as witness:N", async () => {
  const policy = 'unknown-cursor-empty-stream';
  const id = 'no-silent-stall';
  const server = await serve({ policy });
  const target = { name: policy, url: server.url };
  const report = await runSuite(target, { runs: 20, seed: 5, only: [id], shrinkMs: 30_000 });
  const result = report.properties.find((p) => p.id === id)!;
  expect(result.status).toBe('fail');
  const counterexample = result.counterexample!;
  const abilities = report.abilities!;
  const input = { policy: { server: policyByName(policy).server, client: { ...reference.client, ...referenceClient } }, bounds: coverageBounds(abilities) };
  // The model's shortest stall presents a made-up cursor, after which the judges count none (a probe):
  // the shortest they can see presents an earlier session's cursor, two steps longer.
  const madeUp = explore(input).violations.find((v) => v.property === id)!.path.length;
  const held = shortestWithHeldCursors(input, (world) => drivableSteps(world, abilities)).get(id)!;
  expect(held).toBeGreaterThan(madeUp);
  expect(counterexample.steps.length).toBeLessThanOrEqual(held + 2);
  expect(counterexample.path).toMatch(/^witness:\d+$/);
  expect(replayNote(counterexample)).toMatch(/cursors it holds/);

  const replay = await runSuite(target, { path: counterexample.path, only: [id] });
  expect(replay.properties[0]!.status).toBe('fail');
  expect(shape(replay.properties[0]!.counterexample!.steps)).toEqual(shape(counterexample.steps));
}, 180_000);

test.concurrent("seed-003: no-cross-transport-resume, reported beside unknown-cursor-rejected by a run that presents a made-up cursor, is reported within two steps of the model's shortest violation by a run where it stands alone", async () => {
  const policy = 'seed-003';
  const id = 'no-cross-transport-resume';
  const server = await serve({ policy });
  const target = { name: policy, url: server.url };
  const report = await runSuite(target, { runs: 50, seed: 20261130, only: [id, 'unknown-cursor-rejected'], shrinkMs: 30_000 });
  const result = report.properties.find((p) => p.id === id)!;
  expect(result.status).toBe('fail');
  const counterexample = result.counterexample!;
  const abilities = report.abilities!;
  const input = { policy: { server: policyByName(policy).server, client: { ...reference.client, ...referenceClient } }, bounds: coverageBounds(abilities) };
  const shortest = explore(input).violations.find((v) => v.property === id)!.path.length;
  expect(counterexample.steps.length).toBeLessThanOrEqual(shortest + 2);
  expect(counterexample.path).toMatch(/^coverage:\d+:\d+$/);
  // The witness's resume presents the stream's own cursor: nothing of higher precedence rests on its step.
  expect(result.causedBy).toBeUndefined();

  const replay = await runSuite(target, { path: counterexample.path, only: [id, 'unknown-cursor-rejected'] });
  expect(replay.properties.find((p) => p.id === id)!.status).toBe('fail');
  expect(shape(replay.properties.find((p) => p.id === id)!.counterexample!.steps)).toEqual(shape(counterexample.steps));
}, 180_000);

test.concurrent("seed-003: capabilities-honoured, shown alone by a coverage run, is reported with it rather than a longer shrunk interleaving, within two steps of the model's shortest violation (a second call)", async () => {
  const policy = 'seed-003';
  const id = 'capabilities-honoured';
  const server = await serve({ policy });
  const target = { name: policy, url: server.url };
  const report = await runSuite(target, { runs: 50, seed: 20261130, only: [id], shrinkMs: 30_000 });
  const result = report.properties.find((p) => p.id === id)!;
  expect(result.status).toBe('fail');
  // The model shows it only after a call made once the session moved transports: two calls.
  const input = {
    policy: { server: policyByName(policy).server, client: { ...reference.client, ...referenceClient } },
    bounds: { ...coverageBounds(report.abilities!), calls: 2 },
  };
  const shortest = explore(input).violations.find((v) => v.property === id)!.path.length;
  expect(result.counterexample!.steps.length).toBeLessThanOrEqual(shortest + 2);
}, 180_000);

test.concurrent('a replay path naming a prefix of a coverage scenario past its end, or a witness path there is not, is refused with a reason', async () => {
  const server = await serve();
  const target = { name: 'reference', url: server.url };
  await expect(runSuite(target, { path: 'coverage:0:999' })).rejects.toThrow(/coverage:0 has \d+ steps/);
  await expect(runSuite(target, { path: 'coverage:x' })).rejects.toThrow(/no coverage scenario/);
  await expect(runSuite(target, { path: 'witness:99999' })).rejects.toThrow(/no witness:99999 for this candidate/);
}, 30_000);

/** A trace without the IDs a run makes up (session IDs, event IDs, cursor values). */
function shape(steps: TraceStepData[]): unknown[] {
  return steps.map(({ cursor, answer, expected, ...rest }) => ({
    ...rest,
    cursor: cursor?.origin,
    answer: { ...answer, sessionId: undefined, frames: answer.frames?.map((f) => ({ ...f, id: undefined })) },
    expected,
  }));
}
