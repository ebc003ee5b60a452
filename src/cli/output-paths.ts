/**
 * Report paths are checked before a check runs, so a path that cannot be written costs a usage
 * error at once rather than the whole run (and the report) at the end.
 */
import { closeSync, openSync, statSync, unlinkSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './command.js';

/** The path's stats, or undefined when there is nothing there (or a file stands where a folder should). */
function stat(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Throws a usage error naming `flag` unless `path` can be written: its folder exists and is
 * writable, and the path is not a folder nor a read-only file.
 */
export function checkWritable(flag: string, path: string): void {
  const full = resolve(path);
  const fail = (why: string): never => {
    throw new UsageError(`--${flag}: cannot write ${path}: ${why}`);
  };
  const existing = stat(full);
  if (existing?.isDirectory()) fail('it is a folder');
  const folder = dirname(full);
  const parent = stat(folder);
  if (!parent) fail(`the folder ${dirname(path)} does not exist`);
  if (!parent!.isDirectory()) fail(`${dirname(path)} is not a folder`);
  // Tried for real: permission bits say nothing to root, nor about /proc or a read-only mount.
  try {
    if (existing) closeSync(openSync(full, 'a'));
    else {
      closeSync(openSync(full, 'wx'));
      unlinkSync(full);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    fail(existing ? `the file is not writable (${code})` : `a file cannot be made in ${dirname(path)} (${code})`);
  }
}
