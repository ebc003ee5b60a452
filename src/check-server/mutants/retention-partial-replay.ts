/**
 * Code mutant `retention-partial-replay`: a log that keeps only each session's last two events
 * (as the reference does with `--log-retention 2`), but which answers a cursor older than what it
 * kept with what is left of the cursor's stream instead of 404: a replay with a gap, which looks
 * complete to the client.
 */
import { served } from '../../reference/session.js';
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

/** Events each session's log keeps under this mutant. */
const RETAINED_EVENTS = 2;

export function retentionPartialReplay(): Mutation {
  return {
    name: 'retention-partial-replay',
    retainedEvents: () => RETAINED_EVENTS,
    resume: ({ session, event, reply }) => {
      if (served(reply)) return reply;
      const { log, retainedFrom, streams, transport } = session.context;
      const at = log.findIndex((e) => e.id === event.lastEventId);
      // Only a cursor the retention dropped, presented where the session is served: any other
      // refusal (an unknown cursor, the other transport's endpoint) stands, as the machine says.
      if (at < 0 || at >= retainedFrom || session.state !== 'active' || event.transport !== transport) return reply;
      const stream = streams.find((s) => s.id === log[at]!.stream);
      if (!stream) return reply;
      const frames = log.slice(retainedFrom).filter((e) => e.stream === stream.id && e.opening === undefined);
      return { status: 200, stream: stream.id, frames, ...(stream.complete ? { end: true } : {}) };
    },
  };
}

export const mutant = codeMutant(
  'retention-partial-replay',
  'Log retention keeps two events per session and answers an older cursor with what is left of its stream instead of 404: a replay with a gap (the events dropped are lost for good)',
  ['replay-has-no-gap', 'no-silent-loss'],
  retentionPartialReplay,
);

export default mutant.start;
