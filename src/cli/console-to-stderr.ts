/**
 * Keeps stdout for the report alone: what an in-process candidate or client logs while it is
 * loaded and checked goes to stderr.
 */

/** Sends console.log/info/debug to stderr until the returned function restores them. */
export function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = console.info = console.debug = toStderr;
  return () => Object.assign(console, saved);
}
