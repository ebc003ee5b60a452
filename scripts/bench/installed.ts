/**
 * The CLI as a user gets it: the package packed and installed into an empty folder (as
 * test/pack/install.test.ts does), then `--help` timed (target under 0.5 s: no TypeScript compiled
 * at start), and a default `check` of the reference server run by the installed package and from
 * the sources (ts-node), side by side, alternating, against one server.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createReferenceServer } from '../../src/reference/index.js';
import { runBounded, type BoundedRun } from '../run-bounded.js';
import type { BenchSection } from './section.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs a command to its end (bounded). */
function run(command: string, args: string[], cwd: string, timeoutMs = 600_000): Promise<BoundedRun> {
  return runBounded(command, args, { cwd, timeoutMs });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export default async function installedBench(): Promise<BenchSection> {
  const lines: string[] = [];
  const work = mkdtempSync(join(tmpdir(), 'mcp-resume-spec-bench-'));
  try {
    // Pack the build there is (npm test's global setup makes one); build only when there is none.
    const built = existsSync(join(root, 'dist', 'src', 'cli', 'run.js'));
    const packed = await run('npm', ['pack', ...(built ? ['--ignore-scripts'] : []), '--pack-destination', work], root);
    if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr.slice(-300)}`);
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'))!;
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball)], app);
    if (installed.code !== 0) throw new Error(`npm install failed: ${installed.stderr.slice(-300)}`);
    lines.push(`packed ${built ? 'the existing dist/' : 'a fresh build'} in ${s(packed.ms)}, installed into an empty folder in ${s(installed.ms)}`);

    const bin = join(app, 'node_modules', 'mcp-resume-spec', 'bin', 'mcp-resume-spec.js');
    const helps: number[] = [];
    const sourceHelps: number[] = [];
    for (let i = 0; i < 5; i++) {
      helps.push((await run(process.execPath, [bin, '--help'], app)).ms);
      sourceHelps.push((await run(process.execPath, ['bin/run-ts.js', 'src/cli/run.ts', '--help'], root)).ms);
    }
    const npx = await run('npx', ['--no', '--', 'mcp-resume-spec', '--help'], app);
    lines.push(
      `--help, installed: ${s(median(helps))} median of 5 (target under 0.50 s); through npx ${s(npx.ms)}; from the sources (ts-node) ${s(median(sourceHelps))} (${(median(sourceHelps) / median(helps)).toFixed(1)}x)`,
    );

    const server = await createReferenceServer();
    try {
      const url = `${server.url}/mcp`;
      const times = { installed: [] as number[], source: [] as number[] };
      for (let round = 0; round < 2; round++) {
        const args = ['check', '--url', url, '--seed', String(20261201 + round), '--quiet'];
        const a = await run(process.execPath, [bin, ...args], app);
        const b = await run(process.execPath, ['bin/run-ts.js', 'src/cli/run.ts', ...args], root);
        if (a.code !== 0 || b.code !== 0)
          throw new Error(`a default check of the reference exited ${a.code} (installed) and ${b.code} (sources): ${(a.stderr + b.stderr).slice(-300)}`);
        times.installed.push(a.ms);
        times.source.push(b.ms);
      }
      lines.push(
        `default check of the reference (200 interleavings, coverage), 2 rounds alternating: installed ${times.installed.map(s).join(', ')}; from the sources ${times.source.map(s).join(', ')} (sources/installed ${(median(times.source) / median(times.installed)).toFixed(2)}x)`,
      );
    } finally {
      await server.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { title: 'the installed CLI (packed, installed into an empty folder)', lines };
}
