/**
 * Code mutant `shared-event-store`: one event store for the whole server. Event IDs carry no session
 * tag (`http:e<n>`, numbered across all sessions), and a resume goes to whichever session issued the
 * cursor, whatever session ID it presents: a cursor of session A presented with session B's ID
 * replays A's events (on a response that names B).
 */
import type { Mutation } from '../reference/index.js';
import { codeMutant } from './mutant.js';

export function sharedEventStore(): Mutation {
  let n = 0;
  return {
    name: 'shared-event-store',
    eventIds: {
      // The machine's ID is `<prefix><tag>-e<n>`: keep the transport prefix, drop the tag, number server-wide.
      toWire: (event, context) => `${event.id.slice(0, event.id.indexOf(context.tag))}e${++n}`,
    },
    routeResume: ({ presented, owner }) => owner() ?? presented,
  };
}

export const mutant = codeMutant(
  'shared-event-store',
  "One event store for all sessions: event IDs carry no session tag and a resume goes to the session that issued the cursor, so session A's cursor presented with B's ID replays A's events",
  // A stale cursor presented with a legacy session at /mcp is routed to the streamable session that
  // issued it and answered 200: a cross-transport resume, whose awaited response never comes.
  ['no-cross-session-replay', 'unknown-cursor-rejected', 'no-cross-transport-resume', 'no-silent-loss', 'no-silent-stall'],
  sharedEventStore,
);

export default mutant.start;
