import { explore } from '../model/explore.js';
import { defaultBounds } from '../model/bounds.js';
import { policies } from '../model/policy.js';
for (const [name, p] of Object.entries(policies)) {
  const c0 = process.cpuUsage();
  try {
    const r = explore({ policy: p, bounds: defaultBounds, maxStates: 3_000_000, maxMs: 300_000 });
    const c = process.cpuUsage(c0);
    console.log(name, r.states, ((c.user + c.system) / 1e6).toFixed(2), 's CPU', r.violations.map((v) => v.property).join(' '));
  } catch (e) { console.log(name, String(e)); }
}
