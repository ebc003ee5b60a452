/**
 * `no-silent-stall`: every request ends in its response or in an error that tells the client
 * what to do; a request left waiting on a live stream until the client's bound is a stall.
 * Waiting on a stream the checker got by presenting a made-up cursor, or a cursor for a stream
 * that never offered one, is no stall: the client had lost the request's stream, and a server
 * without resumption answers such a GET with an unrelated stream, as it may.
 */
import type { HistoryView } from '../history-view.js';
import { fail, passCounted, skip, type Judgement } from '../judgement.js';

export function judgeNoSilentStall(view: HistoryView): Judgement {
  const timeouts = view.history.entries.filter((e) => e.type === 'failure' && e.reason === 'timeout' && e.awaiting !== undefined);
  let answered = 0;
  for (const request of view.requests) {
    if (view.responseTo(request)) {
      answered++;
      continue;
    }
    // Waiting on its stream until the bound, or for the POST's answer itself.
    const unanswered = view.exchanges.get(request.conn);
    const waited =
      timeouts.find((t) => t.type === 'failure' && t.awaiting === request.id && !view.isCursorProbe(t.conn)) ??
      (unanswered?.response === undefined ? unanswered?.failures.find((f) => f.reason === 'timeout') : undefined);
    if (waited) {
      return fail(
        `${request.method} id ${JSON.stringify(request.id)} got neither its response nor an error: the stream stayed open and quiet (${waited.type === 'failure' ? waited.detail : ''})`,
        [waited.seq],
      );
    }
  }
  return answered > 0 ? passCounted(answered, 'request(s) answered, none left waiting') : skip('no request was answered or awaited');
}
