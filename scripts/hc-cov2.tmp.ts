// Scratch (H-catalog). Deleted before hand-off.
import { mutantByName } from '../src/mutants/index.js';
import { probeAbilities } from '../src/suite/abilities.js';
import { boundsOf, planCoverage } from '../src/suite/coverage.js';
import { referenceClient, runSuite } from '../src/suite/run-suite.js';
import { judgeHistory } from '../src/suite/verdicts.js';
import { runSteps } from '../src/suite/scenario.js';
import { propertyIds } from '../model/property-ids.js';
const m = mutantByName(process.env.M ?? 'unknown-cursor-empty-stream');
const c = await m.start();
const abilities = await probeAbilities({ name: 'x', url: c.url }, 2000);
const plan = planCoverage(abilities, referenceClient);
const path = plan.paths.at(-1)!;
console.log(JSON.stringify(path));
const rec = await runSteps({ target: { name: 'x', url: c.url }, abilities, client: referenceClient, timeoutMs: 2000, runTag: 'aa' }, boundsOf(plan, plan.paths.length - 1), path, { seed: -1, path: "x" });
for (const s of rec.steps) console.log(JSON.stringify(s).slice(0, 300));
for (const id of propertyIds) { try { const j = judgeHistory(rec.history, [id]).get(id)!; console.log(id, j.status, j.reason); } catch (e) { console.log(id, String(e)); } }
await c.stop();
