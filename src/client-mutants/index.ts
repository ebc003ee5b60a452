/**
 * Client mutants: the reference client with one deliberate flaw each, and the exact set of client
 * properties each must break (asserted by `test/client-check/mutants.test.ts`). Each is also a
 * loadable adapter: `check-client --adapter src/client-mutants/<name>.ts`.
 */
import type { ClientPropertyId } from '../../properties/client/ids.js';
import { referenceClientFactory, type ReferenceClientKnobs } from '../client-adapters/reference-client.js';
import type { ClientFactory } from '../client-check/contract.js';

export interface ClientMutant {
  name: string;
  /** The flaw, one sentence. */
  flaw: string;
  /** The one knob changed from the correct client. */
  knobs: Partial<ReferenceClientKnobs>;
  /** Exactly the properties it breaks. */
  breaks: ClientPropertyId[];
  factory: ClientFactory;
}

function mutant(name: string, flaw: string, knobs: Partial<ReferenceClientKnobs>, breaks: ClientPropertyId[]): ClientMutant {
  return { name, flaw, knobs, breaks, factory: referenceClientFactory(knobs) };
}

/** The catalog. */
export const clientMutants: readonly ClientMutant[] = [
  mutant(
    'cursor-on-receive',
    'moves its cursor when a frame is parsed and hands frames to the application one frame late; the read-ahead frame is dropped when the connection is cut',
    { cursorAdvance: 'onReceive' },
    ['client-delivers-exactly-once', 'client-resume-cursor-processed'],
  ),
  mutant('no-dedup', 'delivers a replayed event again although the application already has its event ID', { dedup: false }, ['client-delivers-exactly-once']),
  mutant(
    'retry-on-timeout',
    'silently re-sends a timed-out tool call under a new request ID',
    { retryOnTimeout: true },
    ['client-no-silent-resend', 'client-delivers-exactly-once'],
  ),
  mutant(
    'resume-at-other-transport',
    'resumes a cut legacy stream at /mcp, presenting the legacy session ID there',
    { resumeAt: 'other' },
    ['client-no-cross-transport-session'],
  ),
  mutant('no-reinitialize-on-404', 'retries the dead session after a 404 instead of starting a new one', { on404: 'retrySession' }, ['client-reinitializes-on-404']),
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
