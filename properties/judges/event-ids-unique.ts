/** `event-ids-unique`: within a session, one event ID names one event (a replay repeats it unchanged). */
import type { HistoryView } from '../history-view.js';
import type { ReceiveEntry } from '../history.js';
import { fail, pass, skip, type Judgement } from '../judgement.js';

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
        } else if (first.data !== frame.data || first.event !== frame.event) {
          return fail(`session ${session.id} used event ID ${frame.id} for two different events: ${first.data.slice(0, 80)} and ${frame.data.slice(0, 80)}`, [first.seq, frame.seq]);
        }
      }
    }
  }
  return ids > 1 ? pass(`${ids} event IDs, each naming one event`) : skip('the candidate sent fewer than two event IDs');
}
