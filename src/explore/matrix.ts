/**
 * Explores every named policy at the same bounds, the policies spread over worker threads (each
 * exploration is independent and single-threaded; the model itself stays pure and does no I/O).
 * Compiled JavaScript runs the workers; run from TypeScript source (ts-node), where a worker
 * could not load the model, the policies are explored in this thread, one after another.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Bounds } from '../../model/bounds.js';
import { ExplorationBudgetExceeded, explore } from '../../model/explore.js';
import { policyByName } from '../../model/policy.js';
import type { PropertyId } from '../../model/property-ids.js';

/** What the matrix shows of one policy's exploration. */
export interface MatrixCell {
  policy: string;
  states: number;
  transitions: number;
  /** Per violated property, the length of its shortest trace. */
  violations: Array<{ property: PropertyId; length: number }>;
}

export interface MatrixTask {
  policy: string;
  bounds: Bounds;
  maxStates: number;
  maxMs: number;
}

/** One policy's cell, explored in this thread. */
function exploreCell(task: MatrixTask): MatrixCell {
  const result = explore({ policy: policyByName(task.policy), bounds: task.bounds, maxStates: task.maxStates, maxMs: task.maxMs });
  return {
    policy: task.policy,
    states: result.states,
    transitions: result.transitions,
    violations: result.violations.map((v) => ({ property: v.property, length: v.path.length })),
  };
}

/** What a worker posts: a cell it explored, the error its exploration threw (by name, so a budget error stays one), or that it has no task left. */
export type WorkerAnswer = { index: number; cell: MatrixCell } | { index: number; error: { name: string; message: string } } | { done: true };

/** What a worker is sent: every task, and the shared counter of the next task to claim. */
export interface WorkerOrder {
  tasks: MatrixTask[];
  next: Int32Array;
}

/**
 * Explores tasks, claimed one at a time from the counter `next` shared by every thread, until
 * none is left; after an error, claims no more and has the others claim no more.
 */
export function exploreClaimed({ tasks, next }: WorkerOrder, answer: (a: WorkerAnswer) => void): void {
  for (let index = Atomics.add(next, 0, 1); index < tasks.length; index = Atomics.add(next, 0, 1)) {
    try {
      answer({ index, cell: exploreCell(tasks[index]!) });
    } catch (error) {
      Atomics.store(next, 0, tasks.length);
      const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
      answer({ index, error: { name, message } });
      return;
    }
  }
}

const workerUrl = new URL('./matrix-worker.js', import.meta.url);
const compiled = import.meta.url.endsWith('.js');

/**
 * Explores `policies` (names) at `bounds`; the cells come back in the order of `policies`. This
 * thread explores too, beside `threads - 1` workers: each thread claims the next policy when done
 * with one, from a counter they share, so no thread waits on another to be handed its next.
 * @throws ExplorationBudgetExceeded when a policy's exploration exceeds its budget.
 */
export async function exploreMatrix(
  policies: string[],
  options: { bounds: Bounds; maxStates: number; maxMs: number; threads?: number },
): Promise<MatrixCell[]> {
  const tasks = policies.map((policy) => ({ policy, bounds: options.bounds, maxStates: options.maxStates, maxMs: options.maxMs }));
  const threads = Math.min(options.threads ?? availableParallelism(), tasks.length);
  if (!compiled || threads <= 1) return tasks.map(exploreCell);
  const order: WorkerOrder = { tasks, next: new Int32Array(new SharedArrayBuffer(4)) };
  const cells: MatrixCell[] = new Array(tasks.length);
  const errors: Error[] = [];
  const take = (answer: WorkerAnswer) => {
    if ('cell' in answer) cells[answer.index] = answer.cell;
    else if ('error' in answer) errors.push(answerError(tasks[answer.index]!, answer.error));
  };
  const workers = Array.from({ length: threads - 1 }, () => new Worker(workerUrl));
  try {
    const finished = workers.map((worker) => untilDone(worker, take));
    // Not awaited after an error here: the workers are then stopped, and their exits are no news.
    for (const done of finished) done.catch(() => {});
    for (const worker of workers) worker.postMessage(order);
    // This thread's share runs synchronously; the workers' answers wait in the event loop meanwhile.
    exploreClaimed(order, take);
    if (errors.length === 0) await Promise.all(finished);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  // A real failure first: a budget error beside it (another thread out of time) says less.
  if (errors.length > 0) throw errors.find((e) => !(e instanceof ExplorationBudgetExceeded)) ?? errors[0]!;
  return cells;
}

function answerError(task: MatrixTask, { name, message }: { name: string; message: string }): Error {
  return name === 'ExplorationBudgetExceeded' ? new ExplorationBudgetExceeded(message) : new Error(`exploring ${task.policy}: ${message}`);
}

/** Resolves when `worker` has no task left (every answer passed to `take`); rejects if it fails or exits first. */
function untilDone(worker: Worker, take: (answer: WorkerAnswer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    worker.on('message', (answer: WorkerAnswer) => {
      if ('done' in answer) resolve();
      else take(answer);
      if ('error' in answer) resolve();
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`a matrix worker exited (code ${code}) before its tasks were done`)));
  });
}
