/**
 * Bounds the loading of a user's module (an adapter's top-level code), for `check` and
 * `check-client`: a load that never finishes becomes an error the reports can give.
 */

/** How long an adapter module may take to load (its top-level code) before the check gives up. */
export const loadBoundMs = 30_000;

/**
 * Waits for `load`, within `ms`. A module whose top-level code awaits something nothing is left to
 * settle would otherwise let the process end silently (status 13, no report): the event loop
 * emptying ('beforeExit') is that case, and it is reported at once.
 * @param what - names the module in the errors
 */
export async function boundedLoad<T>(load: Promise<T>, what: string, ms = loadBoundMs): Promise<T> {
  let onExit: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      load,
      new Promise<never>((_, reject) => {
        onExit = () => reject(new Error(`${what}: its loading never finished (its top-level code awaits something nothing is left to settle)`));
        process.once('beforeExit', onExit);
        // Unref'd: it must not keep the event loop alive, or 'beforeExit' could not tell the hang.
        timer = setTimeout(() => reject(new Error(`${what}: its loading did not finish within ${ms} ms`)), ms).unref();
      }),
    ]);
  } finally {
    if (onExit) process.off('beforeExit', onExit);
    clearTimeout(timer);
  }
}
