/**
 * `replay-has-no-gap`: an accepted resume of an `emit` call's stream carries that stream's
 * messages from the one after the cursor's on, skipping none. The stream's messages are known
 * from the call (notifications 1..count, then the response), so a replay that starts later than
 * the cursor's successor (as a log that dropped old events and replays what is left does) is seen
 * even when the client never received the messages skipped.
 */
import type { JsonRpcMessage } from '../history.js';
import { resumptionNotOffered, type HistoryView } from '../history-view.js';
import { fixtureCalls } from '../fixture-calls.js';
import { fixtureNotification, isResponseTo } from '../messages.js';
import { fail, passCounted, skip, type Judgement } from '../judgement.js';

/** Where a message falls in an `emit` stream: 0..count-1 for notifications, count for the response. */
function positionIn(call: { label: string; count: number; id: number | string }, m: JsonRpcMessage | undefined): number | undefined {
  if (m === undefined) return undefined;
  const n = fixtureNotification(m);
  if (n) return n.label === call.label && n.seq >= 1 && n.seq <= call.count ? n.seq - 1 : undefined;
  return isResponseTo(m, call.id) ? call.count : undefined;
}

function describe(call: { label: string; count: number }, position: number): string {
  return position === call.count ? `the response to ${call.label}` : `notification ${position + 1} of ${call.label}`;
}

export function judgeReplayHasNoGap(view: HistoryView): Judgement {
  let judged = 0;
  const calls = fixtureCalls(view).filter((c) => c.tool === 'emit' && c.request.streamConn !== undefined);
  for (const resume of view.resumes()) {
    const { lastEventId } = resume.request;
    if (lastEventId === undefined || !view.isClientResume(resume.conn) || !view.isAcceptedStream(resume.conn)) continue;
    const origin = view.originOf(resume.conn);
    if (origin === resume.conn) continue;
    const found = calls.find((c) => c.request.streamConn === origin);
    if (!found) continue;
    const call = { label: found.label, count: found.count, id: found.request.id };
    // The cursor's frame, received on an earlier connection of the same stream: where the replay must start.
    const earlier = new Set(view.connsOfStream(origin).filter((c) => c < resume.conn));
    const cursorFrame = view.framesWithId(lastEventId, view.sessionOfConn(origin)).find((f) => earlier.has(f.conn));
    if (!cursorFrame) continue;
    const at = cursorFrame.message === undefined ? -1 : positionIn(call, cursorFrame.message);
    if (at === undefined) continue;
    judged++;
    let next = at + 1;
    for (const frame of view.exchanges.get(resume.conn)!.receives) {
      const position = positionIn(call, frame.message);
      // Other streams' messages, duplicates and an inclusive replay's cursor are other properties' business.
      if (position === undefined || position < next) continue;
      if (position > next) {
        return fail(
          `the resume with Last-Event-ID ${JSON.stringify(lastEventId)} (after ${at < 0 ? 'the priming event' : describe(call, at)}) was answered ${resume.response?.status ?? 200} with a replay that skips ${describe(call, next)}${position - next > 1 ? ` to ${describe(call, position - 1)}` : ''}: its first message after the gap is ${describe(call, position)}`,
          [resume.request.seq, frame.seq],
        );
      }
      next++;
    }
  }
  if (judged > 0) return passCounted(judged, 'accepted replay(s) continued from their cursor with no gap');
  return skip(view.offersResumption() ? 'no resume of a stream whose cursor the client had received was accepted' : resumptionNotOffered);
}
