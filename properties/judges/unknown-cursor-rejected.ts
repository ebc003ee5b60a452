/**
 * `unknown-cursor-rejected`: a `Last-Event-ID` that names no event of this session's streams is
 * answered 404-class, never 200 with a quiet stream. Judged only where the candidate offers
 * resumption on the stream the client resumes (it sent an event ID there): a server that sends
 * no event IDs may ignore `Last-Event-ID` altogether, and then no cursor is "unknown".
 */
import { resumptionNotOffered, type HistoryView } from '../history-view.js';
import { fail, isSessionGone, passCounted, skip, type Judgement } from '../judgement.js';

export function judgeUnknownCursorRejected(view: HistoryView): Judgement {
  let judged = 0;
  for (const resume of view.resumes()) {
    const { lastEventId, sessionId } = resume.request;
    if (lastEventId === undefined || !view.session(sessionId)) continue;
    const source = view.cursorSource(resume.conn);
    if (source === undefined || source === 'stream' || source === 'session' || !view.offeredCursor(resume.conn)) continue;
    judged++;
    const status = resume.response?.status;
    const what = `Last-Event-ID ${JSON.stringify(lastEventId)}, which names no event of session ${sessionId}`;
    if (status === undefined) return fail(`${what}: no answer`, [resume.request.seq]);
    if (isSessionGone(status)) continue;
    if (status < 300 && view.announcesOtherSession(resume.conn, sessionId)) continue;
    if (status < 300) return fail(`${what}, was answered ${status} with a stream, as if resumable`, [resume.request.seq, resume.response!.seq]);
    return fail(`${what}, was answered ${status}, not 404: the client is not told to re-initialize`, [resume.response!.seq]);
  }
  if (judged > 0) return passCounted(judged, 'unknown cursor(s) refused with 404');
  return skip(view.offersResumption() ? 'no unknown or foreign cursor was presented for a stream that offered one' : resumptionNotOffered);
}
