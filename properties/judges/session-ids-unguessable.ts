/**
 * `session-ids-unguessable`: session IDs cannot be guessed from others. It is judged from the few
 * IDs a check sees, so only what they plainly show fails: a counter or a clock under a prefix (two
 * IDs that differ only in a trailing number close to the other's, whichever transport minted them),
 * or, among one transport's IDs, numbers close together or too few bits that vary. Each transport
 * is judged apart: a server minting random IDs on one transport would otherwise hide a counter on
 * the other in the pooled sample. The bits are estimated per character
 * position that varies across the sample, in the smallest common alphabet (decimal, hex, base64...)
 * holding every character seen at those positions: a position of a random ID varies across four
 * samples almost surely, while four samples show at most two bits of a position counted by its
 * distinct characters, which called short random IDs guessable. A generator that is random-looking
 * but not cryptographically secure cannot be told apart from a few samples, and passes.
 */
import type { HistoryView } from '../history-view.js';
import type { Transport } from '../../model/transport.js';
import { fail, pass, skip, type Judgement } from '../judgement.js';

/** Alphabets session IDs are drawn from, smallest first. */
const alphabets: ReadonlyArray<{ name: string; size: number; has: RegExp }> = [
  { name: 'decimal', size: 10, has: /^[0-9]*$/ },
  { name: 'hex', size: 16, has: /^[0-9a-f]*$/ },
  { name: 'hex', size: 16, has: /^[0-9A-F]*$/ },
  { name: 'base36', size: 36, has: /^[0-9a-z]*$/ },
  { name: 'base36', size: 36, has: /^[0-9A-Z]*$/ },
  { name: 'letters and digits', size: 62, has: /^[0-9A-Za-z]*$/ },
  { name: 'base64url', size: 64, has: /^[0-9A-Za-z_-]*$/ },
  { name: 'base64', size: 64, has: /^[0-9A-Za-z+/]*$/ },
  { name: 'visible ASCII', size: 94, has: /^[\x21-\x7e]*$/ },
];

/** What the sample shows varying: the positions (over the shortest ID) whose character is not the same in every ID, and the bits they can hold. */
export interface Variation {
  positions: number;
  alphabet: string;
  bits: number;
}

/** The varying positions of `ids` and the bits they hold in the smallest alphabet of the characters seen there. */
export function observedVariation(ids: readonly string[]): Variation {
  const length = Math.min(...ids.map((id) => id.length));
  let positions = 0;
  let seen = '';
  for (let i = 0; i < length; i++) {
    const chars = new Set(ids.map((id) => id[i]!));
    if (chars.size < 2) continue;
    positions++;
    seen += [...chars].join('');
  }
  const alphabet = alphabets.find((a) => a.has.test(seen)) ?? alphabets.at(-1)!;
  return { positions, alphabet: alphabet.name, bits: positions * Math.log2(alphabet.size) };
}

const minSample = 4;
/** Fewer bits than this vary: guessable. A random ID of 64 bits or more shows far more across four samples. */
const minBits = 40;
/** Numbers spanning less than this are a counter or a clock: an attacker who knows one ID tries the rest. */
const minNumericSpread = 2n ** 40n;

/** The transports as a report names them. */
const transportName: Record<Transport, string> = { streamable: 'streamable HTTP', sse: 'legacy SSE' };

/**
 * The first family of at least two IDs that is a counter or a clock under a shared prefix: IDs that
 * are the same text followed by a decimal number, with the numbers within {@link minNumericSpread}.
 * A secure generator never mints two IDs that differ only in a close trailing number.
 */
export function counterFamily(ids: readonly string[]): { prefix: string; ids: string[]; spread: bigint } | undefined {
  const families = new Map<string, string[]>();
  for (const id of ids) {
    const number = /\d{1,80}$/.exec(id);
    if (number === null) continue;
    const prefix = id.slice(0, number.index);
    families.set(prefix, [...(families.get(prefix) ?? []), id]);
  }
  for (const [prefix, members] of families) {
    if (members.length < 2) continue;
    const numbers = members.map((id) => BigInt(id.slice(prefix.length)));
    const spread = spreadOf(numbers);
    if (spread < minNumericSpread) return { prefix, ids: members, spread };
  }
  return undefined;
}

/** The largest number less the smallest. */
function spreadOf(numbers: readonly bigint[]): bigint {
  let [min, max] = [numbers[0]!, numbers[0]!];
  for (const n of numbers) {
    if (n < min) min = n;
    if (n > max) max = n;
  }
  return max - min;
}

/** The longest text both `a` and `b` start with. */
function commonPrefix(a: string, b: string): string {
  let n = 0;
  while (n < a.length && a[n] === b[n]) n++;
  return a.slice(0, n);
}

/** Why one transport's IDs are guessable, or what they show varying. */
function judgeSample(ids: readonly string[]): { guessable: string } | Variation {
  const prefix = ids.reduce(commonPrefix, ids[0]!);
  const rests = ids.map((id) => id.slice(prefix.length));
  if (rests.every((rest) => /^\d{1,80}$/.test(rest))) {
    const numbers = rests.map(BigInt);
    const spread = spreadOf(numbers);
    if (spread < minNumericSpread) return { guessable: `are sequential: ${ids.slice(0, 3).join(', ')}... (numbers within ${spread} of each other)` };
  }
  const variation = observedVariation(ids);
  if (variation.bits < minBits) {
    return {
      guessable: `vary in only ~${variation.bits.toFixed(0)} bits across ${ids.length} sessions (${variation.positions} varying character(s), read as ${variation.alphabet}): guessable (${ids.slice(0, 3).join(', ')}...)`,
    };
  }
  return variation;
}

export function judgeSessionIdsUnguessable(view: HistoryView): Judgement {
  const transportOf = new Map<string, Transport>();
  for (const s of view.sessions) if (!transportOf.has(s.id)) transportOf.set(s.id, s.transport);
  const counter = counterFamily([...transportOf.keys()]);
  if (counter) {
    const shown = counter.ids.slice(0, 3).join(', ') + (counter.ids.length > 3 ? '...' : '');
    return fail(`session IDs are a counter under the prefix ${JSON.stringify(counter.prefix)}: ${shown} (numbers within ${counter.spread} of each other)`);
  }
  const judged: string[] = [];
  const seen: string[] = [];
  for (const transport of ['streamable', 'sse'] as const) {
    const ids = [...transportOf].filter(([, t]) => t === transport).map(([id]) => id);
    if (ids.length === 0) continue;
    seen.push(`${ids.length} ${transportName[transport]}`);
    if (ids.length < minSample) continue;
    const verdict = judgeSample(ids);
    if ('guessable' in verdict) return fail(`${transportName[transport]} session IDs ${verdict.guessable}`);
    judged.push(
      `${ids.length} ${transportName[transport]} session IDs, ~${verdict.bits.toFixed(0)} varying bits (${verdict.positions} varying characters, read as ${verdict.alphabet})`,
    );
  }
  if (judged.length === 0) {
    return skip(`${seen.length ? seen.join(' and ') : 'no'} session ID(s) seen; ${minSample} of one transport needed to judge guessability`);
  }
  return pass(judged.join('; '));
}
