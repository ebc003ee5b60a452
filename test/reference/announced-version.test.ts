/**
 * The version each of this project's parts announces in `initialize` is package.json's: the
 * reference server's `serverInfo`, the server checker's driver's and the checking client's
 * `clientInfo` (the wire client's default and the client-check adapter's).
 */
import { readFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import type { JsonRpcMessage } from '../../properties/history.js';
import { probeScenario } from '../../src/check-client/abilities.js';
import { checkingClientFactory } from '../../src/check-client/adapters/checking-client.js';
import { runScenario } from '../../src/check-client/run-scenario.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { referenceClient } from '../../src/check-server/run-suite.js';
import { runSteps } from '../../src/check-server/scenario.js';
import { candidateBounds } from '../../src/check-server/coverage.js';
import { probeAbilities } from '../../src/check-server/abilities.js';
import { CheckClient } from '../../src/wire/index.js';

/** package.json's version, read here rather than through src/version.ts. */
const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

let server: ReferenceServer | undefined;
let client: CheckClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** The `params` of the first `initialize` among messages. */
function initializeParams(messages: readonly unknown[]): { clientInfo?: { version?: unknown } } | undefined {
  const found = messages.find((m): m is JsonRpcMessage => typeof m === 'object' && m !== null && (m as JsonRpcMessage).method === 'initialize');
  return found?.params as { clientInfo?: { version?: unknown } } | undefined;
}

test("the wire client's default clientInfo and the reference server's serverInfo carry package.json's version", async () => {
  server = await createReferenceServer();
  client = new CheckClient({ baseUrl: server.url, timeoutMs: 5000 });
  const outcome = await client.initialize();
  expect(outcome.ok).toBe(true);
  const sent = client.history.entries.flatMap((e) => (e.type === 'request' && e.body !== undefined ? [e.body] : []));
  expect(initializeParams(sent)?.clientInfo?.version).toBe(packageVersion);
  const answered = outcome.ok ? (outcome.result as { serverInfo?: { version?: unknown } }) : undefined;
  expect(answered?.serverInfo?.version).toBe(packageVersion);
});

test("the server checker's driver announces package.json's version", async () => {
  server = await createReferenceServer();
  const target = { name: 'reference', url: server.url };
  const abilities = await probeAbilities(target, 5000);
  const context = { target, abilities, client: referenceClient, timeoutMs: 5000, runTag: 'version' };
  const bounds = candidateBounds(abilities, { calls: 1, notifications: 1, drops: 0, resumes: 0, inFlight: 1, undrained: 0 });
  const record = await runSteps(context, bounds, [{ type: 'INITIALIZE', transport: 'streamable' }], { seed: -1, path: 'version' });
  const sent = record.history.entries.flatMap((e) => (e.type === 'request' && e.body !== undefined ? [e.body] : []));
  expect(initializeParams(sent)?.clientInfo?.version).toBe(packageVersion);
});

test("the client checker's checking client announces package.json's version", async () => {
  const { history, error } = await runScenario(checkingClientFactory(), probeScenario('streamable'), 2000);
  expect(error).toBeUndefined();
  const sent = history.wire.flatMap((e) => (e.kind === 'request' ? e.messages : []));
  expect(initializeParams(sent)?.clientInfo?.version).toBe(packageVersion);
});
