/** A worker thread of `exploreMatrix`: explores the policies it claims, one at a time, then says it is done. */
import { parentPort } from 'node:worker_threads';
import { exploreClaimed, type WorkerAnswer, type WorkerOrder } from './matrix.js';

parentPort!.once('message', (order: WorkerOrder) => {
  const answer = (a: WorkerAnswer) => parentPort!.postMessage(a);
  exploreClaimed(order, answer);
  answer({ done: true });
});
