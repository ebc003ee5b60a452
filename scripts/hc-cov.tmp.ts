// Scratch (H-catalog). Deleted before hand-off.
import { mutantByName } from '../src/mutants/index.js';
import { runSuite } from '../src/suite/run-suite.js';
for (const name of (process.env.ONLY ?? 'unknown-cursor-empty-stream').split(',')) {
  const m = mutantByName(name);
  const c = await m.start();
  const r = await runSuite({ name, url: c.url }, { runs: Number(process.env.RUNS ?? 0), seed: 1, timeoutMs: 2000, shrinkMs: 1 });
  console.log(name, r.properties.filter((p) => p.status === 'fail').map((p) => `${p.id}@${p.counterexample?.path}${p.causedBy ? '<-' + p.causedBy.property : ''}`).join(' '), 'cov', r.coverage?.scenarios);
  await c.stop();
}
