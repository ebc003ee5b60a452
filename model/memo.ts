/**
 * Switches for the memo tables of exploration: session transitions per (session state, event),
 * on; per-session invariant verdicts per session state, on; key parts per session state, off
 * (the bench shows it costs more memory than it saves time). `npm run bench` flips them to
 * measure what each gives; the tests check exploration finds the same either way.
 */
export const memoization = { sessionTransitions: true, sessionVerdicts: true, sessionKeys: false };
