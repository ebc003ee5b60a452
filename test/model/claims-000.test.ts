/**
 * Seed 000's claims, judged by the model. Each test pins what exploration finds, cell by cell,
 * and checks the traces by replaying them.
 */
import { describe, expect, test } from 'vitest';
import {
  cleanDrops000,
  conditions000,
  decision000,
  incident000,
  laterResumes000,
  namespacing000,
  retry000,
  claims000,
  scope000,
} from '../../model/claims/seed-000.js';
import { lostEvents } from '../../model/invariants.js';
import { reference, seed000 } from '../../model/policy.js';
import { sessionContext } from '../../model/session-step.js';
import { replay } from '../../model/trace.js';
import type { FoundTrace } from '../../model/claims/claim.js';
import type { World, WorldMessage } from '../../model/world-types.js';
import { claimBounds } from '../../model/claims/probe.js';
import { violatedInvariants } from '../../model/invariants.js';

function end(trace: FoundTrace): World {
  const steps = replay(trace.policy, trace.bounds, trace.path);
  return steps[steps.length - 1]!.world;
}

const held = (w: World) => sessionContext<WorldMessage>(w.sessions[w.client.session]!);
const row = (table: { rows: string[][] }, ...prefix: string[]) => table.rows.find((r) => prefix.every((p, i) => r[i] === p))!;

describe('seed 000', () => {
  test('the incident: its signature is reachable, and it is one case of a wider failure (refined)', () => {
    const j = incident000.judge();
    expect(j.verdict).toBe('refined');
    const [signature, anyLoss, twoLost] = j.traces;
    const world = end(signature!);
    const lost = lostEvents(world);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.event.message!.kind).toBe('result');
    const [resume, ...later] = held(world).resumes;
    expect(later).toEqual([]);
    expect(held(world).transport).toBe('sse');
    expect(resume).toMatchObject({ transport: 'streamable', crossTransport: true, outcome: 'replayed', lastEventId: lost[0]!.event.id });
    // The shortest loss of all needs no migration and loses a notification.
    expect(anyLoss!.path.length).toBeLessThan(signature!.path.length);
    expect(held(end(anyLoss!)).resumes.every((r) => !r.crossTransport)).toBe(true);
    expect(lostEvents(end(twoLost!))).toHaveLength(2);
  });

  test("the four conditions, for the seed's signature: the model agrees in every cell (confirmed)", () => {
    const j = conditions000.judge();
    expect(j.verdict).toBe('confirmed');
    const [table] = j.tables;
    expect(table!.rows).toHaveLength(64);
    for (const [eventIds, bridging, replayContract, cursor, drops, undrained, predicted, signature, onMigration] of table!.rows) {
      const all = eventIds === 'shared' && bridging === 'on' && replayContract === 'exclusive' && cursor === 'onReceive' && drops === 'unclean';
      expect(predicted).toBe(all ? 'yes' : 'no');
      expect(signature, `${eventIds} ${bridging} ${replayContract} ${cursor} ${drops} ${undrained}`).toBe(predicted);
      // With one frame undrained (the incident), any loss on a migration agrees with the prediction too.
      if (undrained === '1') expect(onMigration).toBe(predicted);
    }
    expect(table!.rows.filter((r) => r[7] === 'yes')).toHaveLength(2);
  });

  test("the four conditions, for any loss: shared IDs and bridging are not needed (000-scope's table, not a claim of its own)", () => {
    const j = scope000.judge();
    expect(j.verdict).toBe('refuted');
    expect(claims000.map((c) => c.id)).not.toContain('000-conditions-any-loss');
    const [table] = j.tables;
    expect(table!.rows).toHaveLength(48);
    for (const [eventIds, bridging, replayContract, cursor, drops, undrained, predicted, onMigration, anywhere] of table!.rows) {
      const unclean = drops === 'unclean';
      const onReceive = cursor === 'onReceive';
      expect(predicted).toBe(eventIds === 'shared' && bridging === 'on' && replayContract === 'exclusive' && onReceive && unclean ? 'yes' : 'no');
      // Loss needs a cursor that moves on receive and an unclean drop, and from the cursor only loses with two frames undrained.
      const loses = onReceive && unclean && (replayContract === 'exclusive' || undrained === '2');
      expect(anywhere, `${eventIds} ${bridging} ${replayContract} ${cursor} ${drops} ${undrained}`).toBe(loses ? 'yes' : 'no');
      // On a migration it also needs the session bridged and the cursor resolvable (shared namespace).
      expect(onMigration).toBe(loses && bridging === 'on' && eventIds === 'shared' ? 'yes' : 'no');
    }
  });

  test('later resumes: a second unclean drop in the same session loses again; clean drops do not (refuted)', () => {
    const j = laterResumes000.judge();
    expect(j.verdict).toBe('refuted');
    const world = end(j.traces[0]!);
    expect(held(world).resumes).toHaveLength(2);
    expect(lostEvents(world).length).toBeGreaterThan(1);
    expect(j.finding).toMatch(/Only with clean drops do later resumes lose nothing/);
  });

  test('the retry runs the side effect twice (confirmed)', () => {
    const j = retry000.judge();
    expect(j.verdict).toBe('confirmed');
    const world = end(j.traces[0]!);
    expect(world.executions.c1).toBe(2);
    expect(world.client.requests.map((r) => r.status)).toEqual(['timedOut', 'pending']);
  });

  test('clean disconnects: no loss under either contract, but replay from the cursor repeats an event (refined)', () => {
    const j = cleanDrops000.judge();
    expect(j.verdict).toBe('refined');
    expect(j.tables[0]!.rows).toEqual([
      ['exclusive', 'on', 'no', 'no'],
      ['exclusive', 'off', 'no', 'no'],
      ['inclusive', 'on', 'no', 'no'],
      ['inclusive', 'off', 'no', 'yes'],
    ]);
  });

  test('the decision boundary: replay x cursor advance x dedup x undrained frames (refined)', () => {
    const j = decision000.judge();
    expect(j.verdict).toBe('refined');
    const [table] = j.tables;
    expect(table!.rows).toHaveLength(16);
    for (const [replayContract, cursor, dedup, undrained, outcome] of table!.rows) {
      const loses = cursor === 'onReceive' && (replayContract === 'exclusive' || undrained === '2');
      const twice = replayContract === 'inclusive' && dedup === 'off';
      const expected = loses ? (twice ? 'loses one, delivers one twice' : 'loses one') : twice ? 'delivers one twice' : 'correct';
      expect(outcome, `${replayContract} ${cursor} dedup=${dedup} undrained=${undrained}`).toBe(expected);
    }
    expect(row(table!, 'exclusive', 'onDrain', 'off', '2')[4]).toBe('correct');
  });

  test('namespacing by transport stops the migration path, not the drain race (refined)', () => {
    const j = namespacing000.judge();
    expect(j.verdict).toBe('refined');
    expect(j.tables[0]!.rows).toEqual([
      ['reject', 'no', 'no', 'yes'],
      ['emptyStream', 'yes', 'yes', 'yes'],
    ]);
  });

  test('scope: a streamable-only deployment loses events too (refuted)', () => {
    const j = scope000.judge();
    expect(j.verdict).toBe('refuted');
    const world = end(j.traces[0]!);
    expect(held(world).transport).toBe('streamable');
    expect(lostEvents(world).length).toBe(1);
  });

  test('the reference recovers what seed 000 loses, on the very same steps', () => {
    const path = scope000.judge().traces[0]!.path;
    const lossy = end({ title: '', policy: seed000, bounds: claimBounds, path });
    expect(violatedInvariants(lossy).map((v) => v.property)).toContain('no-silent-loss');
    const recovered = end({
      title: '',
      policy: reference,
      bounds: claimBounds,
      path: [...path, { type: 'RECEIVE', stream: 'r0' }, { type: 'DRAIN', stream: 'r0' }],
    });
    expect(violatedInvariants(recovered)).toEqual([]);
    expect(recovered.client.streams[0]!.drained).toHaveLength(1);
  });
});
