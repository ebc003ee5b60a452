/** `terminated-session-404`: after DELETE, requests with that session ID get 404. */
import type { HistoryView } from '../history-view.js';
import { fail, passCounted, skip, type Judgement } from '../judgement.js';

export function judgeTerminatedSession404(view: HistoryView): Judgement {
  let judged = 0;
  let refusedDelete: number | undefined;
  for (const del of view.exchanges.values()) {
    if (del.request.purpose !== 'delete' || del.request.sessionId === undefined || !view.session(del.request.sessionId)) continue;
    const status = del.response?.status;
    if (status === undefined || status >= 300) {
      refusedDelete = status;
      continue;
    }
    for (const later of view.exchanges.values()) {
      if (later.conn <= del.conn || later.request.sessionId !== del.request.sessionId || later.request.purpose === 'delete') continue;
      const answer = later.response?.status;
      if (answer === undefined) continue;
      judged++;
      if (answer !== 404) {
        return fail(
          `after DELETE of session ${del.request.sessionId} answered ${status}, a ${later.request.method} ${later.request.purpose} was answered ${answer}, not 404`,
          [del.request.seq, later.response!.seq],
        );
      }
    }
  }
  if (judged > 0) return passCounted(judged, 'request(s) after DELETE answered 404');
  return skip(
    refusedDelete !== undefined ? `DELETE was answered ${refusedDelete}: the candidate does not end sessions on request` : 'no request followed a DELETE',
  );
}
