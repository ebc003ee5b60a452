/**
 * Code mutant `same-ms-random-order`: the event store of the SDK's example `InMemoryEventStore`
 * (src/check-server/candidates/README.md). Event IDs are `<stream>_<Date.now()>_<random>`; a replay sorts the
 * cursor's stream's events by ID (so by millisecond, then by a random tiebreak) and sends those
 * after the cursor's position in that order. Events sent within one millisecond (a tool call's
 * notifications and response usually are) are replayed in random order, and the ones that sort
 * before the cursor are never replayed. The replay is exclusive whatever the policy says.
 */
import type { StoredEvent } from '../../../model/session-types.js';
import { served } from '../../reference/session.js';
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

export interface SameMsRandomOrderOptions {
  /** The clock read when an event is logged (default `Date.now`). */
  now?: () => number;
  /**
   * The tiebreak of an event's ID, asked once per event (default the SDK's: up to 8 random base-36
   * characters, whatever the event). Tests choose it per event to make the order deterministic.
   */
  tiebreak?: (event: StoredEvent<unknown>) => string;
}

export function sameMsRandomOrder(options: SameMsRandomOrderOptions = {}): Mutation {
  const now = options.now ?? Date.now;
  const tiebreak = options.tiebreak ?? (() => Math.random().toString(36).substring(2, 10));
  return {
    name: 'same-ms-random-order',
    eventIds: { toWire: (event, context) => `${context.tag}-${event.stream}_${now()}_${tiebreak(event)}` },
    resume: ({ session, event, reply }) => {
      if (!served(reply) || reply.stream === undefined) return reply;
      const ordered = session.context.log.filter((e) => e.stream === reply.stream).sort((a, b) => session.wireId(a.id).localeCompare(session.wireId(b.id)));
      const at = ordered.findIndex((e) => e.id === event.lastEventId);
      return { ...reply, frames: ordered.slice(at + 1).filter((e) => e.opening === undefined) };
    },
  };
}

export const mutant = codeMutant(
  'same-ms-random-order',
  'The SDK example event store: IDs <stream>_<ms>_<random>, a replay sorted by ID, so events of one millisecond are replayed in random order and those sorting before the cursor are lost',
  ['replay-has-no-gap', 'no-silent-loss', 'order-preserved', 'no-silent-stall', 'at-most-once-effect'],
  () => sameMsRandomOrder(),
);

export default mutant.start;
