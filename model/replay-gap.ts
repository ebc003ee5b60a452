/**
 * Whether an accepted replay skipped an event: judged from the replay's frames and the session's
 * own record of what it sent, never from the retention that produced them. Shared by the
 * `replay-has-no-gap` invariant and the world key (which must tell such worlds apart).
 */
import type { ResumeRecord, SessionContext } from './session-types.js';

/** A replay that skipped events: the first event skipped and the frame that came in its place. */
export interface ReplayGap {
  lastEventId: string;
  skipped: string;
  /** The frame the replay carried where `skipped` was due. */
  instead: string;
}

/**
 * The gap in one replay, if any. A replay after cursor `c` must carry the events of `c`'s stream
 * that follow `c` in send order, contiguously from the first (an inclusive replay may start with
 * `c` itself). It may end early (later events were sent after it), but never skip one.
 */
export function replayGap<M>(context: SessionContext<M>, resume: ResumeRecord): ReplayGap | undefined {
  if (resume.outcome !== 'replayed' || !resume.replayed || resume.replayed.length === 0) return undefined;
  const cursor = context.log.find((e) => e.id === resume.lastEventId);
  if (!cursor) return undefined;
  const stream = context.log.filter((e) => e.stream === cursor.stream && (e.opening === undefined || e === cursor));
  let expected = stream.indexOf(cursor) + 1;
  if (resume.replayed[0] === cursor.id) expected--;
  for (const id of resume.replayed) {
    const due = stream[expected];
    if (due === undefined) return undefined;
    if (due.id !== id) return { lastEventId: resume.lastEventId, skipped: due.id, instead: id };
    expected++;
  }
  return undefined;
}

/** The first gap in any replay of the session, if any. */
export function firstReplayGap<M>(context: SessionContext<M>): ReplayGap | undefined {
  for (const resume of context.resumes) {
    const gap = replayGap(context, resume);
    if (gap) return gap;
  }
  return undefined;
}
