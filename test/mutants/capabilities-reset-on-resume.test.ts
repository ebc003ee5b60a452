/**
 * `capabilities-reset-on-resume`: after any accepted resume (here of the standalone stream, same
 * transport), `session_info` reports the default profile `{}` instead of the declared capabilities.
 */
import { expect, test } from 'vitest';
import { toolJson } from '../../properties/messages.js';
import type { CheckClient } from '../../src/wire/index.js';
import { capabilitiesResetOnResume } from '../../src/check-server/mutants/index.js';
import { receive, serveVariant, session, stream, until, useCleanup } from './helpers.js';

useCleanup();

const DECLARED = { roots: { listChanged: true }, sampling: {} };

async function served(c: CheckClient): Promise<unknown> {
  const outcome = await (await c.callTool('session_info')).response();
  if (outcome.kind !== 'response') throw new Error(`session_info: ${outcome.kind}`);
  return toolJson(outcome.message)?.clientCapabilities;
}

test.each([
  ['reference', DECLARED],
  ['mutant', {}],
] as const)('%s: after a resume of the standalone stream, session_info reports %j', async (variant, after) => {
  const server = await serveVariant(variant, capabilitiesResetOnResume);
  const c = await session(server, 'streamable', { capabilities: DECLARED });
  expect(await served(c)).toEqual(DECLARED);

  const standalone = stream(await c.openStandalone());
  await receive(standalone, 1);
  standalone.drop();
  const held = server.sessions.get(c.session.sessionId!)!;
  await until(() => held.context.streams.find((s) => s.kind === 'standalone')?.connected === false, 'the server to see the drop');

  // A refused resume changes nothing, in either server.
  expect(await c.resume({ lastEventId: 'no-such-event' })).toMatchObject({ kind: 'body', status: 404 });
  expect(await served(c)).toEqual(DECLARED);

  expect(await c.resume({ from: standalone })).toMatchObject({ kind: 'stream', status: 200 });
  expect(await served(c)).toEqual(after);
});
