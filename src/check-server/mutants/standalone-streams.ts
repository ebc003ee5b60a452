/** What the standalone-stream mutants read of a session: which of its streams is the standalone one, and whether it was resumed. */
import type { SessionFacts } from '../../reference/index.js';

/** Whether `stream` is the session's standalone GET stream. */
export function isStandalone(session: SessionFacts, stream: string): boolean {
  return session.context.streams.some((s) => s.id === stream && s.kind === 'standalone');
}

/** Whether the session accepted a resume of `stream`: a replay from a cursor that is one of that stream's events. */
export function wasResumed(session: SessionFacts, stream: string): boolean {
  const { log, resumes } = session.context;
  return resumes.some((r) => r.outcome === 'replayed' && log.some((e) => e.id === r.lastEventId && e.stream === stream));
}
