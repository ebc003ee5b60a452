/**
 * `session-ids-secure`: session IDs are visible ASCII (0x21-0x7E) and unguessable. Unguessable is
 * judged from the few IDs a check sees, so only what they plainly show fails: numbers close
 * together (a counter, a clock), or too few bits that vary. The bits are estimated per character
 * position that varies across the sample, in the smallest common alphabet (decimal, hex, base64...)
 * holding every character seen at those positions: a position of a random ID varies across four
 * samples almost surely, while four samples show at most two bits of a position counted by its
 * distinct characters, which called short random IDs guessable. A generator that is random-looking
 * but not cryptographically secure cannot be told apart from a few samples, and passes.
 */
import type { HistoryView } from '../history-view.js';
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

export function judgeSessionIdsSecure(view: HistoryView): Judgement {
  const ids = [...new Set(view.sessions.map((s) => s.id))];
  for (const id of ids) {
    if (!/^[\x21-\x7e]+$/.test(id)) return fail(`session ID ${JSON.stringify(id)} has characters outside visible ASCII`);
  }
  if (ids.length < minSample) return skip(`only ${ids.length} session ID(s) seen; ${minSample} needed to judge guessability`);
  const prefix = ids.reduce((p, id) => (id.startsWith(p) ? p : p.slice(0, [...p].findIndex((c, i) => id[i] !== c))), ids[0]!);
  const rests = ids.map((id) => id.slice(prefix.length));
  if (rests.every((rest) => /^\d{1,80}$/.test(rest))) {
    const numbers = rests.map(BigInt);
    const spread = numbers.reduce((a, b) => (a > b ? a : b)) - numbers.reduce((a, b) => (a < b ? a : b));
    if (spread < minNumericSpread) return fail(`session IDs are sequential: ${ids.slice(0, 3).join(', ')}... (numbers within ${spread} of each other)`);
  }
  const { positions, alphabet, bits } = observedVariation(ids);
  if (bits < minBits) {
    return fail(
      `session IDs vary in only ~${bits.toFixed(0)} bits across ${ids.length} sessions (${positions} varying character(s), read as ${alphabet}): guessable (${ids.slice(0, 3).join(', ')}...)`,
    );
  }
  return pass(`${ids.length} session IDs, visible ASCII, ~${bits.toFixed(0)} varying bits (${positions} varying characters, read as ${alphabet})`);
}
