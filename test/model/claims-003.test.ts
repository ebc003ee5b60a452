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

  test('the conditions: what the model finds in every cell (refined: a tagged namespace is not enough)', () => {
    const j = conditions003.judge();
    expect(j.verdict).toBe('refined');
    expect(j.tables[0]!.rows).toHaveLength(16);
    for (const [bridging, eventIds, unknownCursor, capabilities, , accepted, quiet, foreign] of j.tables[0]!.rows) {
      const resolves = eventIds === 'shared';
      const migrates = bridging === 'on' && (resolves || unknownCursor === 'emptyStream');
      expect(accepted).toBe(migrates ? 'yes' : 'no');
      expect(quiet).toBe(bridging === 'on' && !resolves && unknownCursor === 'emptyStream' ? 'yes' : 'no');
      expect(foreign).toBe(migrates && capabilities === 'defaultProfile' ? 'yes' : 'no');
    }
  });

  test('a quiet 200 leaves a pending request waiting for ever (confirmed)', () => {
    const j = quiet003.judge();
    expect(j.verdict).toBe('confirmed');
    expect(violatedInvariants(end(j.traces[0]!)).map((v) => v.property)).toContain('no-silent-stall');
  });

  test('the rule: the reference refuses migrations with 404 and the client recovers by re-initializing (confirmed)', () => {
    const j = rule003.judge();
    expect(j.verdict).toBe('confirmed');
    const world = end(j.traces[0]!);
    expect(world.sessions).toHaveLength(2);
    expect(sessionContext<WorldMessage>(world.sessions[0]!).resumes[0]).toMatchObject({ crossTransport: true, outcome: 'rejected' });
    expect(world.client.requests.at(-1)!.status).toBe('answered');
  });
});
