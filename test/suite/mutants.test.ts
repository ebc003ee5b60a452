/**
 * The suite earns its trust: every mutant in the catalog fails at least the properties it is
 * built to break (`mustFail` below), and nothing outside its `breaks`: every other property
 * passes or skips. Mutants that change only client knobs must pass everything, like the reference.
 */
import { describe, expect, test } from 'vitest';
import type { PropertyId } from '../../model/property-ids.js';
import { propertyIds } from '../../model/property-ids.js';
import { mutants } from '../../src/mutants/index.js';
import { runSuite } from '../../src/suite/run-suite.js';

const mustFail: Record<string, PropertyId[]> = {
  'seed-000': ['no-cross-transport-resume'],
  'seed-003': ['no-cross-transport-resume', 'unknown-cursor-rejected', 'capabilities-honoured', 'no-silent-loss', 'no-silent-stall'],
  'bridging-shared-ids': ['no-cross-transport-resume'],
  // The interleavings present made-up cursors (garbage-0): accepting one is unknown-cursor-rejected
  // alone; what follows it is never counted as a loss or a stall (properties/history-view.ts).
  'unknown-cursor-empty-stream': ['unknown-cursor-rejected'],
  'default-capabilities': ['no-cross-transport-resume', 'capabilities-honoured'],
  'inclusive-replay-no-dedup': [],
  'cursor-on-receive': [],
  'replay-skips-first': ['no-silent-loss', 'no-silent-stall'],
  'same-ms-random-order': ['no-silent-loss', 'order-preserved'],
  'ids-reused-across-streams': ['event-ids-unique'],
  'replay-other-streams': ['no-cross-stream-replay'],
  'shared-event-store': ['no-cross-session-replay', 'unknown-cursor-rejected'],
  'unknown-cursor-200': ['unknown-cursor-rejected'],
  'predictable-session-ids': ['session-ids-secure'],
  'delete-keeps-session': ['terminated-session-404'],
  'legacy-session-at-mcp': ['no-cross-transport-resume'],
  'capabilities-reset-on-resume': ['capabilities-honoured'],
};

test('the table names every mutant of the catalog', () => {
  expect(Object.keys(mustFail).sort()).toEqual(mutants.map((m) => m.name).sort());
  for (const m of mutants) expect(mustFail[m.name]!.every((id) => m.breaks.includes(id)), m.name).toBe(true);
});

// Mutants run side by side: most of their time is spent waiting on quiet streams.
describe.concurrent('each mutant', () => {
  test.each(mutants.map((m) => [m.name, m] as const))('%s: fails what it must, nothing it does not break', async (name, mutant) => {
    const candidate = await mutant.start();
    try {
      const report = await runSuite({ name, url: candidate.url }, { runs: 10, seed: 20261130, timeoutMs: 3000 });
      const failed = report.properties.filter((p) => p.status === 'fail').map((p) => p.id);
      for (const id of mustFail[name]!) expect(failed, `${name} must fail ${id}`).toContain(id);
      for (const id of failed) expect(mutant.breaks, `${name} failed ${id}, which it does not break`).toContain(id);
      for (const p of report.properties) {
        if (p.status === 'fail') expect(p.counterexample!.steps.length, p.id).toBeGreaterThan(0);
        else expect(['pass', 'skip']).toContain(p.status);
      }
      expect(report.properties.map((p) => p.id)).toEqual([...propertyIds]);
    } finally {
      await candidate.stop();
    }
  }, 60_000);
});
