// Scratch (H-catalog): what the suite finds per mutant at the CLI's default runs. Deleted before hand-off.
import { mutants } from '../src/mutants/index.js';
import { runSuite } from '../src/suite/run-suite.js';
import { propertyIds } from '../model/property-ids.js';
import { judges } from '../properties/judges/index.js';
const judged = propertyIds.filter((id) => id in judges);
const seeds = (process.env.SEEDS ?? '1').split(',').map(Number);
const only = process.env.ONLY?.split(',');
const t0 = performance.now();
const jobs = mutants.filter((m) => !only || only.includes(m.name)).flatMap((m) => seeds.map((seed) => [m, seed] as const));
const par = Number(process.env.PAR ?? 4);
let next = 0;
const one = async ([m, seed]: (typeof jobs)[number]) => {
  const c = await m.start();
  const t = performance.now();
  try {
    const r = await runSuite({ name: m.name, url: c.url }, { runs: 200, seed, timeoutMs: Number(process.env.TMO ?? 2000), shrinkMs: 1, maxMs: 600_000, only: judged });
    const failed = r.properties.filter((p) => p.status === 'fail').map((p) => p.id).sort();
    const exp = [...m.breaks].sort();
    const same = JSON.stringify(failed) === JSON.stringify(exp);
    console.log(`${m.name} seed ${seed} ${((performance.now() - t) / 1000).toFixed(1)}s ${same ? 'EXACT' : 'DIFF'} found=[${failed.join(',')}] breaks=[${exp.join(',')}] div=${r.divergences?.length ?? 0}`);
  } finally { await c.stop(); }
};
await Promise.all(Array.from({ length: par }, async () => { while (next < jobs.length) await one(jobs[next++]!); }));
console.log(`total ${((performance.now() - t0) / 1000).toFixed(1)}s`);
