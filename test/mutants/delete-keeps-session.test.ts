/** `delete-keeps-session`: DELETE answers 200 but the session goes on serving. */
import { expect, test } from 'vitest';
import { deleteKeepsSession } from '../../src/check-server/mutants/index.js';
import { dropAfter, serveVariant, session, useCleanup } from './helpers.js';

useCleanup();

test.each([
  ['reference', 404, false],
  ['mutant', 200, true],
] as const)('%s: after a 200 DELETE, a ping and a resume are answered %d (served: %s)', async (variant, status, servedAfter) => {
  const server = await serveVariant(variant, deleteKeepsSession);
  const c = await session(server);
  const dropped = await dropAfter(c, 'a', 2, 1);
  expect(await c.deleteSession()).toMatchObject({ kind: 'body', status: 200 });
  const ping = await c.ping();
  expect(ping.answer.kind === 'error' ? undefined : ping.answer.status).toBe(status);
  const outcome = await ping.response();
  expect(outcome.kind === 'response' && outcome.message.error === undefined).toBe(servedAfter);
  const answer = await c.resume({ from: dropped });
  expect(answer.kind === 'error' ? undefined : answer.status).toBe(status);
  expect(server.sessions.get(c.session.sessionId!)!.state).toBe(variant === 'reference' ? 'terminated' : 'active');
});
