import { defaultBounds } from '../model/bounds.js';
import { explore } from '../model/explore.js';
import { policies } from '../model/policy.js';
import { worldKey } from '../model/world-key.js';
const full = { ...defaultBounds, deletes: 1, unsolicited: 1 };
let n = 0, len = 0, maxHeap = 0;
const r = explore({ policy: policies.reference!, bounds: full, visit: (w) => { n++; len += worldKey(w).length; if ((n & 4095) === 0) maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed); } });
console.log(r.states, 'widest', r.widest, 'avg key', Math.round(len / n), 'max heapUsed MiB', Math.round(maxHeap / 2 ** 20), 'maxRSS MiB', Math.round(process.resourceUsage().maxRSS / 1024), 'transitions', r.transitions);
