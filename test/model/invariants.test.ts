/**
 * The invariants that no policy can break (the model's server is correct by construction there)
 * are shown to fail on mutated worlds, so they are checks that can fail.
 */
import { describe, expect, test } from 'vitest';
import { defaultBounds } from '../../model/bounds.js';
import { invariants, violatedInvariants } from '../../model/invariants.js';
import { reference } from '../../model/policy.js';
import { sessionContext, type SessionState } from '../../model/session-step.js';
import type { SessionContext } from '../../model/session-types.js';
import { replay } from '../../model/trace.js';
import type { World, WorldMessage, WorldStep } from '../../model/world-types.js';

/** A streamable session with one call whose first notification is on the wire and the second drained. */
function reachable(): World {
  const path: WorldStep[] = [
    { type: 'INITIALIZE', transport: 'streamable' },
    { type: 'CALL', unsolicited: false },
    { type: 'CALL', unsolicited: false },
    { type: 'SEND', stream: 'r0' },
    { type: 'SEND', stream: 'r1' },
    { type: 'RECEIVE', stream: 'r1' },
  ];
  const steps = replay(reference, defaultBounds, path);
  return steps[steps.length - 1]!.world;
}

function withSession(world: World, change: (c: SessionContext<WorldMessage>) => Partial<SessionContext<WorldMessage>>, value?: string): World {
  const snapshot = world.sessions[0]!;
  const context = sessionContext<WorldMessage>(snapshot);
  const mutated = { ...snapshot, value: value ?? snapshot.value, context: { ...context, ...change(context) } } as unknown as SessionState;
  return { ...world, sessions: [mutated] };
}

describe('invariants on mutated worlds', () => {
  test('the unmutated world violates nothing', () => {
    expect(violatedInvariants(reachable())).toEqual([]);
  });

  test('no-cross-stream-replay: a frame of another stream on a connection', () => {
    const world = reachable();
    const r0 = world.client.streams.find((s) => s.id === 'r0')!;
    const r1Frame = world.client.streams.find((s) => s.id === 'r1')!.inbox[0]!;
    const mutated = { ...world, client: { ...world.client, streams: world.client.streams.map((s) => (s === r0 ? { ...s, wire: [...s.wire, r1Frame] } : s)) } };
    expect(invariants['no-cross-stream-replay']!(mutated)).toMatch(/r0's connection carries .* of stream r1/);
  });

  test('no-cross-session-replay: a frame the held session never sent', () => {
    const world = reachable();
    const foreign = { id: 'http:other-e1', stream: 'r0', minted: 'streamable' as const, message: { kind: 'result' as const, call: 'x', request: 'x', seq: 0 } };
    const mutated = { ...world, client: { ...world.client, streams: world.client.streams.map((s) => (s.id === 'r0' ? { ...s, wire: [foreign] } : s)) } };
    expect(invariants['no-cross-session-replay']!(mutated)).toMatch(/never sent/);
  });

  test('event-ids-unique: an ID minted twice', () => {
    const mutated = withSession(reachable(), (c) => ({ log: [...c.log, { ...c.log[1]!, stream: 'r1' }] }));
    expect(invariants['event-ids-unique']!(mutated)).toMatch(/twice/);
  });

  test('terminated-session-404: a terminated session still carrying a stream', () => {
    const mutated = withSession(reachable(), (c) => ({ streams: c.streams }), 'terminated');
    expect(invariants['terminated-session-404']!(mutated)).toMatch(/terminated session .* still carries/);
  });

  test('order-preserved: events processed out of order', () => {
    const world = reachable();
    const log = sessionContext<WorldMessage>(world.sessions[0]!).log;
    const mutated = {
      ...world,
      client: { ...world.client, streams: world.client.streams.map((s) => (s.id === 'r0' ? { ...s, drained: [log[3]!.id, log[1]!.id] } : s)) },
    };
    expect(invariants['order-preserved']!(mutated)).toMatch(/out of order/);
  });
});
