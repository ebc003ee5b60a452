/**
 * The package's own version, read at run time from its package.json, which sits above this file
 * both in the sources (`src/`) and in the build (`dist/src/`), at a different depth.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest package.json above this module named `mcp-resume-spec`, parsed. */
function ownManifest(): { name: string; version: string } {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) {
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'mcp-resume-spec' && typeof manifest.version === 'string') return { name: manifest.name, version: manifest.version };
    }
    if (dirname(dir) === dir) throw new Error(`the package.json of mcp-resume-spec was not found above ${fileURLToPath(import.meta.url)}`);
  }
}

let version: string | undefined;

/** This package's version, e.g. `0.1.0` (read once). */
export function toolVersion(): string {
  version ??= ownManifest().version;
  return version;
}
