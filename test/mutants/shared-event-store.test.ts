/**
 * `shared-event-store`: one event store for the server. Event IDs carry no session tag, and a
 * cursor of session A presented with session B's ID replays A's events.
 */
import { expect, test } from 'vitest';
import { sharedEventStore } from '../../src/check-server/mutants/index.js';
import { carried, dropAfter, serveVariant, session, stream, useCleanup, type Variant } from './helpers.js';

useCleanup();

test("reference: session A's cursor presented with session B's ID is 404", async () => {
  const server = await serveVariant('reference', sharedEventStore);
  const a = await session(server);
  const dropped = await dropAfter(a, 'a', 2, 1);
  expect(dropped.cursor).toMatch(/^http:[0-9a-f]{8}-e2$/);
  const b = await session(server);
  const answer = await b.resume({ lastEventId: dropped.cursor!, sessionId: b.session.sessionId! });
  expect(answer).toMatchObject({ kind: 'body', status: 404 });
});

test("mutant: session A's cursor presented with session B's ID replays A's events under B's ID", async () => {
  const server = await serveVariant('mutant' as Variant, sharedEventStore);
  const a = await session(server);
  const dropped = await dropAfter(a, 'a', 2, 1);
  expect(dropped.cursor).toMatch(/^http:e\d+$/);
  const b = await session(server);
  expect(b.session.sessionId).not.toBe(a.session.sessionId);
  const answer = await b.resume({ lastEventId: dropped.cursor!, sessionId: b.session.sessionId! });
  expect(answer).toMatchObject({ kind: 'stream', status: 200, headers: { 'mcp-session-id': b.session.sessionId } });
  expect(await carried(stream(answer))).toEqual({ frames: ['a2', 'result a'], stream: 'end' });
  expect(server.internalErrors).toEqual([]);
});
