/**
 * `no-cross-stream-replay`: a replay carries only messages of the stream its cursor belongs to.
 * Judged on resumes presenting a cursor of the stream they resume: for any other cursor the
 * server cannot know which stream the client means, and a stream it answers with is no replay.
 */
import { resumptionNotOffered, type HistoryView } from '../history-view.js';
import { fixtureCalls } from '../fixture-calls.js';
import { fixtureNotification, isResponse, isResponseTo } from '../messages.js';
import { fail, passCounted, skip, type Judgement } from '../judgement.js';

export function judgeNoCrossStreamReplay(view: HistoryView): Judgement {
  const calls = fixtureCalls(view);
  let judged = 0;
  for (const resume of view.resumes()) {
    const origin = view.originOf(resume.conn);
    if (origin === resume.conn || !view.isAcceptedStream(resume.conn) || view.cursorSource(resume.conn) !== 'stream') continue;
    const opened = view.exchanges.get(origin)!.request;
    if (opened.purpose === 'open-legacy') continue; // the legacy stream carries the whole session
    judged++;
    const owner = view.requests.find((r) => r.conn === origin);
    for (const frame of resume.receives) {
      const m = frame.message;
      if (!m) continue;
      const note = fixtureNotification(m);
      let foreign = false;
      if (owner) {
        const call = calls.find((c) => c.request === owner);
        foreign = (isResponse(m) && !isResponseTo(m, owner.id)) || (note !== undefined && note.label !== call?.label && call?.tool !== 'emit_unsolicited');
      } else {
        // The standalone stream carries no responses and no notifications of solicited calls.
        foreign = isResponse(m) || (note !== undefined && calls.some((c) => c.tool === 'emit' && c.label === note.label));
      }
      if (foreign) {
        return fail(
          `the replay of ${view.streamName(origin)} (Last-Event-ID ${resume.request.lastEventId}) carried ${frame.id ?? ''} ${frame.data.slice(0, 120)}, which belongs to another stream`,
          [frame.seq],
        );
      }
    }
  }
  if (judged > 0) return passCounted(judged, 'replay(s) carried only their own stream');
  return skip(view.offersResumption() ? 'no replay of a request or standalone stream was accepted' : resumptionNotOffered);
}
