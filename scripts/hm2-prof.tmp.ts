import { explore } from '../model/explore.js';
import { defaultBounds } from '../model/bounds.js';
import { reference } from '../model/policy.js';
const c0 = process.cpuUsage();
const r = explore({ policy: reference, bounds: { ...defaultBounds, deletes: 1, unsolicited: 1 } });
const c = process.cpuUsage(c0);
console.log(r.states, r.transitions, (c.user + c.system) / 1e6, 's CPU', process.resourceUsage().maxRSS / 1024, 'MB');
