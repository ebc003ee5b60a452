/**
 * One measured exploration, run in a child process by scripts/bench/model.ts so that its peak
 * memory is its own. Prints one JSON line: states, transitions, CPU and wall milliseconds, the
 * peak RSS and the RSS before exploring (both in bytes), and the violated properties.
 *
 * usage: model-run.ts ENGINE MEMO KEYS POLICY BOUNDS
 *   ENGINE graph | bfs; MEMO none | verdicts | transitions | all (each adds a memo table); KEYS exact | fingerprint.
 */
import { parseBounds } from '../../model/bounds.js';
import { explore } from '../../model/explore.js';
import { exploreWithGraph } from '../../model/explore-graph.js';
import { memoization } from '../../model/memo.js';
import { policyByName } from '../../model/policy.js';

const [engine, memo, keys, policyName, boundsText] = process.argv.slice(2);
memoization.sessionVerdicts = memo !== 'none';
memoization.sessionTransitions = memo === 'transitions' || memo === 'all';
memoization.sessionKeys = memo === 'all';
const options = { policy: policyByName(policyName!), bounds: parseBounds(boundsText ?? ''), maxMs: 600_000, maxStates: 5_000_000 };
const baseRss = process.memoryUsage().rss;
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
const result = engine === 'graph' ? exploreWithGraph(options) : explore({ ...options, keys: keys === 'exact' ? 'exact' : 'fingerprint' });
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    states: result.states,
    transitions: result.transitions,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs: performance.now() - wall0,
    peakRss: process.resourceUsage().maxRSS * 1024,
    baseRss,
    violations: result.violations.map((v) => `${v.property}:${v.path.length}`).sort(),
  }),
);
