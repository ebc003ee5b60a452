/**
 * Builds `dist/` once before any test file runs: the CLI tests run the compiled CLI, as users do
 * (and as `npx mcp-resume-spec` does), instead of transpiling the sources in every child process;
 * the pack test packs this build (`npm pack --ignore-scripts`) rather than building again, and the
 * replicas example's processes start compiled. It is `tsconfig.build.json` plus `examples/`, which
 * the package's `files` leave out.
 * `--noCheck`: `npm test` has type-checked every file before vitest starts; `prepack` checks too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export function setup(): void {
  // Built aside, then swapped in: a fresh tree (nothing removed from src/ lingers, as with
  // `npm run build`), and another test run reading dist/ meanwhile never finds it half-built.
  const staging = `dist.building-${process.pid}`;
  rmSync(`${root}${staging}`, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.test-build.json', '--noCheck', '--outDir', staging], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (build.status !== 0) {
    rmSync(`${root}${staging}`, { recursive: true, force: true });
    throw new Error(
      `the build for the tests failed (tsc -p tsconfig.test-build.json):\n${build.stdout}${build.stderr}${build.error ? String(build.error) : ''}`,
    );
  }
  // The old build is moved aside, not removed in place, so that dist/ is missing only between two
  // renames; a run in this checkout that swapped its own build in meanwhile is moved aside in turn.
  const aside = `${root}dist.old-${process.pid}`;
  rmSync(aside, { recursive: true, force: true }); // a crashed run's, under a reused pid
  for (let attempt = 1; ; attempt++) {
    try {
      renameSync(`${root}dist`, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    try {
      renameSync(`${root}${staging}`, `${root}dist`);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || attempt === 5) {
        // Leaves the old build in place rather than none.
        if (!existsSync(`${root}dist`) && existsSync(aside)) renameSync(aside, `${root}dist`);
        throw error;
      }
      rmSync(aside, { recursive: true, force: true });
    }
  }
  rmSync(aside, { recursive: true, force: true });
}
