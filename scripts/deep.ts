/**
 * `npm run deep`: the deeper runs kept out of `npm test`, with random seeds (printed, so any
 * failure can be replayed): a larger exhaustive exploration, many more model interleavings, many
 * more interleavings against the reference server over HTTP, and the exact mutant catalog with
 * every catalog seed (fixed seeds, `src/check-server/mutants/found.ts`). Exit status 1 on any failure.
 */
import { defaultBounds, formatBounds } from '../model/bounds.js';
import { explore } from '../model/explore.js';
import { reference } from '../model/policy.js';
import { checkInterleavings } from '../properties/model-interleavings.js';
import { createReferenceServer } from '../src/reference/index.js';
import { runSuite } from '../src/check-server/run-suite.js';
import { catalogSeeds, findBroken } from '../src/check-server/mutants/found.js';
import { mutants } from '../src/check-server/mutants/index.js';

const seed = Number(process.env.SEED ?? Math.floor(Math.random() * 2 ** 31));
let failures = 0;
const say = (line: string) => console.log(line);
say(`deep run, seed ${seed} (replay with SEED=${seed} npm run deep)`);

// Deeper than the default bounds: every knob of the world on, three calls and three drops.
for (const bounds of [
  { ...defaultBounds, deletes: 1, unsolicited: 1 },
  { ...defaultBounds, calls: 3, drops: 3 },
]) {
  const explored = explore({ policy: reference, bounds, maxMs: 900_000, maxStates: 10_000_000 });
  say(
    `model, reference, bounds ${formatBounds(bounds)}: ${explored.states} states, ${explored.transitions} transitions in ${(explored.ms / 1000).toFixed(1)} s, ${explored.violations.length} violations`,
  );
  for (const v of explored.violations) {
    failures++;
    say(`  VIOLATED ${v.property}: ${v.message} (mcp-resume-spec explore --bounds ${formatBounds(bounds)})`);
  }
}

const model = checkInterleavings({ policy: reference, numRuns: 3000, seed });
say(`model interleavings, reference: ${model.numRuns} runs, longest ${model.longestRun} steps: ${model.failed ? 'FAILED' : 'hold'}`);
if (model.failed) {
  failures++;
  say(`  ${model.violation?.message}\n  replay: seed ${model.seed} path ${model.counterexamplePath}\n${model.trace}`);
}

const server = await createReferenceServer();
try {
  const report = await runSuite({ name: 'reference', url: server.url }, { runs: 1000, seed, maxMs: 900_000, timeoutMs: 3000 });
  const failed = report.properties.filter((p) => p.status !== 'pass');
  say(
    `reference server over HTTP: ${report.interleavings?.runs} interleavings, coverage ${report.coverage?.reached}/${report.coverage?.states}: ${failed.length === 0 ? 'every property passes' : 'NOT ALL PASS'}`,
  );
  for (const p of failed) {
    failures++;
    say(
      `  ${p.status.toUpperCase()} ${p.id}: ${p.reason}${p.counterexample ? ` (replay: --seed ${p.counterexample.seed} --path ${p.counterexample.path})` : ''}`,
    );
  }
} finally {
  await server.close();
}
// The exact catalog with every seed (npm test checks one seed per mutant): each mutant fails
// exactly its `breaks` at the default run count. A few mutants at a time: they mostly wait.
const checks = mutants.flatMap((mutant) => catalogSeeds.map((seed) => ({ mutant, seed })));
let next = 0;
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (let check = checks[next++]; check !== undefined; check = checks[next++]) {
      const { failed } = await findBroken(check.mutant, check.seed);
      const expected = [...check.mutant.breaks].sort();
      if (JSON.stringify(failed) === JSON.stringify(expected)) continue;
      failures++;
      say(`  mutant ${check.mutant.name}, seed ${check.seed}: fails [${failed.join(', ')}], breaks [${expected.join(', ')}]`);
    }
  }),
);
say(`mutant catalog: ${checks.length} checks (${mutants.length} mutants x seeds ${catalogSeeds.join(', ')}) at the default run count`);

process.exitCode = failures > 0 ? 1 : 0;
