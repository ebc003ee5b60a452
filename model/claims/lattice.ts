/**
 * Enumerates a sub-lattice of policies: every combination of the named knobs' values over a base.
 */
import { knobs, withKnob, type KnobName, type KnobValue, type Policy } from '../policy.js';

export interface LatticeCell {
  /** The knob values of this cell, in the order the knobs were named. */
  values: Array<{ knob: KnobName; value: KnobValue<KnobName> }>;
  policy: Policy;
}

/** Every combination of `names`' values, other knobs as in `base` (2^n cells for n boolean-like knobs). */
export function lattice(base: Policy, names: readonly KnobName[]): LatticeCell[] {
  let cells: LatticeCell[] = [{ values: [], policy: base }];
  for (const name of names) {
    const next: LatticeCell[] = [];
    for (const cell of cells) {
      for (const value of knobs[name] as readonly KnobValue<KnobName>[]) {
        next.push({ values: [...cell.values, { knob: name, value }], policy: withKnob(cell.policy, name, value as never) });
      }
    }
    cells = next;
  }
  return cells;
}

/** A cell's value of one knob. */
export function knobValue(cell: LatticeCell, name: KnobName): KnobValue<KnobName> {
  return cell.values.find((v) => v.knob === name)!.value;
}

/** Renders a knob value for tables. */
export function showValue(value: KnobValue<KnobName>): string {
  return value === true ? 'on' : value === false ? 'off' : String(value);
}
