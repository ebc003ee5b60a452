// H-nofp scratch: run the suite against variants and print statuses (deleted before the report).
import { runSuite } from '../src/suite/run-suite.js';
const names = process.argv.slice(2);
for (const name of names) {
  const mod = (await import(`../src/candidates/variants/${name}.js`)) as { default: () => Promise<{ url: string; stop(): Promise<void> }> };
  const running = await mod.default();
  const t = performance.now();
  try {
    const report = await runSuite({ name, url: running.url }, { runs: Number(process.env.RUNS ?? 10), seed: Number(process.env.SEED ?? 1), timeoutMs: 2000 });
    console.log(`== ${name} (${Math.round(performance.now() - t)} ms) resumption=${JSON.stringify((report.abilities as any)?.resumption)} coverage=${JSON.stringify(report.coverage)}`);
    for (const p of report.properties) {
      console.log(`  ${p.status.padEnd(4)} ${p.id.padEnd(26)} ${p.reason?.slice(0, 300)}`);
      if (p.status === 'fail' && process.env.STEPS) console.log(JSON.stringify(p.counterexample, null, 1).slice(0, 4000));
    }
  } finally {
    await running.stop();
  }
}
