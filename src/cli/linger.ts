/**
 * The note printed when something still keeps the process up after a command ended (src/cli/run.ts):
 * what Node says is open, and whose it may be. Only an adapter's module runs code of the user's in
 * this process; a plain `--url` check's open handles are the checker's own (a connection a slow
 * server has not closed yet, or a wait still running out its bound), so it is not blamed on one.
 */

/** Counts of Node's active resources, e.g. `2 TCPSocketWrap, 1 Timeout`. */
function tally(resources: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of resources) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${n} ${name}`).join(', ');
}

/**
 * The note for a process still up `lingerMs` after its command ended.
 *
 * @param argv - the command's arguments (an `--adapter` among them loaded user code)
 * @param resources - `process.getActiveResourcesInfo()` at that time
 * @param lingerMs - how long the process was given
 */
export function lingerNote(argv: readonly string[], resources: readonly string[], lingerMs: number): string {
  const open = resources.length > 0 ? ` (${tally(resources)})` : '';
  const given = (flag: string) => argv.some((a) => a === flag || a.startsWith(`${flag}=`));
  const whose = given('--adapter')
    ? 'an open socket or timer (one the adapter started and did not stop, say)'
    : given('--client')
      ? 'an open socket or timer (one the client under check left open, say)'
      : "an open socket or timer of the checker's own (a connection the server had not closed yet, say)";
  return `note: ${whose} still kept the process up ${lingerMs / 1000} s after the command ended${open}; exiting`;
}
