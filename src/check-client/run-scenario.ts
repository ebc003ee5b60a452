/**
 * Runs one client scenario: a fresh reference server, a loopback proxy with the scenario's faults,
 * and a fresh client from the factory, its calls made one after the other and every step recorded
 * (the wire by the proxy, the application's side here); every server, proxy and client is stopped
 * in `finally`. Then the client judges on what was recorded.
 */
import { clientJudges } from '../../properties/client/judges.js';
import { clientPropertyIds, type ClientPropertyId } from '../../properties/client/ids.js';
import type { AppEntry, ClientHistory, WireEntry, WireMessage } from '../../properties/client/history.js';
import { createReferenceServer } from '../reference/server.js';
import { patientTimeout } from '../wire/patient-timer.js';
import type { ClientFactory, ClientUnderTest } from './adapters/contract.js';
import { isClientUnderTest } from './adapters/contract.js';
import { Clock, startProxy } from './proxy.js';
import type { ClientScenario } from './scenarios.js';

/** The bound of a client's setup (connecting is not under test): generous, so load does not fail a scenario. */
export function setupMs(timeoutMs: number): number {
  return Math.max(timeoutMs * 10, 5000) + 1000;
}

/** How long an application-side wait for a frame's message may take before a cut goes ahead anyway. */
const APPLICATION_WAIT_MS = 500;

/** A bounded step of the client's that did not finish: told apart by its class, not its words. */
class NotFinished extends Error {}

function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let cancel: (() => void) | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      cancel = patientTimeout(ms, () => reject(new NotFinished(`${what} did not finish within ${ms} ms`)));
    }),
  ]).finally(() => cancel?.());
}

/** Whether an application entry is `message` reaching the application (a response: some call settling after the frame). */
function sameMessage(entry: AppEntry, message: WireMessage, since: number): boolean {
  if (entry.at <= since) return false;
  if (message.method === undefined) return entry.kind === 'settled' && entry.outcome !== 'pending';
  return entry.kind === 'notification' && entry.method === message.method && JSON.stringify(entry.params) === JSON.stringify(message.params);
}

/** The bounds of a client's setup and teardown, ms. */
export interface ClientBounds {
  connectMs?: number;
  closeMs?: number;
}

/**
 * Runs one scenario and returns its history, or the reason it could not run; `closeTimedOut` when
 * the client's `close()` did not finish within its bound.
 */
export async function runScenario(
  factory: ClientFactory,
  scenario: ClientScenario,
  timeoutMs: number,
  bounds: ClientBounds = {},
): Promise<{ history: ClientHistory; error?: string; closeTimedOut?: true }> {
  const boundMs = timeoutMs * 3 + 500;
  const clock = new Clock();
  const wire: WireEntry[] = [];
  const app: AppEntry[] = [];
  const history: ClientHistory = {
    transport: scenario.transport,
    wire,
    app,
    boundMs,
    ...(scenario.policy.server.replay === 'inclusive' ? { serverReplay: 'inclusive' as const } : {}),
  };
  const waiters = new Set<() => void>();
  const changed = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  const applicationHas = (message: WireMessage, since: number): Promise<boolean> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (!app.some((e) => sameMessage(e, message, since))) return;
        done(true);
      };
      const cancel = patientTimeout(APPLICATION_WAIT_MS, () => done(false));
      const done = (value: boolean): void => {
        cancel();
        waiters.delete(check);
        resolve(value);
      };
      waiters.add(check);
      check();
    });

  const server = await createReferenceServer({ policy: scenario.policy });
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  let client: ClientUnderTest | undefined;
  // Filled in before `finally` closes the client, which marks a close() that did not finish.
  let result: { history: ClientHistory; closeTimedOut?: true } | undefined;
  try {
    proxy = await startProxy({ upstream: server.url, faults: scenario.faults, clock, wire, applicationHas });
    const url = `${proxy.url}${scenario.transport === 'streamable' ? '/mcp' : '/sse'}`;
    let gaveUp = false;
    try {
      const making = Promise.resolve().then(() => factory({ url, transport: scenario.transport, timeoutMs }));
      // A client that connects after its bound is closed when it does, not left running.
      making.then((late) => (gaveUp && isClientUnderTest(late) ? late.close() : undefined)).catch(() => {});
      const made = await bounded(making, bounds.connectMs ?? setupMs(timeoutMs), 'the client factory');
      if (!isClientUnderTest(made)) throw new Error('the factory did not resolve to {callTool, onNotification, close}');
      client = made;
    } catch (error) {
      gaveUp = true;
      const reason = (error as Error)?.message?.split('\n')[0] ?? String(error);
      return { history, error: error instanceof NotFinished ? reason : `the client could not connect: ${reason}` };
    }
    client.onNotification((n) => {
      app.push({ kind: 'notification', at: clock.tick(), method: n.method, ...(n.params !== undefined ? { params: n.params } : {}) });
      changed();
    });
    let number = 0;
    for (const call of scenario.calls) {
      const callNumber = ++number;
      app.push({ kind: 'call', at: clock.tick(), call: callNumber, name: call.name, args: { ...call.args } });
      let cancel: (() => void) | undefined;
      const outcome = await Promise.race([
        Promise.resolve()
          .then(() => client!.callTool(call.name, { ...call.args }))
          .then(
            (value): AppEntry => ({ kind: 'settled', at: clock.tick(), call: callNumber, outcome: 'resolved', value }),
            (error: unknown): AppEntry => ({
              kind: 'settled',
              at: clock.tick(),
              call: callNumber,
              outcome: 'rejected',
              error: (error as Error)?.message ?? String(error),
            }),
          ),
        new Promise<AppEntry>((resolve) => {
          cancel = patientTimeout(boundMs, () => resolve({ kind: 'settled', at: clock.tick(), call: callNumber, outcome: 'pending' }));
        }),
      ]);
      cancel?.();
      app.push(outcome);
      changed();
    }
    result = { history: { ...history, wire: [...wire], app: [...app] } };
    return result;
  } finally {
    if (client) {
      await bounded(
        Promise.resolve().then(() => client!.close()),
        bounds.closeMs ?? 5_000,
        'close()',
      ).catch((error: Error) => {
        if (result && error instanceof NotFinished) result.closeTimedOut = true;
      });
    }
    await proxy?.close();
    await server.close();
  }
}

/** Judges one history with every (selected) client property. */
export function judgeClientHistory(history: ClientHistory, only: readonly ClientPropertyId[] = clientPropertyIds) {
  return only.map((id) => ({ id, verdict: clientJudges[id](history) }));
}
