/** The reference server, checked over HTTP: every property holds, every model state is reached. */
import { afterEach, expect, test } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { runSuite } from '../../src/suite/run-suite.js';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test('reference: every property passes over full model coverage, the probes and 200 interleavings', async () => {
  server = await createReferenceServer({ policy: 'reference' });
  const report = await runSuite({ name: 'reference', url: server.url }, { runs: 200, seed: 20261130, timeoutMs: 3000 });
  expect(report.abilities?.transports.sort()).toEqual(['sse', 'streamable']);
  expect(report.coverage!.scenarios).toBeGreaterThan(100);
  expect(report.coverage!.reached).toBe(report.coverage!.states);
  expect(report.interleavings!.runs).toBe(200);
  for (const p of report.properties) {
    expect(p.status, `${p.id}: ${p.reason}`).toBe('pass');
    expect(p.runs).toBeGreaterThan(0);
  }
  expect(server.internalErrors).toEqual([]);
}, 120_000);
