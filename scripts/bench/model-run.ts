/**
 * One measured exploration, run in a child process by scripts/bench/model.ts so that its peak
 * memory is its own. Prints one JSON line: states, transitions, CPU and wall milliseconds, the
 * peak RSS and the RSS before exploring (both in bytes), and the violated properties.
 *
 * usage: model-run.ts ENGINE SAVES KEYS POLICY BOUNDS [retained]
 *   ENGINE graph | search; KEYS exact | fingerprint; SAVES none | verdicts | transitions | keys | all,
 *   each adding one saving to the one before: the verdict memo, the transition memo, the key-part
 *   memo, then sessions held compact (`none`: whole session snapshots, no memo, as on the day the
 *   targets were set).
 *   `retained` (run under `node --expose-gc`): also collects garbage every 5,000 states and at the
 *   end, and reports the most live heap seen above the start (`retained`, bytes): what the engine
 *   keeps, without the collector's headroom that peak RSS includes. It slows the run; its CPU
 *   time is not comparable.
 */
import { parseBounds } from '../../model/bounds.js';
import { explore } from '../../model/explore.js';
import { exploreWithGraph } from '../../model/explore-graph.js';
import { memoization } from '../../model/memo.js';
import { policyByName } from '../../model/policy.js';

const [engine, saves, keys, policyName, boundsText, mode] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (mode === 'retained' && !gc) throw new Error('retained: run under node --expose-gc');
/** Live heap (and typed arrays' memory) after a full collection. */
const live = () => {
  gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const baseLive = mode === 'retained' ? live() : 0;
let retained = 0;
let visited = 0;
const sample = () => void (retained = Math.max(retained, live() - baseLive));
const savings = ['none', 'verdicts', 'transitions', 'keys', 'all'];
const level = savings.indexOf(saves!);
if (level < 0) throw new Error(`SAVES: one of ${savings.join(', ')}`);
memoization.sessionVerdicts = level >= 1;
memoization.sessionTransitions = level >= 2;
memoization.sessionKeys = level >= 3;
memoization.compactSessions = level >= 4;
const options = {
  policy: policyByName(policyName!),
  bounds: parseBounds(boundsText ?? ''),
  maxMs: 600_000,
  maxStates: 5_000_000,
  ...(mode === 'retained' ? { visit: () => void (++visited % 5000 === 0 && sample()) } : {}),
};
const baseRss = process.memoryUsage().rss;
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
const result = engine === 'graph' ? exploreWithGraph(options) : explore({ ...options, keys: keys === 'exact' ? 'exact' : 'fingerprint' });
const cpu = process.cpuUsage(cpu0);
// The result is still referenced here: what an engine keeps to the end (xstate/graph: every path) counts.
if (mode === 'retained') sample();
console.log(
  JSON.stringify({
    states: result.states,
    transitions: result.transitions,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs: performance.now() - wall0,
    peakRss: process.resourceUsage().maxRSS * 1024,
    baseRss,
    violations: result.violations.map((v) => `${v.property}:${v.path.length}`).sort(),
    ...(mode === 'retained' ? { retained } : {}),
  }),
);
