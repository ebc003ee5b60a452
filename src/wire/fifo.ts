/**
 * A first-in first-out queue with O(1) amortised `shift`, used for the wire buffer, the inbox and
 * the receive waiters of a stream (`Array.prototype.shift` is O(n) on long queues).
 */
export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  /** How many items are queued. */
  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item, not removed. */
  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** The newest item, not removed. */
  last(): T | undefined {
    return this.head < this.items.length ? this.items[this.items.length - 1] : undefined;
  }

  /** Removes and returns the oldest item. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head++;
    if (this.head === this.items.length) {
      this.items.length = 0;
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Removes the first item equal to `item`; true when one was removed. */
  remove(item: T): boolean {
    const i = this.items.indexOf(item, this.head);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }

  /** Counts the queued items that satisfy `pred`. */
  count(pred: (item: T) => boolean): number {
    let n = 0;
    for (let i = this.head; i < this.items.length; i++) if (pred(this.items[i] as T)) n++;
    return n;
  }

  /** The queued items, oldest first (a copy). */
  toArray(): T[] {
    return this.items.slice(this.head) as T[];
  }

  clear(): void {
    this.items.length = 0;
    this.head = 0;
  }
}
