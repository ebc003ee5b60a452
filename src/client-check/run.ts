/**
 * Runs the client scenarios against one client adapter: per scenario a fresh reference server, a
 * loopback proxy with the scenario's faults, and a fresh client from the factory; then every client
 * judge on what was recorded. Every server, proxy and client is stopped in `finally`.
 */
import { clientJudges } from '../../properties/client/judges.js';
import { clientPropertyIds, type ClientPropertyId } from '../../properties/client/ids.js';
import { clientDefinitions } from '../../properties/client/definitions.js';
import type { AppEntry, ClientHistory, WireEntry, WireMessage } from '../../properties/client/history.js';
import { createReferenceServer } from '../reference/server.js';
import type { ClientFactory, ClientUnderTest } from './contract.js';
import { isClientUnderTest } from './contract.js';
import { describeFault } from './faults.js';
import { Clock, startProxy } from './proxy.js';
import type { ClientPropertyResult, ClientReport, ScenarioOutcome } from './report.js';
import { clientScenarios, type ClientScenario } from './scenarios.js';

export interface ClientCheckOptions {
  /** Shown in reports. */
  name: string;
  /** The request timeout handed to the factory, ms (default 1000). Calls are waited for 3x this + 500 ms. */
  timeoutMs?: number;
  /** Run only these scenarios (by name). */
  scenarios?: string[];
  /** Judge only these properties. */
  only?: ClientPropertyId[];
  /** Called after each scenario. */
  onScenario?: (outcome: ScenarioOutcome) => void;
}

/** The bound of a client's setup (connecting is not under test): generous, so load does not fail a scenario. */
export function setupMs(timeoutMs: number): number {
  return Math.max(timeoutMs * 10, 5000) + 1000;
}

/** How long an application-side wait for a frame's message may take before a cut goes ahead anyway. */
const APPLICATION_WAIT_MS = 500;

function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Whether an application entry is `message` reaching the application (a response: some call settling after the frame). */
function sameMessage(entry: AppEntry, message: WireMessage, since: number): boolean {
  if (entry.at <= since) return false;
  if (message.method === undefined) return entry.kind === 'settled' && entry.outcome !== 'pending';
  return entry.kind === 'notification' && entry.method === message.method && JSON.stringify(entry.params) === JSON.stringify(message.params);
}

/** Runs one scenario and returns its history, or the reason it could not run. */
export async function runScenario(
  factory: ClientFactory,
  scenario: ClientScenario,
  timeoutMs: number,
): Promise<{ history: ClientHistory; error?: string }> {
  const boundMs = timeoutMs * 3 + 500;
  const clock = new Clock();
  const wire: WireEntry[] = [];
  const app: AppEntry[] = [];
  const history: ClientHistory = { transport: scenario.transport, wire, app, boundMs };
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
      const timer = setTimeout(() => done(false), APPLICATION_WAIT_MS);
      const done = (value: boolean): void => {
        clearTimeout(timer);
        waiters.delete(check);
        resolve(value);
      };
      waiters.add(check);
      check();
    });

  const server = await createReferenceServer({ policy: scenario.policy });
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  let client: ClientUnderTest | undefined;
  try {
    proxy = await startProxy({ upstream: server.url, faults: scenario.faults, clock, wire, applicationHas });
    const url = `${proxy.url}${scenario.transport === 'streamable' ? '/mcp' : '/sse'}`;
    try {
      const made = await bounded(factory({ url, transport: scenario.transport, timeoutMs }), setupMs(timeoutMs), 'the factory');
      if (!isClientUnderTest(made)) throw new Error('the factory did not resolve to {callTool, onNotification, close}');
      client = made;
    } catch (error) {
      return { history, error: `the client could not connect: ${(error as Error)?.message?.split('\n')[0] ?? String(error)}` };
    }
    client.onNotification((n) => {
      app.push({ kind: 'notification', at: clock.tick(), method: n.method, ...(n.params !== undefined ? { params: n.params } : {}) });
      changed();
    });
    let number = 0;
    for (const call of scenario.calls) {
      const callNumber = ++number;
      app.push({ kind: 'call', at: clock.tick(), call: callNumber, name: call.name, args: { ...call.args } });
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        Promise.resolve()
          .then(() => client!.callTool(call.name, { ...call.args }))
          .then(
            (value): AppEntry => ({ kind: 'settled', at: clock.tick(), call: callNumber, outcome: 'resolved', value }),
            (error: unknown): AppEntry => ({ kind: 'settled', at: clock.tick(), call: callNumber, outcome: 'rejected', error: (error as Error)?.message ?? String(error) }),
          ),
        new Promise<AppEntry>((resolve) => {
          timer = setTimeout(() => resolve({ kind: 'settled', at: clock.tick(), call: callNumber, outcome: 'pending' }), boundMs);
        }),
      ]);
      clearTimeout(timer);
      app.push(outcome);
      changed();
    }
    return { history: { ...history, wire: [...wire], app: [...app] } };
  } finally {
    if (client) await bounded(client.close(), 5_000, 'close()').catch(() => {});
    await proxy?.close();
    await server.close();
  }
}

/** Judges one history with every (selected) client property. */
export function judgeClientHistory(history: ClientHistory, only: readonly ClientPropertyId[] = clientPropertyIds) {
  return only.map((id) => ({ id, verdict: clientJudges[id](history) }));
}

/**
 * Runs every scenario against the factory and reports each client property: `fail` with the first
 * scenario that broke it, `pass` when judged somewhere and never broken, `skip` when no scenario
 * that ran exercised it.
 */
export async function runClientCheck(factory: ClientFactory, options: ClientCheckOptions): Promise<ClientReport> {
  const timeoutMs = options.timeoutMs ?? 1000;
  const ids = options.only ?? [...clientPropertyIds];
  const scenarios = clientScenarios(timeoutMs).filter((s) => !options.scenarios || options.scenarios.includes(s.name));
  const results = new Map<ClientPropertyId, ClientPropertyResult>(
    ids.map((id) => [
      id,
      { id, status: 'skip', runs: 0, level: clientDefinitions[id].level, statement: clientDefinitions[id].statement, reason: 'no scenario that ran exercised it' },
    ]),
  );
  const outcomes: ScenarioOutcome[] = [];
  for (const scenario of scenarios) {
    const { history, error } = await runScenario(factory, scenario, timeoutMs);
    const outcome: ScenarioOutcome = {
      name: scenario.name,
      summary: scenario.summary,
      transport: scenario.transport,
      policy: scenario.policyName,
      faults: scenario.faults.map(describeFault),
      broke: [],
    };
    if (error !== undefined) outcome.error = error;
    else {
      for (const { id, verdict } of judgeClientHistory(history, ids)) {
        if (verdict.status === 'n/a') continue;
        const result = results.get(id)!;
        result.runs++;
        if (verdict.status === 'fail') {
          outcome.broke.push(id);
          if (result.status !== 'fail') {
            results.set(id, {
              ...result,
              status: 'fail',
              reason: verdict.reason,
              counterexample: { scenario: scenario.name, faults: outcome.faults, at: verdict.at, history },
            });
          }
        } else if (result.status === 'skip') {
          const { reason: _reason, ...rest } = result;
          results.set(id, { ...rest, status: 'pass' });
        }
      }
    }
    outcomes.push(outcome);
    options.onScenario?.(outcome);
  }
  return { client: { name: options.name }, timeoutMs, scenarios: outcomes, properties: [...results.values()] };
}
