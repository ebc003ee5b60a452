/**
 * The check's progress on stderr, rendered from the suite's progress events (stdout stays the
 * report). On a terminal one line per phase, rewritten in place (`probes 3/7`, `coverage 41/96`,
 * `interleavings 120/200`) and kept once the phase is over; off a terminal (CI logs) a plain line
 * when a phase starts and then at most every few seconds, so a log is not flooded.
 */
import type { SuiteProgress } from '../check-server/types.js';

export interface ProgressSink {
  /** Where the lines go (process.stderr.write). */
  write: (text: string) => void;
  /** Rewrite one live line in place (a terminal), or print plain lines now and then. */
  tty: boolean;
  /** Off a terminal, the least time between two lines of one phase, ms (default 5000). */
  intervalMs?: number;
  /** Clock, ms (default performance.now; tests pass their own). */
  now?: () => number;
}

/** One unit of work done in a phase: the suite's event, or any checker's with the same fields (`check-client`'s scenarios). */
export type ProgressEvent = Pick<SuiteProgress, 'done' | 'total' | 'elapsedMs' | 'waitsRanOut'> & { phase: string; broke: readonly string[] };

/** Renders progress events; `update` is the suite's `onProgress`, `done` ends the live line. */
export interface ProgressRenderer {
  start: (what: string) => void;
  update: (event: ProgressEvent) => void;
  done: () => void;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The text of one event: `interleavings 120/200 (12.3 s; 2 properties broken so far)`, and the
 * waits of the phase so far that ran their full bound (`ranOut`): where the time of a slow phase went.
 */
export function progressText(event: ProgressEvent, broken: number, ranOut = 0): string {
  const failing = broken > 0 ? `; ${broken} ${broken === 1 ? 'property' : 'properties'} broken so far` : '';
  const waits =
    ranOut > 0 ? `; ${ranOut} ${ranOut === 1 ? 'wait' : 'waits'} ran the full --timeout: a stream kept open with nothing more sent is read that long` : '';
  return `${event.phase} ${event.done}/${event.total} (${seconds(event.elapsedMs)}${failing}${waits})`;
}

/** A renderer writing to `sink`; a no-op renderer when `quiet`. */
export function progressRenderer(sink: ProgressSink, quiet = false): ProgressRenderer {
  if (quiet) return { start: () => {}, update: () => {}, done: () => {} };
  const now = sink.now ?? (() => performance.now());
  const interval = sink.intervalMs ?? 5000;
  const broken = new Set<string>();
  let phase: string | undefined;
  let lastWrite = -Infinity;
  let live = '';
  let pending: ProgressEvent | undefined;
  let ranOut = 0;
  const clear = () => {
    if (sink.tty && live !== '') sink.write('\r\x1b[K');
    live = '';
  };
  const show = (text: string) => {
    if (sink.tty) {
      sink.write(`\r\x1b[K${text}`);
      live = text;
    } else sink.write(`${text}\n`);
  };
  return {
    start: (what) => {
      lastWrite = now();
      show(what);
    },
    update: (event) => {
      for (const id of event.broke) broken.add(id);
      const newPhase = event.phase !== phase;
      const last = event.done >= event.total;
      const t = now();
      if (newPhase && pending && !sink.tty) show(progressText(pending, broken.size, ranOut));
      if (newPhase && sink.tty && live !== '') sink.write('\n');
      if (newPhase) {
        live = '';
        ranOut = 0;
      }
      ranOut += event.waitsRanOut ?? 0;
      phase = event.phase;
      // A terminal redraws ten times a second at most; a log gets a phase's first and last line and one every interval.
      if (newPhase || last || t - lastWrite >= (sink.tty ? 100 : interval)) {
        show(progressText(event, broken.size, ranOut));
        lastWrite = t;
        pending = undefined;
        if (last && sink.tty) {
          sink.write('\n');
          live = '';
        }
      } else pending = event;
    },
    done: clear,
  };
}
