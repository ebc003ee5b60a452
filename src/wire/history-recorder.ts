/**
 * Writes a {@link History}: stamps each entry with its position and a monotonic time, and hands out
 * connection numbers. Several clients may share one recorder so that their entries interleave in
 * one history in the order they happened.
 */
import { performance } from 'node:perf_hooks';
import type { History, HistoryEntry, NewEntry, StepEntry } from '../../properties/history.js';

/** The entry type whose `type` is `T`. */
export type EntryOf<T extends HistoryEntry['type']> = Extract<HistoryEntry, { type: T }>;

export class HistoryRecorder {
  /** The history being written; entries are appended in the order they happen. */
  readonly history: History = { entries: [] };
  private readonly origin: number;
  private nextConn = 0;

  /** @param origin the `performance.now()` value that `at: 0` stands for (default: now). */
  constructor(origin: number = performance.now()) {
    this.origin = origin;
  }

  /** Milliseconds since the history began (monotonic). */
  now(): number {
    return performance.now() - this.origin;
  }

  /** A fresh connection number for one HTTP exchange. */
  newConn(): number {
    return this.nextConn++;
  }

  /**
   * Appends an entry, stamping `seq` and `at` on the object given (it is not copied), and returns
   * it typed as the full entry.
   */
  record<E extends NewEntry>(entry: E): EntryOf<E['type']> {
    const full = entry as unknown as HistoryEntry;
    full.seq = this.history.entries.length;
    full.at = performance.now() - this.origin;
    this.history.entries.push(full);
    return full as EntryOf<E['type']>;
  }

  /** Gives the stream connection `conn` carries the name the run's trace calls it (see `History.streamNames`). */
  nameStream(conn: number, name: string): void {
    (this.history.streamNames ??= {})[conn] = name;
  }

  /** Records a scenario step. */
  step(step: string): StepEntry {
    return this.record({ type: 'step', step });
  }
}
