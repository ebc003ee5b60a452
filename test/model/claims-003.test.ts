/** Seed 003's claims, judged by the model. */
import { describe, expect, test } from 'vitest';
import { conditions003, incident003, quiet003, rule003 } from '../../model/claims/seed-003.js';
import { violatedInvariants } from '../../model/invariants.js';
import { sessionContext } from '../../model/session-step.js';
import { replay } from '../../model/trace.js';
import type { FoundTrace } from '../../model/claims/claim.js';
import type { World, WorldMessage } from '../../model/world-types.js';

function end(trace: FoundTrace): World {
  const steps = replay(trace.policy, trace.bounds, trace.path);
  return steps[steps.length - 1]!.world;
}

describe('seed 003', () => {
  test('the incident: a quiet 200 on migration, then a request under a profile never negotiated (confirmed)', () => {
    const j = incident003.judge();
    expect(j.verdict).toBe('confirmed');
    const steps = replay(j.traces[0]!.policy, j.traces[0]!.bounds, j.traces[0]!.path);
    const resume = steps.find((s) => s.step.type === 'RESUME')!;
    expect(resume.answer).toBe('200, a quiet stream');
    expect(steps.at(-1)!.step.type).toBe('CALL');
    const context = sessionContext<WorldMessage>(steps.at(-1)!.world.sessions[0]!);
    expect(context.capabilities).toEqual({});
    expect(context.negotiated).toEqual({ roots: { listChanged: true } });
    expect(violatedInvariants(steps.at(-1)!.world).map((v) => v.property)).toContain('capabilities-honoured');
  });

  test('the conditions, read as the seed states them (map or reject): the model agrees in every cell (confirmed)', () => {
    const j = conditions003.judge();
    expect(j.verdict).toBe('confirmed');
    expect(j.tables[0]!.rows).toHaveLength(16);
    for (const [bridging, eventIds, unknownCursor, capabilities, condition3, predicted, accepted, quiet, foreign] of j.tables[0]!.rows) {
      const resolves = eventIds === 'shared';
      const migrates = bridging === 'on' && (resolves || unknownCursor === 'emptyStream');
      expect(condition3).toBe(!(eventIds === 'perTransport' && unknownCursor === 'reject') ? 'yes' : 'no');
      expect(accepted).toBe(migrates ? 'yes' : 'no');
      expect(quiet).toBe(bridging === 'on' && !resolves && unknownCursor === 'emptyStream' ? 'yes' : 'no');
      expect(foreign).toBe(migrates && capabilities === 'defaultProfile' ? 'yes' : 'no');
      expect(foreign).toBe(predicted);
    }
    // The seed's own server: per-transport logs, a quiet 200, default profile: condition 3 holds and it corrupts.
    expect(j.tables[0]!.rows.find((r) => r.slice(0, 4).join() === 'on,perTransport,emptyStream,defaultProfile')!.slice(4)).toEqual([
      'yes',
      'yes',
      'yes',
      'yes',
      'yes',
    ]);
  });

  test('a quiet 200 leaves a pending request waiting for ever (confirmed)', () => {
    const j = quiet003.judge();
    expect(j.verdict).toBe('confirmed');
    expect(violatedInvariants(end(j.traces[0]!)).map((v) => v.property)).toContain('no-silent-stall');
  });

  test('the rule, judged by consequences: sufficient, not necessary; recovery over the new transport (refined)', () => {
    const j = rule003.judge();
    expect(j.verdict).toBe('refined');
    const rows = Object.fromEntries(j.tables[0]!.rows.map((r) => [r[0], r.slice(2)]));
    // [breaks the rule's invariant, loss, stall, duplicate effect, foreign capabilities]
    expect(rows['reference (the rule)']).toEqual(['no', 'no', 'no', 'no', 'no']);
    expect(rows['bridging-shared-ids']).toEqual(['yes', 'no', 'no', 'no', 'no']);
    expect(rows['bridging + translated cursors']).toEqual(['yes', 'no', 'no', 'no', 'no']);
    expect(rows['default-capabilities']).toEqual(['yes', 'no', 'no', 'no', 'yes']);
    expect(rows['unknown-cursor-empty-stream + bridging']!.slice(0, 3)).toEqual(['yes', 'yes', 'yes']);
    const world = end(j.traces[0]!);
    expect(world.sessions).toHaveLength(2);
    const [old, fresh] = world.sessions.map((s) => sessionContext<WorldMessage>(s));
    const refused = old!.resumes.find((r) => r.crossTransport)!;
    expect(refused.outcome).toBe('rejected');
    // Re-initialized over the transport it tried to migrate to; the old session is not retired.
    expect(fresh!.transport).toBe(refused.transport);
    expect(world.sessions[0]!.value).toBe('active');
    expect(world.client.requests.at(-1)!.status).toBe('answered');
  });
});
