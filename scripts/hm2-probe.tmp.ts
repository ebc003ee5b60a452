import { explore } from '../model/explore.js';
import { defaultBounds } from '../model/bounds.js';
import { policies } from '../model/policy.js';
import { replay, formatTrace } from '../model/trace.js';
for (const [name, p] of Object.entries(policies)) {
  for (const moves of [0, 1]) {
    const b = { ...defaultBounds, moves };
    const r = explore({ policy: p, bounds: b });
    console.log(name, moves, r.states, r.transitions, r.violations.map((v) => `${v.property}:${v.path.length}`).join(' '), Math.round(r.ms));
  }
}
