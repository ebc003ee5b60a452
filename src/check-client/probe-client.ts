/**
 * Finds out which transports a client serves before it is checked: one plain call per transport,
 * nothing injected.
 */
import type { Transport } from '../../model/transport.js';
import { ClientUnusable, probeFailure, probeScenario, transportNames, type ClientAbilities } from './abilities.js';
import type { ClientFactory } from './adapters/contract.js';
import { runScenario, type ClientBounds } from './run-scenario.js';

/** The transports in probe order: streamable first, the commoner. */
export const probed: readonly Transport[] = ['streamable', 'sse'];

/**
 * Finds out which transports the client serves: one plain `tools/call` per transport, nothing
 * injected, one transport after the other, bounded as a scenario is.
 * @throws ClientUnusable when the call completes under neither transport, naming what happened under each
 */
export async function probeClient(
  factory: ClientFactory,
  timeoutMs: number,
  bounds: ClientBounds = {},
): Promise<ClientAbilities & { unserved: Partial<Record<Transport, string>>; closeTimedOut: boolean }> {
  // One after the other, as scenarios run by default: an adapter that holds one resource (a port,
  // a lock) must not fail a probe only because another runs beside it.
  const runs: Array<Awaited<ReturnType<typeof runScenario>>> = [];
  for (const transport of probed) runs.push(await runScenario(factory, probeScenario(transport), timeoutMs, bounds));
  const unserved: Partial<Record<Transport, string>> = {};
  probed.forEach((t, i) => {
    const failure = probeFailure(runs[i]!.history, runs[i]!.error);
    if (failure !== undefined) unserved[t] = failure;
  });
  const transports = probed.filter((t) => unserved[t] === undefined);
  if (transports.length === 0) {
    throw new ClientUnusable(
      `the client completes no tools/call with no fault injected: ${probed.map((t) => `${transportNames[t]}: ${unserved[t]!}`).join('; ')}`,
    );
  }
  return {
    transports,
    notes: probed.flatMap((t) =>
      unserved[t] !== undefined
        ? [
            `${transportNames[t]}: a plain tools/call with no fault injected did not complete (${unserved[t]!}), so the client is taken not to serve it: its scenarios and fast-check draws are not run`,
          ]
        : [],
    ),
    unserved,
    closeTimedOut: runs.some((r) => r.closeTimedOut === true),
  };
}
