/**
 * `no-cross-transport-resume`: a session established under one transport is never resumed under
 * the other; the answer is 404-class, so the client re-initializes.
 */
import type { HistoryView } from '../history-view.js';
import { fail, isSessionGone, passCounted, skip, type Judgement } from '../judgement.js';

export function judgeNoCrossTransportResume(view: HistoryView): Judgement {
  let judged = 0;
  for (const resume of view.resumes()) {
    const sessionId = resume.request.sessionId;
    const session = view.session(sessionId);
    if (!session || session.transport === resume.request.transport) continue;
    judged++;
    const status = resume.response?.status;
    const where = `session ${sessionId} (established under ${session.transport}) presented under ${resume.request.transport}`;
    if (status === undefined) return fail(`${where}: no answer`, [resume.request.seq]);
    if (isSessionGone(status)) continue;
    // A legacy GET /sse that opens a new session is not a resume: the client starts over.
    if (status < 300 && view.announcesOtherSession(resume.conn, sessionId)) continue;
    if (status < 300) return fail(`${where} was resumed: ${status} with a stream`, [resume.request.seq, resume.response!.seq]);
    return fail(`${where} was answered ${status}, not 404: the client is not told to re-initialize`, [resume.response!.seq]);
  }
  return judged > 0 ? passCounted(judged, 'cross-transport resume(s) refused with 404') : skip('no resume was presented under the other transport');
}
