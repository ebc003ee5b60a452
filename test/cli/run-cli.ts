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

/** `mcp-resume-spec ARGS`, from source (`npm run cli`); the compiled CLI is tested installed, in test/pack/. */
export function runCli(args: string[], timeoutMs = 60_000): Promise<CliRun> {
  return runNode(['bin/run-ts.js', 'src/cli/run.ts', ...args], timeoutMs);
}
