/** Runs the CLI (or any script of the repo) in a child process with a bounded time. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node ARGS` from the repository root; rejects if it has not finished within `timeoutMs`. */
export function runNode(args: string[], timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} did not finish in ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * `mcp-resume-spec ARGS`: the compiled CLI in dist/ (built once by test/global-setup.ts), as the
 * package's bin runs it; test/pack/ runs it installed from the tarball.
 */
export function runCli(args: string[], timeoutMs = 60_000): Promise<CliRun> {
  return runNode(['bin/mcp-resume-spec.js', ...args], timeoutMs);
}
