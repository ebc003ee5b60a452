/**
 * Client mutants: this project's checking client (`src/wire/`, through its adapter) with one
 * knob flipped each, and the exact set of client properties each must break (asserted by
 * `test/client-check/clients.test.ts`). `check-client --client NAME` runs one.
 */
import type { ClientPropertyId } from '../../../properties/client/ids.js';
import { checkingClientFactory, type ClientKnobs } from '../adapters/checking-client.js';
import type { ClientFactory } from '../adapters/contract.js';

export interface ClientMutant {
  name: string;
  /** The flaw, one sentence. */
  flaw: string;
  /** The one knob changed from the correct client. */
  knobs: Partial<ClientKnobs>;
  /** Exactly the properties it breaks. */
  breaks: ClientPropertyId[];
  factory: ClientFactory;
}

function mutant(name: string, flaw: string, knobs: Partial<ClientKnobs>, breaks: ClientPropertyId[]): ClientMutant {
  return { name, flaw, knobs, breaks, factory: checkingClientFactory(knobs) };
}

/** The catalog. */
export const clientMutants: readonly ClientMutant[] = [
  mutant(
    'cursor-on-receive',
    "the checking client's on-receive setting: its cursor moves when a frame is received, while the application processes frames one behind; a cut drops the received, unprocessed frame",
    { cursorAdvance: 'onReceive' },
    ['client-delivers-exactly-once', 'client-resume-cursor-processed'],
  ),
  mutant('no-dedup', 'delivers a replayed event again although the application already has its event ID', { dedup: false }, ['client-delivers-exactly-once']),
  mutant('retry-on-timeout', 'silently re-sends a timed-out tool call under a new request ID', { retryOnTimeout: true }, [
    'client-no-silent-resend',
    'client-delivers-exactly-once',
  ]),
  mutant('resume-at-other-transport', 'resumes a cut legacy stream at /mcp, presenting the legacy session ID there', { resumeAt: 'other' }, [
    'client-no-cross-transport-session',
  ]),
  mutant(
    'streamable-session-at-legacy',
    'resumes a cut streamable call stream at the legacy /sse, presenting the streamable session in the Mcp-Session-Id header only (no ?sessionId=)',
    { streamableResumeAt: 'other' },
    ['client-no-cross-transport-session'],
  ),
  mutant(
    'empty-result-on-cut',
    "resolves a call whose stream was cut with a made-up empty result {content: []} at once, while a background resume still delivers the call's notifications",
    { onCutCall: 'emptyResult' },
    ['client-delivers-exactly-once'],
  ),
  mutant('no-reinitialize-on-404', 'retries the dead session after a 404 instead of starting a new one', { on404: 'retrySession' }, [
    'client-reinitializes-on-404',
  ]),
  mutant(
    'unbounded-wait',
    'sets no timeout and never surfaces a failed call (a refused resume, a 404): the application keeps waiting',
    { boundedWait: false },
    ['client-bounded-wait'],
  ),
];

/** A mutant by name. */
export function clientMutantByName(name: string): ClientMutant {
  const found = clientMutants.find((m) => m.name === name);
  if (!found) throw new RangeError(`unknown client mutant "${name}"; mutants: ${clientMutants.map((m) => m.name).join(', ')}`);
  return found;
}
