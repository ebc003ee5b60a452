/**
 * What a mutant is: the reference server deliberately broken, in one documented way, started like
 * any candidate adapter (`src/check-server/candidates/adapter.ts`), with the properties the conformance suite
 * must then find broken.
 *
 * Two kinds:
 * - `policy`: the reference server serving another named policy of `model/policy.ts` (only its
 *   server knobs reach the server; its client knobs are the checker's business);
 * - `code`: the reference policy, with one {@link Mutation} hook distorting the machine's inputs or
 *   outputs (`src/reference/mutation.ts`).
 *
 * `breaks` is read against the checker's reference client (cursor on drain, dedup, retry on
 * timeout): the properties that some scenario of the suite's vocabulary makes fail on this server.
 * For the policy mutants it is what exhaustive exploration of the model finds for the policy's
 * server knobs with the reference client's knobs (`test/mutants/catalog.test.ts` checks it).
 */
import type { PropertyId } from '../../../model/property-ids.js';
import type { RunningCandidate } from '../candidates/adapter.js';
import { startReference } from '../candidates/reference.js';
import type { Mutation } from '../../reference/index.js';

export interface Mutant {
  /** Stable name, used in reports and by `--adapter src/check-server/mutants/NAME.ts`. */
  readonly name: string;
  /** What it distorts, one line. */
  readonly description: string;
  /** The properties the suite must find broken on this server. */
  readonly breaks: PropertyId[];
  readonly kind: 'policy' | 'code';
  /** Starts it on 127.0.0.1 (a fresh mutation each time); the adapter shape. */
  start(): Promise<RunningCandidate>;
}

/** The reference server serving the named policy. */
export function policyMutant(policy: string, description: string, breaks: PropertyId[]): Mutant {
  return Object.freeze({
    name: policy,
    description,
    breaks: Object.freeze([...breaks]) as PropertyId[],
    kind: 'policy' as const,
    start: () => startReference({ policy, name: `mutant ${policy}` }),
  });
}

/** The reference server (reference policy) with the mutation `create()` builds, one per start. */
export function codeMutant(name: string, description: string, breaks: PropertyId[], create: () => Mutation): Mutant {
  return Object.freeze({
    name,
    description,
    breaks: Object.freeze([...breaks]) as PropertyId[],
    kind: 'code' as const,
    start: () => startReference({ policy: 'reference', mutation: create(), name: `mutant ${name}` }),
  });
}
