/** Runs a command in a child process to its end, within a bound on its time (the bench and the CLI tests). */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** What a finished command left: its exit code (null when a signal ended it), its output and its wall time. */
export interface BoundedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs `command args` in `cwd` and collects its output.
 *
 * @throws (rejects) when it cannot start, or has not finished within `timeoutMs` (it is killed then)
 */
export function runBounded(command: string, args: string[], options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<BoundedRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(options.env ? { env: options.env } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish in ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}
