import { defaultBounds } from '../model/bounds.js';
import { explore } from '../model/explore.js';
import { exploreWithGraph } from '../model/explore-graph.js';
import { policies } from '../model/policy.js';
const full = { ...defaultBounds, deletes: 1, unsolicited: 1 };
const which = process.argv[2] ?? 'small';
if (which === 'small') {
  const b = { ...defaultBounds, calls: 2, notifications: 1, drops: 1, resumes: 1 };
  for (const [name, p] of Object.entries(policies)) {
    const a = explore({ policy: p, bounds: b }); const g = exploreWithGraph({ policy: p, bounds: b });
    const va = a.violations.map(v => v.property + ':' + v.path.length).sort().join(); const vg = g.violations.map(v => v.property + ':' + v.path.length).sort().join();
    console.log(name, a.states, g.states, a.transitions, g.transitions, va === vg ? 'same' : `DIFF ${va} | ${vg}`, Math.round(a.ms), Math.round(g.ms));
  }
} else {
  const t0 = performance.now(); const r0 = process.memoryUsage().rss;
  const r = (which === 'new' ? explore : exploreWithGraph)({ policy: policies.reference!, bounds: full });
  console.log(which, r.states, Math.round(performance.now() - t0), 'ms', Math.round(r.states / (performance.now() - t0) * 1000), 'states/s', Math.round(process.resourceUsage().maxRSS / 1024), 'MiB peak');
}
