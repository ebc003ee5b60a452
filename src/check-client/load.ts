/**
 * Loads a client adapter module for `check-client --adapter MODULE`, with the same loader as
 * `check --adapter` (every module format), and checks that its default export yields a factory.
 */
import { loadDefaultFunction } from '../loader/adapter-loader.js';
import type { ClientFactory } from './adapters/contract.js';

/** A loaded client adapter. */
export interface LoadedClientAdapter {
  path: string;
  factory: ClientFactory;
}

/**
 * @param modulePath - absolute, or relative to `cwd`
 * @throws Error with a one-line message when the module cannot be loaded, its default export is not
 *   a function, or that function does not return (or resolve to) a function within `timeoutMs`
 */
export async function loadClientAdapter(modulePath: string, options: { cwd?: string; timeoutMs?: number } = {}): Promise<LoadedClientAdapter> {
  const { path, fn } = await loadDefaultFunction(modulePath, options, 'returns (or resolves to) a client factory (options) => Promise<ClientUnderTest>');
  const timeoutMs = options.timeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  let made: unknown;
  try {
    made = await Promise.race([
      Promise.resolve().then(() => fn()),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the default export did not resolve within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    throw new Error(`adapter ${path}: ${(error as Error)?.message?.split('\n')[0] ?? String(error)}`);
  } finally {
    clearTimeout(timer);
  }
  if (typeof made !== 'function') {
    throw new Error(`adapter ${path}: the default export must return a client factory function; got ${made === null ? 'null' : typeof made}`);
  }
  return { path, factory: made as ClientFactory };
}
