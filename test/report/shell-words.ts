/** How a POSIX shell reads a printed command line: for tests that replay lines run as printed. */
import { execFileSync } from 'node:child_process';

/** The arguments `sh` passes to `npx` when it runs `line` (with `env`), as a list: `npx` is a function printing them. */
export function shellWords(line: string, env: Record<string, string> = {}): string[] {
  const script = `npx() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${line}\n`;
  const out = execFileSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } });
  return out.split('\0').slice(0, -1);
}
