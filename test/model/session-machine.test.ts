import { createActor } from 'xstate';
import { describe, expect, test } from 'vitest';
import { policies, reference, seed000, seed003, withKnob, type Policy } from '../../model/policy.js';
import { sessionMachine } from '../../model/session-machine.js';
import { replyReason, type SessionContext, type SessionEvent } from '../../model/session-types.js';

type M = { n: number };

function session(policy: Policy = reference, transport: 'sse' | 'streamable' = 'streamable') {
  const actor = createActor(sessionMachine, { input: { sessionId: 'abc', tag: 't', policy: policy.server } }).start();
  const send = (event: SessionEvent<M>) => {
    actor.send(event as SessionEvent<unknown>);
    return (actor.getSnapshot().context as SessionContext<M>).reply;
  };
  if (transport === 'sse') send({ type: 'OPEN_LEGACY' });
  send({ type: 'INITIALIZE', transport, protocolVersion: '2025-11-25', capabilities: { roots: {} } });
  const context = () => actor.getSnapshot().context as SessionContext<M>;
  return { actor, send, context };
}

/** Opens a request stream with `count` messages and sends them all; returns the stream and the sent IDs. */
function sendAll(s: ReturnType<typeof session>, count: number, transport: 'sse' | 'streamable' = 'streamable') {
  const messages = Array.from({ length: count }, (_, n) => ({ n }));
  const opened = s.send({ type: 'REQUEST', transport, requestId: 'q1', messages });
  const stream = transport === 'sse' ? s.context().streams[0]!.id : opened.stream!;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(s.send({ type: 'SEND', stream }).frames[0]?.id ?? s.context().log.at(-1)!.id);
  return { stream, ids, opening: opened.frames[0]?.id };
}

describe('session machine', () => {
  test('a streamable request opens a stream whose opening (priming) event carries an ID', () => {
    const s = session();
    const reply = s.send({ type: 'REQUEST', transport: 'streamable', requestId: 'q1', messages: [{ n: 1 }] });
    expect(reply.status).toBe(200);
    expect(reply.frames).toHaveLength(1);
    expect(reply.frames[0]!.opening).toBe('priming');
    expect(reply.frames[0]!.id).toBe('http:t-e1');
  });

  test('the response ends the request stream', () => {
    const s = session();
    const { stream } = sendAll(s, 1);
    expect(s.context().streams.find((x) => x.id === stream)!.complete).toBe(true);
    const again = s.send({ type: 'SEND', stream });
    expect(again.status).toBe(409);
  });

  test('replay after the cursor carries only the cursor stream and starts after it (exclusive)', () => {
    const s = session();
    const a = sendAll(s, 3);
    s.send({ type: 'REQUEST', transport: 'streamable', requestId: 'q2', messages: [{ n: 9 }] });
    s.send({ type: 'CONNECTION_LOST', stream: a.stream });
    const reply = s.send({ type: 'RESUME', transport: 'streamable', lastEventId: a.ids[0]! });
    expect(reply.status).toBe(200);
    expect(reply.stream).toBe(a.stream);
    expect(reply.frames.map((f) => f.id)).toEqual(a.ids.slice(1));
    expect(reply.end).toBe(true);
  });

  test('inclusive replay starts at the cursor', () => {
    const s = session(withKnob(reference, 'replay', 'inclusive'));
    const a = sendAll(s, 3);
    const reply = s.send({ type: 'RESUME', transport: 'streamable', lastEventId: a.ids[1]! });
    expect(reply.frames.map((f) => f.id)).toEqual(a.ids.slice(1));
  });

  test('events sent while the connection is lost go to the log only, and a resume replays them', () => {
    const s = session();
    const opened = s.send({ type: 'REQUEST', transport: 'streamable', requestId: 'q1', messages: [{ n: 1 }, { n: 2 }] });
    s.send({ type: 'CONNECTION_LOST', stream: opened.stream! });
    expect(s.send({ type: 'SEND', stream: opened.stream! }).frames).toEqual([]);
    const reply = s.send({ type: 'RESUME', transport: 'streamable', lastEventId: opened.frames[0]!.id });
    expect(reply.frames.map((f) => f.message)).toEqual([{ n: 1 }]);
  });

  test('reference: a legacy session presented at /mcp is not found for that transport (404)', () => {
    const s = session(reference, 'sse');
    const { ids } = sendAll(s, 2, 'sse');
    const reply = s.send({ type: 'RESUME', transport: 'streamable', lastEventId: ids[0]! });
    expect(reply.status).toBe(404);
    expect(s.context().resumes).toEqual([{ transport: 'streamable', lastEventId: ids[0], outcome: 'rejected', crossTransport: true }]);
    expect(s.send({ type: 'REQUEST', transport: 'streamable', requestId: 'q9', messages: [] }).status).toBe(404);
  });

  test('seed-000: the bridged legacy session resolves a shared-namespace cursor at /mcp and replays after it', () => {
    const s = session(seed000, 'sse');
    const { ids } = sendAll(s, 3, 'sse');
    const reply = s.send({ type: 'RESUME', transport: 'streamable', lastEventId: ids[2]! });
    expect(reply.status).toBe(200);
    expect(reply.frames).toEqual([]);
    expect(ids.every((id) => !id.includes(':'))).toBe(true);
  });

  test('seed-003: the legacy cursor is not in the streamable namespace; 200 quiet, capabilities reset', () => {
    const s = session(seed003, 'sse');
    const { ids } = sendAll(s, 1, 'sse');
    const reply = s.send({ type: 'RESUME', transport: 'streamable', lastEventId: ids[0]! });
    expect(reply).toEqual({ status: 200, frames: [] });
    expect(s.context().capabilities).toEqual({});
    s.send({ type: 'REQUEST', transport: 'streamable', requestId: 'q2', messages: [] });
    expect(s.context().servedUnderForeignCapabilities).toBe(true);
  });

  test('an unknown cursor is 404 under reference and a quiet 200 under the empty-stream mutant', () => {
    expect(session().send({ type: 'RESUME', transport: 'streamable', lastEventId: 'nope' }).status).toBe(404);
    const quiet = session(policies['unknown-cursor-empty-stream']!).send({ type: 'RESUME', transport: 'streamable', lastEventId: 'nope' });
    expect(quiet).toEqual({ status: 200, frames: [] });
  });

  test('a cursor of another session is unknown here (IDs carry the session tag)', () => {
    const a = session();
    const { ids } = sendAll(a, 1);
    const b = createActor(sessionMachine, { input: { sessionId: 'b', tag: 'u', policy: reference.server } }).start();
    b.send({ type: 'INITIALIZE', transport: 'streamable', protocolVersion: '2025-11-25', capabilities: {} });
    b.send({ type: 'RESUME', transport: 'streamable', lastEventId: ids[0]! });
    expect(b.getSnapshot().context.reply.status).toBe(404);
  });

  test('event IDs are unique across the streams of a session', () => {
    const s = session();
    sendAll(s, 3);
    s.send({ type: 'OPEN_STANDALONE', transport: 'streamable' });
    s.send({ type: 'REQUEST', transport: 'streamable', requestId: 'q2', messages: [{ n: 1 }], unrelated: [{ n: 2 }] });
    for (const id of s.context().streams.map((x) => x.id)) {
      while (s.context().streams.find((x) => x.id === id)!.queue.length > 0) s.send({ type: 'SEND', stream: id });
    }
    expect(s.context().log.length).toBe(8);
    const ids = s.context().log.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('after DELETE every request gets 404 and no stream stays connected', () => {
    const s = session();
    const { ids } = sendAll(s, 2);
    expect(s.send({ type: 'DELETE', transport: 'streamable' }).status).toBe(200);
    expect(s.actor.getSnapshot().value).toBe('terminated');
    for (const event of [
      { type: 'RESUME', transport: 'streamable', lastEventId: ids[0]! },
      { type: 'REQUEST', transport: 'streamable', requestId: 'x', messages: [] },
      { type: 'NOTIFY', transport: 'streamable' },
      { type: 'DELETE', transport: 'streamable' },
    ] as SessionEvent<M>[]) {
      expect(s.send(event).status).toBe(404);
    }
    expect(s.context().streams.some((x) => x.connected)).toBe(false);
  });

  test('requests before initialize are refused; legacy initialize needs the legacy stream first', () => {
    const actor = createActor(sessionMachine, { input: { sessionId: 'x', tag: 'x', policy: reference.server } }).start();
    actor.send({ type: 'REQUEST', transport: 'streamable', requestId: 'q', messages: [] });
    expect(actor.getSnapshot().context.reply.status).toBe(400);
    actor.send({ type: 'INITIALIZE', transport: 'sse', protocolVersion: '2024-11-05', capabilities: {} });
    expect(actor.getSnapshot().context.reply.status).toBe(400);
    actor.send({ type: 'OPEN_LEGACY' });
    expect(actor.getSnapshot().context.reply.frames[0]!.opening).toBe('endpoint');
    actor.send({ type: 'INITIALIZE', transport: 'sse', protocolVersion: '2024-11-05', capabilities: {} });
    expect(actor.getSnapshot().value).toBe('active');
  });

  test('a legacy session not yet initialized is not found under streamable HTTP, as an initialized one is', () => {
    const actor = createActor(sessionMachine, { input: { sessionId: 'x', tag: 'x', policy: reference.server } }).start();
    actor.send({ type: 'OPEN_LEGACY' });
    const events: SessionEvent<unknown>[] = [
      { type: 'REQUEST', transport: 'streamable', requestId: 'q', messages: [] },
      { type: 'NOTIFY', transport: 'streamable' },
      { type: 'OPEN_STANDALONE', transport: 'streamable' },
      { type: 'RESUME', transport: 'streamable', lastEventId: 'sse:1' },
      { type: 'DELETE', transport: 'streamable' },
    ];
    for (const event of events) {
      actor.send(event);
      expect(actor.getSnapshot().context.reply).toMatchObject({ status: 404, reason: 'session not found for this transport' });
    }
    // Under its own transport it is still just not initialized.
    actor.send({ type: 'REQUEST', transport: 'sse', requestId: 'q', messages: [] });
    expect(actor.getSnapshot().context.reply).toMatchObject({ status: 400, reason: 'session not initialized' });
    expect(actor.getSnapshot().value).toBe('awaitingInitialize');
  });

  test('a resume with an unknown Last-Event-ID is refused with that cursor as data; its reason is rendered with or without it', () => {
    const s = session();
    sendAll(s, 1);
    // A cursor with spaces: a reader that cut the ID out of the sentence would not find its end.
    const cursor = 'not an event of ours';
    const reply = s.send({ type: 'RESUME', transport: 'streamable', lastEventId: cursor });
    expect(reply).toMatchObject({ status: 404, unknownCursor: cursor });
    expect(replyReason(reply)).toBe(`Last-Event-ID ${cursor} is not an event of this session's streams`);
    expect(replyReason(reply, { eventIds: false })).toBe("the Last-Event-ID is not an event of this session's streams");
    // Other refusals are their fixed sentences either way.
    const other = { status: 404, reason: 'session terminated', frames: [] };
    expect(replyReason(other, { eventIds: false })).toBe('session terminated');
  });
});
