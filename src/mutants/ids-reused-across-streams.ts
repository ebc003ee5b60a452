/**
 * Code mutant `ids-reused-across-streams`: event IDs are numbered per stream instead of per
 * session (the reference's `http:<tag>-e<n>` with `n` counting the stream's events), so every
 * stream of a session issues `...-e1`, `...-e2`, ... A cursor then names the first stream that
 * issued it: resuming a later stream replays an earlier one and loses its own events.
 *
 * What the reference client (dedup by event ID, cursor on drain) sees is different: a later
 * stream's events carry IDs it has already processed, so it discards them as duplicates (its
 * response included), its cursor never moves, and a resume presents no `Last-Event-ID` at all and
 * gets a fresh standalone stream, where the request waits for good. Hence `breaks`: the duplicate
 * IDs, the events the client meant to resume and never gets, the stall and, through the retry, the
 * second execution. A client without dedup instead
 * presents the reused cursor and gets the other stream's replay (no-cross-stream-replay and
 * no-silent-loss by design.md's statements; the history judges attribute such a resume to the
 * first stream that carried the ID, as the mutant does, and see neither).
 */
import type { Mutation } from '../reference/index.js';
import { codeMutant } from './mutant.js';

export function idsReusedAcrossStreams(): Mutation {
  const counts = new Map<string, number>();
  return {
    name: 'ids-reused-across-streams',
    eventIds: {
      toWire: (event, context) => {
        const key = `${context.tag}/${event.stream}`;
        const n = (counts.get(key) ?? 0) + 1;
        counts.set(key, n);
        return event.id.replace(/\d+$/, String(n));
      },
    },
  };
}

export const mutant = codeMutant(
  'ids-reused-across-streams',
  "Event IDs numbered per stream, so a session's streams reuse them: a cursor resolves to the first stream that issued it, and a deduplicating client discards a later stream's events (its response included) as duplicates",
  ['event-ids-unique', 'no-silent-loss', 'no-silent-stall', 'at-most-once-effect'],
  idsReusedAcrossStreams,
);

export default mutant.start;
