import { runSuite } from '../src/suite/run-suite.js';
import { startDeployment } from '../examples/replicas/deployment.js';
const d = await startDeployment({ log: 'memory' });
try {
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    const r = await runSuite({ name: 'replicas', url: d.url }, { runs: 10, seed: 20261201, only: ['no-silent-loss'], timeoutMs: 3000 });
    const p = r.properties[0]!;
    console.log(i, p.status, p.reason, p.counterexample?.path, Date.now() - t0);
  }
} finally { await d.stop(); }
