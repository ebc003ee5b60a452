/**
 * `event-ids-unique`: within a session, one event ID names one event. A replay repeats an event
 * under its ID; what counts is the message it carries, so frames that carry no message (a
 * priming event, an empty object) are one and the same non-event.
 */
import type { HistoryView } from '../history-view.js';
import type { ReceiveEntry } from '../history.js';
import { isResponse } from '../messages.js';
import { fail, passCounted, skip, type Judgement } from '../judgement.js';

/** What an event is, for comparing two frames with one ID. */
function identity(frame: ReceiveEntry): string {
  const m = frame.message;
  if (m === undefined) return frame.error !== undefined ? `malformed:${frame.data}` : `${frame.event}:`;
  if (m.method !== undefined) return `${frame.event}:${String(m.method)} ${JSON.stringify(m.params ?? null)}`;
  if (isResponse(m)) return `${frame.event}:response ${JSON.stringify(m.id)} ${JSON.stringify(m.result ?? m.error)}`;
  return `${frame.event}:`;
}

export function judgeEventIdsUnique(view: HistoryView): Judgement {
  let ids = 0;
  for (const session of view.sessions) {
    const byId = new Map<string, ReceiveEntry>();
    for (const exchange of view.exchanges.values()) {
      if (view.sessionOfConn(exchange.conn) !== session.id) continue;
      for (const frame of exchange.receives) {
        if (!frame.id) continue;
        const first = byId.get(frame.id);
        if (!first) {
          byId.set(frame.id, frame);
          ids++;
        } else if (identity(first) !== identity(frame)) {
          return fail(
            `session ${session.id} used event ID ${frame.id} for two different events: ${first.data.slice(0, 80) || '(empty)'} and ${frame.data.slice(0, 80) || '(empty)'}`,
            [first.seq, frame.seq],
          );
        }
      }
    }
  }
  return ids > 1 ? passCounted(ids, 'event IDs, each naming one event') : skip('the candidate sent fewer than two event IDs');
}
