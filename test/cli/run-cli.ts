/** Runs the CLI (or any script of the repo) in a child process with a bounded time. */
import { fileURLToPath } from 'node:url';
import { runBounded, type BoundedRun } from '../../scripts/run-bounded.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export type CliRun = BoundedRun;

/** `node ARGS` from the repository root; rejects if it has not finished within `timeoutMs`. */
export function runNode(args: string[], timeoutMs = 60_000, env?: NodeJS.ProcessEnv): Promise<CliRun> {
  return runBounded(process.execPath, args, { cwd: root, timeoutMs, ...(env ? { env } : {}) });
}

/**
 * `mcp-resume-spec ARGS`: the compiled CLI in dist/ (built once by test/global-setup.ts), as the
 * package's bin runs it; test/pack/ runs it installed from the tarball.
 */
export function runCli(args: string[], timeoutMs = 60_000, env?: NodeJS.ProcessEnv): Promise<CliRun> {
  return runNode(['bin/mcp-resume-spec.js', ...args], timeoutMs, env);
}
