/** `no-cross-session-replay`: a cursor minted in session A, presented with session B's ID, never yields A's messages. */
import { resumptionNotOffered, type HistoryView } from '../history-view.js';
import { fixtureCalls } from '../fixture-calls.js';
import { fixtureNotification, isResponse } from '../messages.js';
import { fail, passCounted, skip, type Judgement } from '../judgement.js';

export function judgeNoCrossSessionReplay(view: HistoryView): Judgement {
  const calls = fixtureCalls(view);
  let judged = 0;
  for (const resume of view.resumes()) {
    const { lastEventId, sessionId } = resume.request;
    if (lastEventId === undefined || sessionId === undefined) continue;
    if (view.framesWithId(lastEventId, sessionId).some((f) => f.conn !== resume.conn)) continue;
    const minted = view
      .framesWithId(lastEventId)
      .filter((f) => f.conn !== resume.conn)
      .map((f) => view.sessionOfConn(f.conn));
    const other = minted.find((s) => s !== undefined && s !== sessionId);
    if (other === undefined) continue;
    judged++;
    const theirs = new Set(calls.filter((c) => c.request.sessionId === other).map((c) => c.label));
    const theirIds = new Set(view.requests.filter((r) => r.sessionId === other).map((r) => r.id));
    for (const frame of resume.receives) {
      const note = fixtureNotification(frame.message);
      const leaked = (note && theirs.has(note.label)) || (isResponse(frame.message) && theirIds.has(frame.message.id as number));
      if (leaked) {
        return fail(`a cursor of session ${other} presented with session ${sessionId} replayed ${frame.data.slice(0, 120)} from session ${other}`, [
          resume.request.seq,
          frame.seq,
        ]);
      }
    }
  }
  if (judged > 0) return passCounted(judged, 'foreign-session cursor(s) yielded nothing of the other session');
  return skip(view.offersResumption() ? 'no cursor of one session was presented to another' : resumptionNotOffered);
}
