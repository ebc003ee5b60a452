/**
 * Timers for the checker's bounded waits that count only time in which the checker could have
 * noticed an answer. A stall is concluded after a full-length wait, but on a loaded machine the
 * process may not be scheduled for a while, or its event loop (shared with other scenarios, and in
 * the tests with the server under check) may be saturated, and a plain timer then fires with the
 * answer unread in the socket. This timer advances in short ticks: a late tick is credited with at
 * most `lateCredit` tick lengths, and a tick in which the event loop was busy more than half the
 * time is credited in proportion to its idle share. `wallFactor` still bounds every wait in wall time.
 */
import { performance } from 'node:perf_hooks';

const tickMs = 100;
/** A tick is credited up to this many tick lengths: ordinary event-loop lag counts in full. */
const lateCredit = 2;
/** However starved the process, a wait ends after this many times its length in wall time. */
const wallFactor = 10;

/** The share of a tick that counts, from the event loop's utilization over it (0..1). */
function creditShare(utilization: number): number {
  return Math.min(1, 2 * (1 - utilization));
}

/**
 * Calls `fire` once the checker has been able to wait attentively for `ms` (see the module
 * comment), or after `ms * wallFactor` of wall time, whichever is first. Returns the cancel function.
 */
export function patientTimeout(ms: number, fire: () => void): () => void {
  const started = performance.now();
  let last = started;
  let lastUse = performance.eventLoopUtilization();
  let credited = 0;
  let timer: ReturnType<typeof setTimeout>;
  const tick = (): void => {
    const now = performance.now();
    const use = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(use, lastUse).utilization;
    credited += Math.min(now - last, tickMs * lateCredit) * creditShare(busy);
    last = now;
    lastUse = use;
    if (credited >= ms || now - started >= ms * wallFactor) fire();
    else timer = setTimeout(tick, Math.min(tickMs, ms - credited));
  };
  timer = setTimeout(tick, Math.min(tickMs, Math.max(0, ms)));
  return () => clearTimeout(timer);
}
