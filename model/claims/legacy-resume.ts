/**
 * Which evidence rests on this project's legacy-resume extension: a resume over the HTTP+SSE
 * transport (`GET /sse?sessionId=…` with `Last-Event-ID`), which 2024-11-05 does not define and
 * the reference server accepts as an extension. The docs label such traces and claims.
 */
import { initialWorld, step } from '../world.js';
import type { ClaimJudgement, FoundTrace } from './claim.js';

/** Whether the trace resumes a stream over the legacy transport (same-transport on a legacy session, or a migration to it). */
export function restsOnLegacyResume(trace: FoundTrace): boolean {
  let world = initialWorld({ policy: trace.policy, bounds: trace.bounds });
  for (const s of trace.path) {
    if (s.type === 'RESUME') {
      const to = s.via === 'same' ? world.client.transport : world.client.transport === 'sse' ? 'streamable' : 'sse';
      if (to === 'sse') return true;
    }
    world = step(world, s);
  }
  return false;
}

/** The label the docs print beside evidence that rests on the extension. */
export const legacyResumeLabel = "rests on this project's legacy-resume extension (GET /sse?sessionId=… with Last-Event-ID), which 2024-11-05 does not define";

/** Whether any of a judgement's traces rests on the extension. */
export function judgementRestsOnLegacyResume(j: ClaimJudgement): boolean {
  return j.traces.some(restsOnLegacyResume);
}
