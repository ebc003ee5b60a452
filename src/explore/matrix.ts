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
export function exploreCell(task: MatrixTask): MatrixCell {
  const result = explore({ policy: policyByName(task.policy), bounds: task.bounds, maxStates: task.maxStates, maxMs: task.maxMs });
  return {
    policy: task.policy,
    states: result.states,
    transitions: result.transitions,
    violations: result.violations.map((v) => ({ property: v.property, length: v.path.length })),
  };
}

/** A worker's answer: a cell, or the error its exploration threw (by name, so a budget error stays one). */
export type WorkerAnswer = { cell: MatrixCell } | { error: { name: string; message: string } };

const workerUrl = new URL('./matrix-worker.js', import.meta.url);
const compiled = import.meta.url.endsWith('.js');

/**
 * Explores `policies` (names) at `bounds`; the cells come back in the order of `policies`.
 * @throws ExplorationBudgetExceeded when a policy's exploration exceeds its budget.
 */
export async function exploreMatrix(
  policies: string[],
  options: { bounds: Bounds; maxStates: number; maxMs: number; threads?: number },
): Promise<MatrixCell[]> {
  const tasks = policies.map((policy) => ({ policy, bounds: options.bounds, maxStates: options.maxStates, maxMs: options.maxMs }));
  const threads = Math.min(options.threads ?? availableParallelism(), tasks.length);
  if (!compiled || threads <= 1) return tasks.map(exploreCell);
  const cells: MatrixCell[] = new Array(tasks.length);
  let next = 0;
  const workers: Worker[] = [];
  try {
    await Promise.all(
      Array.from({ length: threads }, async () => {
        const worker = new Worker(workerUrl);
        workers.push(worker);
        // Each worker takes the next policy as soon as it is done with one.
        while (next < tasks.length) {
          const index = next++;
          cells[index] = await ask(worker, tasks[index]!);
        }
      }),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return cells;
}

function ask(worker: Worker, task: MatrixTask): Promise<MatrixCell> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (answer: WorkerAnswer) => {
      cleanup();
      if ('cell' in answer) return resolve(answer.cell);
      const { name, message } = answer.error;
      reject(name === 'ExplorationBudgetExceeded' ? new ExplorationBudgetExceeded(message) : new Error(`exploring ${task.policy}: ${message}`));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`the worker exploring ${task.policy} exited (code ${code})`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(task);
  });
}
