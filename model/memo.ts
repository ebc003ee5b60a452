/**
 * Switches for what exploration saves, all on: session transitions memoised per (session state,
 * event); per-session invariant verdicts per session state; the held session's key part per
 * session state; sessions held as their state value and context (off: as whole XState snapshots,
 * as exploration held them before). `npm run bench` flips them to measure what each gives; the
 * tests check exploration finds the same either way.
 */
export const memoization = { sessionTransitions: true, sessionVerdicts: true, sessionKeys: true, compactSessions: true };
