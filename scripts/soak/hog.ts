/**
 * A CPU hog for `npm run soak --hog`: one busy-looping child process per core, to run the tests on
 * a loaded machine. Every child is killed by `stop()`, and on this process's exit whatever the cause.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** A running hog; `stop()` kills every child and waits until each has exited. */
export interface Hog {
  readonly pids: number[];
  stop(): Promise<void>;
}

/** Starts `count` busy loops (default: one per core). */
export function startHog(count = availableParallelism()): Hog {
  const children: ChildProcess[] = [];
  for (let i = 0; i < count; i++) {
    children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  }
  const killAll = (): void => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  return {
    pids: children.flatMap((c) => (c.pid === undefined ? [] : [c.pid])),
    async stop() {
      const exited = children.map((c) =>
        c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once('exit', () => r())),
      );
      killAll();
      await Promise.all(exited);
      process.off('exit', killAll);
    },
  };
}
