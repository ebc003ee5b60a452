import { defaultBounds } from '../model/bounds.js';
import { reference } from '../model/policy.js';
import { violatedInvariants } from '../model/invariants.js';
import { computeWorldKey } from '../model/world-key.js';
import { fingerprint } from '../model/explore.js';
import { enabledSteps } from '../model/world-steps.js';
import { initialWorld, step } from '../model/world.js';
import type { World } from '../model/world-types.js';
const bounds = { ...defaultBounds, deletes: 1, unsolicited: 1 };
const t = { key: 0, step: 0, enabled: 0, inv: 0, fp: 0, map: 0 };
const seen = new Map<string, number>();
const init = initialWorld({ policy: reference, bounds });
seen.set(fingerprint(computeWorldKey(init)), 0);
const q: World[] = [init];
let klen = 0;
const c0 = process.cpuUsage();
for (let h = 0; h < q.length; h++) {
  const w = q[h]!;
  let a = performance.now();
  violatedInvariants(w);
  let b = performance.now(); t.inv += b - a;
  const steps = enabledSteps(w);
  a = performance.now(); t.enabled += a - b;
  for (const s of steps) {
    b = performance.now();
    const n = step(w, s);
    a = performance.now(); t.step += a - b;
    const k = computeWorldKey(n); klen += k.length;
    b = performance.now(); t.key += b - a;
    const f = fingerprint(k);
    a = performance.now(); t.fp += a - b;
    if (!seen.has(f)) { seen.set(f, seen.size); q.push(n); }
    b = performance.now(); t.map += b - a;
  }
}
const c = process.cpuUsage(c0);
console.log(seen.size, (c.user + c.system) / 1e6, JSON.stringify(t), 'avg key len', klen / 188499);
