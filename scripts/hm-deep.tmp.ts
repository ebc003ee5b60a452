import { defaultBounds } from '../model/bounds.js';
import { explore } from '../model/explore.js';
import { policies } from '../model/policy.js';
const b = { ...defaultBounds, calls: 3, drops: 3, ...(process.argv[2] === 'full' ? { deletes: 1, unsolicited: 1 } : {}) };
const c0 = process.cpuUsage();
const r = explore({ policy: policies.reference!, bounds: b, maxMs: 900_000 });
const c = process.cpuUsage(c0);
console.log(process.argv[2] ?? 'plain', r.states, r.transitions, r.violations.length, Math.round((c.user + c.system) / 1000), 'cpu ms', Math.round(process.resourceUsage().maxRSS / 1024), 'MiB');
