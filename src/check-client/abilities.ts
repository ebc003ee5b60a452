/**
 * What a client can do, found before it is judged (as `check` probes a server first): per
 * transport, whether it completes a plain `tools/call` with no fault injected. Properties that a
 * rejected call satisfies would otherwise pass a client that does nothing, and a transport the
 * client does not serve would fill the report with scenarios that could not start.
 */
import { reference } from '../../model/policy.js';
import type { Transport } from '../../model/transport.js';
import type { ClientHistory } from '../../properties/client/history.js';
import type { ClientScenario } from './scenarios.js';

/** The client could not be checked at all (exit status 2). */
export class ClientUnusable extends Error {
  override name = 'ClientUnusable';
}

/** What the probe found: the transports the client serves, and notes the report shows. */
export interface ClientAbilities {
  transports: Transport[];
  notes: string[];
}

/** The transports in the reports' words. */
export const transportNames: Record<Transport, string> = { streamable: 'streamable HTTP', sse: 'legacy HTTP+SSE' };

/** The probe of one transport: one plain call of one notification, nothing injected. */
export function probeScenario(transport: Transport): ClientScenario {
  return {
    name: `probe:${transport}`,
    summary: `a plain tools/call over ${transportNames[transport]}, no fault injected`,
    transport,
    policy: reference,
    policyName: 'reference',
    faults: [],
    calls: [{ name: 'emit', args: { label: 'probe', count: 1 } }],
  };
}

/** Why a probe's run shows the transport is not served, or undefined when its call completed. */
export function probeFailure(history: ClientHistory, error: string | undefined): string | undefined {
  if (error !== undefined) return error;
  const settled = history.app.find((e) => e.kind === 'settled');
  if (settled?.kind !== 'settled' || settled.outcome === 'pending') return `call did not settle within ${history.boundMs} ms`;
  if (settled.outcome === 'rejected') return `call fails (${(settled.error ?? '').split('\n')[0]})`;
  const sent = history.wire.some((e) => e.kind === 'request' && e.origin === 'client' && e.messages.some((m) => m.method === 'tools/call'));
  return sent ? undefined : 'call resolved, but no tools/call reached the server';
}
