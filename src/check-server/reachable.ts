/**
 * Whether a candidate is still there: a scenario that met a refused connection (the candidate
 * crashed or was stopped mid-check) is followed by one TCP connect to its port. Verdicts after
 * that would judge a server that is gone, so the suite stops and says so.
 */
import net from 'node:net';
import type { History } from '../../properties/history.js';
import { CandidateUnusable } from './abilities.js';

/** The candidate stopped accepting connections during the check (exit status 2, as for one that never answered). */
export class CandidateLost extends CandidateUnusable {
  override name = 'CandidateLost';
}

/** Whether a history recorded a refused connection. */
export function metRefusal(history: History): boolean {
  return history.entries.some((e) => e.type === 'failure' && e.reason === 'connection-refused');
}

/** Whether something accepts TCP connections at `url`'s host and port, within `timeoutMs`. */
export function accepts(url: string, timeoutMs: number): Promise<boolean> {
  const { hostname, port, protocol } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || (protocol === 'https:' ? 443 : 80)) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(true)); // no answer is not a refusal: a slow machine, not a dead server
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
