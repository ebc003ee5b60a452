/** Seed 000's mitigations and liveness claim, judged by the model; and the one grading rule. */
import { describe, expect, test } from 'vitest';
import { grade } from '../../model/claims/claim.js';
import { countLogRule, liveness000, logRule000, reinitialize000 } from '../../model/claims/seed-000-mitigations.js';
import { claimBounds } from '../../model/claims/probe.js';
import { lostEvents } from '../../model/invariants.js';
import { seed000 } from '../../model/policy.js';
import { sessionContext } from '../../model/session-step.js';
import { replay } from '../../model/trace.js';
import type { FoundTrace } from '../../model/claims/claim.js';
import type { World, WorldMessage } from '../../model/world-types.js';

function end(trace: FoundTrace): World {
  const steps = replay(trace.policy, trace.bounds, trace.path);
  return steps[steps.length - 1]!.world;
}

test("the grading rule: a contradiction in the seed's setting refutes; a moved boundary refines; else confirmed", () => {
  expect(grade({ contradicted: true, boundaryMoved: false })).toBe('refuted');
  expect(grade({ contradicted: true, boundaryMoved: true })).toBe('refuted');
  expect(grade({ contradicted: false, boundaryMoved: true })).toBe('refined');
  expect(grade({ contradicted: false, boundaryMoved: false })).toBe('confirmed');
});

describe('seed 000 mitigations', () => {
  test("re-initialization: within the seed's setting its client loses the result visibly, a cost beside the latency, and a retry runs the tool twice (refuted)", () => {
    const j = reinitialize000.judge();
    expect(j.verdict).toBe('refuted');
    expect(j.finding).toContain("within the seed's own setting the latency is not the only cost");
    // [client, retries after re-initializing, fails visibly, silent loss on a migration, tool runs twice]
    expect(j.tables[0]!.rows.map((r) => r.slice(1))).toEqual([
      ['no', 'yes', 'no', 'no'],
      ['yes', 'yes', 'no', 'yes'],
      ['no', 'yes', 'no', 'no'],
      ['yes', 'yes', 'no', 'yes'],
    ]);
    const [visible, twice] = j.traces;
    const failed = end(visible!);
    const refused = sessionContext<WorldMessage>(failed.sessions[0]!).resumes.find((r) => r.crossTransport)!;
    expect(refused.outcome).toBe('rejected');
    expect(failed.client.requests[0]).toMatchObject({ call: 'c1', status: 'failed' });
    expect(failed.executions.c1).toBe(1);
    const rerun = end(twice!);
    expect(rerun.executions.c1).toBe(2);
    expect(rerun.sessions).toHaveLength(2);
    expect(rerun.client.requests.map((r) => [r.call, r.session, r.status])).toContainEqual(['c1', 0, 'failed']);
  });

  test('the log rule fires falsely on clean drops and misses races (refuted)', () => {
    const j = logRule000.judge();
    expect(j.verdict).toBe('refuted');
    const [onReceive, onDrain] = j.tables[0]!.rows.map((r) => r.slice(1).map(Number));
    const [, truePositive, falseAlarm, missed] = onReceive!;
    expect(truePositive).toBeGreaterThan(0);
    expect(falseAlarm).toBeGreaterThan(0);
    expect(missed).toBeGreaterThan(0);
    // An on-drain cursor has no race to catch: whatever fires is false.
    expect(onDrain![1]).toBe(0);
    expect(onDrain![3]).toBe(0);
    expect(onDrain![2]).toBeGreaterThan(0);
  });

  test('the log rule counts what it claims: clean-only drops give no races, only false alarms', () => {
    const counts = countLogRule(seed000, { ...claimBounds, unclean: 0 });
    expect(counts.truePositive + counts.missed).toBe(0);
    expect(counts.falseAlarm).toBeGreaterThan(0);
  });

  test('liveness: the stream stays live under both contracts; a request stalls after the cursor only (refined)', () => {
    const j = liveness000.judge();
    expect(j.verdict).toBe('refined');
    expect(j.finding).toMatch(/^The stream stays live under both contracts/);
    expect(j.tables[0]!.rows).toEqual([
      ['exclusive', '1', 'yes', 'yes'],
      ['inclusive', '1', 'no', 'no'],
      ['exclusive', '2', 'yes', 'yes'],
      ['inclusive', '2', 'yes', 'no'],
    ]);
  });

  test('the stall after the cursor: a pending request on a live stream whose result was lost', () => {
    const j = liveness000.judge();
    const world = end(j.traces[0]!);
    expect(j.traces[0]!.policy.server.replay).toBe('exclusive');
    const pending = world.client.requests.find((r) => r.status === 'pending')!;
    const stream = world.client.streams.find((s) => s.id === pending.stream)!;
    expect(stream.connected).toBe(true);
    expect(lostEvents(world).map((l) => l.event.message?.kind)).toContain('result');
  });
});
