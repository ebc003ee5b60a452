import { explore } from '../model/explore.js';
import { parseBounds, defaultBounds } from '../model/bounds.js';
import { policies } from '../model/policy.js';
const b = process.argv[2] ?? 'calls=2,notifications=1,drops=1,resumes=1';
for (const name of (process.argv[3] ?? 'reference,idle-ttl,bounded-log,retention-partial-replay').split(',')) {
  const t = Date.now();
  const r = explore({ policy: policies[name]!, bounds: b === 'default' ? defaultBounds : parseBounds(b) });
  console.log(name, r.states, r.transitions, [...new Set(r.violations.map((v) => v.property))].join(','), Date.now() - t, 'ms');
}
