// Scratch (H-catalog): the reference at the CLI's default runs. Deleted before hand-off.
import { createReferenceServer } from '../src/reference/index.js';
import { runSuite } from '../src/suite/run-suite.js';
const server = await createReferenceServer();
const t = performance.now();
const r = await runSuite({ name: 'reference', url: server.url }, { runs: 200, seed: Number(process.env.SEED ?? 1), timeoutMs: 2000, shrinkMs: 1, maxMs: 600_000 });
for (const p of r.properties.filter((p) => p.status !== 'pass')) console.log(p.id, p.status, p.reason, p.counterexample?.path, p.causedBy);
for (const d of r.divergences ?? []) console.log('DIV', JSON.stringify(d.step).slice(0, 400), d.runs, d.path);
console.log(((performance.now() - t) / 1000).toFixed(1), 's');
await server.close();
