/** The production knobs of the session machine: idle expiry and bounded log retention. */
import { createActor } from 'xstate';
import { describe, expect, test } from 'vitest';
import { explore } from '../../model/explore.js';
import { parseBounds } from '../../model/bounds.js';
import { invariants } from '../../model/invariants.js';
import { policies, reference, withKnob, type Policy } from '../../model/policy.js';
import { sessionMachine } from '../../model/session-machine.js';
import type { SessionContext, SessionEvent } from '../../model/session-types.js';

type M = { n: number };

function session(policy: Policy) {
  const actor = createActor(sessionMachine, { input: { sessionId: 'abc', tag: 't', policy: policy.server } }).start();
  const send = (event: SessionEvent<M>) => {
    actor.send(event as SessionEvent<unknown>);
    return (actor.getSnapshot().context as SessionContext<M>).reply;
  };
  send({ type: 'INITIALIZE', transport: 'streamable', protocolVersion: '2025-11-25', capabilities: {} });
  const context = () => actor.getSnapshot().context as SessionContext<M>;
  return { actor, send, context };
}

/** A request stream of three messages, all sent, its connection then lost. */
function sentThree(s: ReturnType<typeof session>) {
  const opened = s.send({ type: 'REQUEST', transport: 'streamable', requestId: 'q1', messages: [{ n: 1 }, { n: 2 }, { n: 3 }] });
  s.send({ type: 'CONNECTION_LOST', stream: opened.stream! });
  const ids = [1, 2, 3].map(() => {
    expect(s.send({ type: 'SEND', stream: opened.stream! }).status).toBe(200);
    return s.context().log.at(-1)!.id;
  });
  return { priming: opened.frames[0]!.id, ids };
}

describe('session expiry', () => {
  const ttl = withKnob(reference, 'sessionExpiry', 'idleTtl');

  test('an idle session expires and then answers every request 404, as a terminated one does', () => {
    const s = session(ttl);
    expect(s.send({ type: 'EXPIRE' }).status).toBe(200);
    expect(s.actor.getSnapshot().value).toBe('terminated');
    expect(s.send({ type: 'REQUEST', transport: 'streamable', requestId: 'q1', messages: [{ n: 1 }] })).toMatchObject({
      status: 404,
      reason: 'session expired',
    });
    expect(s.send({ type: 'RESUME', transport: 'streamable', lastEventId: 'http:t-e1' }).status).toBe(404);
    expect(s.send({ type: 'DELETE', transport: 'streamable' }).status).toBe(404);
  });

  test('a session with a connection attached is not idle; without the knob nothing expires', () => {
    const s = session(ttl);
    s.send({ type: 'OPEN_STANDALONE', transport: 'streamable' });
    expect(s.send({ type: 'EXPIRE' }).status).toBe(409);
    expect(s.actor.getSnapshot().value).toBe('active');
    const never = session(reference);
    expect(never.send({ type: 'EXPIRE' }).status).toBe(409);
    expect(never.actor.getSnapshot().value).toBe('active');
  });
});

describe('log retention', () => {
  test('bounded: a cursor whose event was dropped is refused 404; a retained one replays with no gap', () => {
    const s = session(withKnob(reference, 'logRetention', 'bounded'));
    const { priming, ids } = sentThree(s);
    s.send({ type: 'TRIM' });
    s.send({ type: 'TRIM' });
    expect(s.context().retainedFrom).toBe(2);
    expect(s.send({ type: 'RESUME', transport: 'streamable', lastEventId: priming }).status).toBe(404);
    expect(s.send({ type: 'RESUME', transport: 'streamable', lastEventId: ids[0]! }).status).toBe(404);
    const replay = s.send({ type: 'RESUME', transport: 'streamable', lastEventId: ids[1]! });
    expect(replay.status).toBe(200);
    expect(replay.frames.map((f) => f.id)).toEqual([ids[2]]);
  });

  test('boundedPartialReplay: a dropped cursor is answered with what is left, and the invariant names the gap', () => {
    const s = session(withKnob(reference, 'logRetention', 'boundedPartialReplay'));
    const { priming, ids } = sentThree(s);
    s.send({ type: 'TRIM' });
    s.send({ type: 'TRIM' });
    const replay = s.send({ type: 'RESUME', transport: 'streamable', lastEventId: priming });
    expect(replay.status).toBe(200);
    expect(replay.frames.map((f) => f.id)).toEqual([ids[1], ids[2]]);
    const world = { sessions: [s.actor.getSnapshot()] } as never;
    expect(invariants['replay-has-no-gap']!(world)).toBe(
      `session abc answered Last-Event-ID ${priming} with a replay that skips ${ids[0]} (it carried ${ids[1]} in its place)`,
    );
  });

  test('unbounded: TRIM drops nothing', () => {
    const s = session(reference);
    sentThree(s);
    expect(s.send({ type: 'TRIM' }).status).toBe(409);
    expect(s.context().retainedFrom).toBe(0);
  });
});

describe('exploration of the production knobs', () => {
  const bounds = parseBounds('calls=2,notifications=1,drops=1,resumes=1');

  test('knobs off: the reference explores exactly as before (pinned count)', () => {
    expect(explore({ policy: reference, bounds }).states).toBe(719);
  });

  test('idle TTL and bounded retention: more states, nothing violated', () => {
    const idle = explore({
      policy: policies['idle-ttl']!,
      bounds,
      signatures: { expiredThen404: (w) => w.sessions.some((s) => (s.context as SessionContext<unknown>).expired) && w.client.phase === 'mustReinitialize' },
    });
    expect(idle.states).toBeGreaterThan(719);
    expect(idle.violations).toEqual([]);
    expect(Object.keys(idle.matches)).toEqual(['expiredThen404']);
    const bounded = explore({
      policy: policies['bounded-log']!,
      bounds,
      signatures: {
        trimmedCursorRefused: (w) => w.sessions.some((s) => (s.context as SessionContext<unknown>).retainedFrom > 0) && w.client.phase === 'mustReinitialize',
      },
    });
    expect(bounded.violations).toEqual([]);
    expect(Object.keys(bounded.matches)).toEqual(['trimmedCursorRefused']);
  });

  test('a partial replay after retention breaks replay-has-no-gap', () => {
    const result = explore({ policy: policies['retention-partial-replay']!, bounds: parseBounds('calls=1,notifications=2,drops=1,resumes=1') });
    expect(result.violations.map((v) => v.property)).toContain('replay-has-no-gap');
  });
});
