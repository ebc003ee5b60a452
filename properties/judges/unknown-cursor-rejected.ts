/**
 * `unknown-cursor-rejected`: a `Last-Event-ID` that names no event of this session's streams is
 * answered 404-class, never 200 with a quiet stream.
 */
import type { HistoryView } from '../history-view.js';
import { fail, isSessionGone, pass, skip, type Judgement } from '../judgement.js';

export function judgeUnknownCursorRejected(view: HistoryView): Judgement {
  let judged = 0;
  for (const resume of view.resumes()) {
    const { lastEventId, sessionId } = resume.request;
    if (lastEventId === undefined || !view.session(sessionId)) continue;
    const known = view.framesWithId(lastEventId, sessionId).some((f) => f.conn !== resume.conn);
    if (known) continue;
    judged++;
    const status = resume.response?.status;
    const what = `Last-Event-ID ${JSON.stringify(lastEventId)}, which names no event of session ${sessionId}`;
    if (status === undefined) return fail(`${what}: no answer`, [resume.request.seq]);
    if (isSessionGone(status)) continue;
    if (status < 300 && view.announcesOtherSession(resume.conn, sessionId)) continue;
    if (status < 300) return fail(`${what}, was answered ${status} with a stream, as if resumable`, [resume.request.seq, resume.response!.seq]);
    return fail(`${what}, was answered ${status}, not 404: the client is not told to re-initialize`, [resume.response!.seq]);
  }
  return judged > 0 ? pass(`${judged} unknown cursor(s) refused with 404`) : skip('no unknown or foreign cursor was presented');
}
