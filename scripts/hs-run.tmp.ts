import { runSuite } from '../src/suite/run-suite.js';
const which = process.argv[2]!;
const mod = await import(`../src/candidates/${which}.ts`);
const c = await mod.default();
const t0 = Date.now();
try {
  const r = await runSuite({ name: c.name, url: c.url }, { runs: Number(process.argv[3] ?? 50), seed: 20261201, timeoutMs: 3000 });
  for (const p of r.properties) console.log(p.status.padEnd(5), p.id.padEnd(28), p.runs, p.reason ?? '', p.counterexample ? '\n   ' + p.counterexample.steps.join('\n   ') : '');
  console.log('abilities', JSON.stringify(r.abilities), 'ms', Date.now() - t0);
} finally { await c.stop(); }
