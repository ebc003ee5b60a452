/**
 * Code mutant `replay-other-streams`: an accepted resume replays, besides the cursor's stream, every
 * event of the session's other streams logged after the cursor (a replay that filters the event
 * store by position only, not by stream), in log order.
 */
import { served } from '../../reference/session.js';
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

export function replayOtherStreams(): Mutation {
  return {
    name: 'replay-other-streams',
    resume: ({ session, event, reply }) => {
      if (!served(reply) || reply.stream === undefined) return reply;
      const log = session.context.log;
      const at = log.findIndex((e) => e.id === event.lastEventId);
      const own = new Set(reply.frames.map((e) => e.id));
      const frames = log.filter((e, i) => own.has(e.id) || (i > at && e.stream !== reply.stream && e.opening === undefined));
      return { ...reply, frames };
    },
  };
}

export const mutant = codeMutant(
  'replay-other-streams',
  "A replay also carries the events of the session's other streams logged after the cursor",
  ['no-cross-stream-replay'],
  replayOtherStreams,
);

export default mutant.start;
