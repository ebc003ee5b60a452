/**
 * `npm run bench`: measures and prints figures and ratios (tests never assert durations).
 * Sections run in order; a section whose module is missing or fails is reported and skipped.
 */
import type { BenchSection } from './bench/section.js';

const sections: Array<[string, () => Promise<{ default: () => Promise<BenchSection> }>]> = [
  ['model', () => import('./bench/model.js')],
  ['reference server', () => import('./bench/reference-server.js')],
  ['session flood', () => import('./bench/session-flood.js')],
  ['property suite', () => import('./bench/suite.js')],
  ['client checker', () => import('./bench/clients.js')],
  ['installed CLI', () => import('./bench/installed.js')],
];

const only = process.argv.slice(2);
for (const [name, load] of sections) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  try {
    const section = await (await load()).default();
    console.log(`\n== ${section.title}`);
    for (const line of section.lines) console.log(`   ${line}`);
  } catch (error) {
    console.log(`\n== ${name}: could not run: ${(error as Error).message.split('\n')[0]}`);
  }
}
console.log(`\npeak RSS of the whole run: ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
