// Scratch (H-catalog). Deleted before hand-off.
import { mutantByName } from '../src/mutants/index.js';
import { runSuite } from '../src/suite/run-suite.js';
const m = mutantByName(process.env.M!);
const c = await m.start();
const r = await runSuite({ name: m.name, url: c.url }, { runs: 200, seed: Number(process.env.SEED), timeoutMs: 2000, shrinkMs: 1, only: [process.env.P as never] });
for (const p of r.properties) { console.log(p.id, p.status, p.reason, p.counterexample?.path); for (const s of p.counterexample?.steps ?? []) console.log(JSON.stringify(s).slice(0, 400)); }
await c.stop();
