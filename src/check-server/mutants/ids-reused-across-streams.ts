/**
 * Code mutant `ids-reused-across-streams`: event IDs are numbered per stream instead of per
 * session (the reference's `http:<tag>-e<n>` with `n` counting the stream's events), so every
 * stream of a session issues `...-e1`, `...-e2`, ... A cursor then names the first stream that
 * issued it: resuming a later stream replays an earlier one and loses its own events.
 *
 * The reference client deduplicates per stream, as the model's client does, so it takes every
 * stream's events and its cursor moves: a resume presents a reused ID, and the mutant replays the
 * first stream that issued it. Hence `breaks`: the duplicate IDs, the other stream's events in the
 * replay, the events of the resumed stream that never come, the request left waiting and, through
 * the retry, the second execution.
 */
import type { Mutation } from '../../reference/index.js';
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
  "Event IDs numbered per stream, so a session's streams reuse them: a cursor resolves to the first stream that issued it, whose events the resume replays instead of the resumed stream's own",
  ['event-ids-unique', 'no-cross-stream-replay', 'no-silent-loss', 'no-silent-stall', 'at-most-once-effect'],
  idsReusedAcrossStreams,
);

export default mutant.start;
