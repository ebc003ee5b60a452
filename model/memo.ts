/**
 * Switches for the memo tables of exploration, all on: session transitions per (session state,
 * event); per-session invariant verdicts per session state; the held session's key part per
 * session state. `npm run bench` flips them to measure what each gives; the tests check
 * exploration finds the same either way.
 */
export const memoization = { sessionTransitions: true, sessionVerdicts: true, sessionKeys: true };
