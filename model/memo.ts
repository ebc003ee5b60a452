/**
 * Switches for the memo tables exploration relies on (session transitions per session state and
 * event, key parts per session state). They are on; `npm run bench` turns them off to measure
 * what each gives, and the tests check exploration finds the same either way.
 */
export const memoization = { sessionTransitions: true, sessionKeys: true };
