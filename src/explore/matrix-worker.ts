/** A worker thread of `exploreMatrix`: explores the policies it is sent, one at a time. */
import { parentPort } from 'node:worker_threads';
import { exploreCell, type MatrixTask, type WorkerAnswer } from './matrix.js';

parentPort!.on('message', (task: MatrixTask) => {
  let answer: WorkerAnswer;
  try {
    answer = { cell: exploreCell(task) };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    answer = { error: { name, message } };
  }
  parentPort!.postMessage(answer);
});
