/**
 * The client checker's bounded waits use the patient timer: an event loop starved past a bound (a
 * loaded machine, or many scenarios sharing the loop) lengthens the wait instead of ending it with
 * the answer unread. Without it, a healthy client is taken for one that hangs, or times out itself.
 */
import { afterEach, expect, test } from 'vitest';
import { checkingClientFactory } from '../../src/check-client/adapters/checking-client.js';
import type { ClientFactory, ClientUnderTest } from '../../src/check-client/adapters/contract.js';
import { runScenario } from '../../src/check-client/run-scenario.js';
import { clientScenarios } from '../../src/check-client/scenarios.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/server.js';

/** Keeps the event loop busy for `ms`, as a loaded machine does. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // starved
  }
}

/** Settles as soon as the event loop can (on a timer, so after the timers already due). */
const soon = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), 0));

let server: ReferenceServer | undefined;
let client: ClientUnderTest | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

/** A client that starves the loop past the bound of connecting (500 ms) or of a call (3 x 100 + 500 ms), then answers at once. */
function starving(step: 'connect' | 'call'): ClientFactory {
  const starve = (what: typeof step): void => {
    if (what === step) block(1500);
  };
  return async () => {
    starve('connect');
    return soon({
      callTool: () => {
        starve('call');
        return soon({ content: [] });
      },
      onNotification: () => {},
      close: async () => {},
    });
  };
}

const timeoutMs = 100;
const scenario = { ...clientScenarios(timeoutMs).find((s) => s.name === 'delayed-result')!, faults: [] };

test.each(['connect', 'call'] as const)('a client answering after a starved loop (at %s) is neither given up on nor taken for a hung call', async (step) => {
  const { history, error } = await runScenario(starving(step), scenario, timeoutMs, { connectMs: 500 });
  expect(error).toBeUndefined();
  expect(history.app.filter((e) => e.kind === 'settled').map((e) => e.kind === 'settled' && e.outcome)).toEqual(['resolved']);
});

test("the checking client's own request timeout does not fire on an answer left unread by a starved loop", async () => {
  server = await createReferenceServer();
  client = await checkingClientFactory()({ url: `${server.url}/mcp`, transport: 'streamable', timeoutMs: 300 });
  const call = client.callTool('emit', { label: 'starved', count: 1 });
  block(1500);
  await expect(call).resolves.toBeDefined();
});
