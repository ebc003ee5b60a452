/**
 * The explored state graph as integers, and its breadth-first tree: shortest paths without
 * holding a single world.
 */
import { Ints } from './explore-tables.js';

/** Breadth-first order from state 0, and per state the state and step it was first reached by (-1 for state 0). */
export interface BreadthFirstTree {
  order: Int32Array;
  parent: Int32Array;
  step: Int32Array;
}

/**
 * Per state, its successors in the order `enabledSteps` offers them: (state ID, step ID) pairs,
 * about 8 bytes per transition.
 */
export class SuccessorGraph {
  private readonly first = new Ints();
  private readonly count = new Ints();
  private readonly targets = new Ints();
  private readonly steps = new Ints();
  /** Records state `id`'s successors: `expand(id)`, then one `successor` per step, in order. */
  expand(id: number): void {
    this.first.put(id, this.targets.length);
  }
  successor(id: number, target: number, step: number): void {
    this.targets.push(target);
    this.steps.push(step);
    this.count.put(id, this.count.at(id) + 1);
  }
  /**
   * The breadth-first tree from state 0, in the order a breadth-first search would take states
   * from its queue. The same successors in the same order give the same tree, whatever order the
   * states were found in.
   */
  breadthFirst(states: number): BreadthFirstTree {
    const order = new Int32Array(states);
    const parent = new Int32Array(states).fill(-2);
    const step = new Int32Array(states).fill(-1);
    const { targets, steps } = this;
    parent[0] = -1;
    let tail = 1;
    for (let head = 0; head < tail; head++) {
      const state = order[head]!;
      const from = this.first.at(state);
      const to = from + this.count.at(state);
      for (let e = from; e < to; e++) {
        const target = targets.at(e);
        if (parent[target] !== -2) continue;
        parent[target] = state;
        step[target] = steps.at(e);
        order[tail++] = target;
      }
    }
    return { order, parent, step };
  }
}
