/**
 * `session-ids-secure`: session IDs are visible ASCII (0x21-0x7E) and unguessable. Unguessable
 * is estimated from the IDs seen: per character position, log2 of the distinct characters there,
 * summed; sequential IDs (a shared prefix and a counter) fail outright.
 */
import type { HistoryView } from '../history-view.js';
import { fail, pass, skip, type Judgement } from '../judgement.js';

/** Bits an observer can see vary across the sample (bounded by log2 of the sample size per position). */
export function observedBits(ids: readonly string[]): number {
  const length = Math.min(...ids.map((id) => id.length));
  let bits = 0;
  for (let i = 0; i < length; i++) bits += Math.log2(new Set(ids.map((id) => id[i])).size);
  return bits;
}

const minSample = 4;
const minBits = 40;

export function judgeSessionIdsSecure(view: HistoryView): Judgement {
  const ids = [...new Set(view.sessions.map((s) => s.id))];
  for (const id of ids) {
    if (!/^[\x21-\x7e]+$/.test(id)) return fail(`session ID ${JSON.stringify(id)} has characters outside visible ASCII`);
  }
  if (ids.length < minSample) return skip(`only ${ids.length} session ID(s) seen; ${minSample} needed to judge guessability`);
  const prefix = ids.reduce((p, id) => (id.startsWith(p) ? p : p.slice(0, [...p].findIndex((c, i) => id[i] !== c))), ids[0]!);
  if (ids.every((id) => /^\d+$/.test(id.slice(prefix.length)))) {
    return fail(`session IDs are sequential: ${ids.slice(0, 3).join(', ')}...`);
  }
  const bits = observedBits(ids);
  const capacity = Math.log2(ids.length);
  // With n samples a position shows at most log2(n) bits; ask for enough varying positions.
  if (bits < Math.min(minBits, capacity * 16)) {
    return fail(`session IDs vary in only ~${bits.toFixed(0)} bits across ${ids.length} sessions: guessable (${ids.slice(0, 3).join(', ')}...)`);
  }
  return pass(`${ids.length} session IDs, visible ASCII, ~${bits.toFixed(0)} varying bits`);
}
