import { defaultBounds } from '../model/bounds.js';
import { reference } from '../model/policy.js';
import { explore } from '../model/explore.js';
import { memoization } from '../model/memo.js';
memoization.sessionTransitions = process.argv[2] !== 'nomemo';
const base = process.memoryUsage().rss; console.log("base heap MB", (process.memoryUsage().heapUsed/1e6).toFixed(0), "base rss", (base/1e6).toFixed(0));
let maxHeap = 0; let n = 0;
const r = explore({ policy: reference, bounds: { ...defaultBounds, deletes: 1, unsolicited: 1 }, visit: () => { if ((++n & 4095) === 0) { (globalThis as any).gc?.(); const h = process.memoryUsage().heapUsed; if (h > maxHeap) maxHeap = h; } } });
console.log(r.states, 'widest', r.widest, 'maxHeapUsed MB', (maxHeap / 1e6).toFixed(0), 'peak rss above base MB', ((process.resourceUsage().maxRSS * 1024 - base) / 1e6).toFixed(0));
