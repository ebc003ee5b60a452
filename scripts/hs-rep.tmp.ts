import { runSuite } from '../src/suite/run-suite.js';
import { startDeployment } from '../examples/replicas/deployment.js';
const t0 = Date.now();
const d = await startDeployment({ log: (process.argv[2] ?? 'redis') as 'redis' | 'memory' });
console.log('started in', Date.now() - t0, d.url, d.replicaUrls);
try {
  const r = await runSuite({ name: 'replicas', url: d.url }, { runs: Number(process.argv[3] ?? 30), seed: 20261201, timeoutMs: 3000 });
  for (const p of r.properties) console.log(p.status.padEnd(5), p.id.padEnd(28), p.runs, p.reason ?? '', p.counterexample ? '\n' + JSON.stringify({path: p.counterexample.path, seed: p.counterexample.seed, steps: p.counterexample.steps}, null, 1).slice(0, 6000) : '');
  console.log('abilities', JSON.stringify(r.abilities), 'ms', Date.now() - t0);
} finally { await d.stop(); }
