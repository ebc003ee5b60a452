/**
 * Every link in a shipped Markdown file resolves for the user who installed the package: a relative
 * link names a file (or a folder holding one) in the packed file list (`npm pack --dry-run --json`),
 * and a link to the repository uses the URL package.json names as `repository`. Nothing else is
 * fetched: web links are not followed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { repository?: { type: string; url: string }; homepage?: string };

/** The files `npm pack` would ship (scripts not run: dist/ is the one the global setup built). */
function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
}

/** The targets of a Markdown file's links: inline `[text](target)`, images, and `href="..."`, code spans and blocks left out. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const href = [...prose.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
  return [...inline, ...href];
}

describe('links in the shipped docs', () => {
  const files = packedFiles();
  const shipped = new Set(files);
  const repository = pkg.repository?.url.replace(/^git\+/, '').replace(/\.git$/, '');

  test('package.json names the repository and a homepage', () => {
    expect(repository).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(pkg.homepage).toMatch(new RegExp(`^${repository!.replace(/[.]/g, '\\.')}(#|/|$)`));
  });

  test('every relative link resolves inside the package; every link into the repository uses its URL', () => {
    const docs = files.filter((f) => f.endsWith('.md'));
    expect(docs).toContain('README.md');
    expect(docs).toContain('docs/contract.md');
    const broken: string[] = [];
    for (const doc of docs) {
      for (const target of linkTargets(readFileSync(join(root, doc), 'utf8'))) {
        if (/^(https?:|mailto:)/.test(target)) {
          if (/^https:\/\/github\.com\/[^/]+\/mcp-resume-spec\b/.test(target) && !target.startsWith(`${repository}/`) && target !== repository)
            broken.push(`${doc}: ${target} (not ${repository})`);
          continue;
        }
        const path = decodeURIComponent(target.split('#')[0]!);
        if (path === '') continue; // an anchor in the same file
        const resolved = posix.normalize(posix.join(dirname(doc), path)).replace(/\/$/, '');
        const inside = shipped.has(resolved) || files.some((f) => f.startsWith(`${resolved}/`));
        if (resolved.startsWith('..') || !inside) broken.push(`${doc}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('the link reader finds links and leaves code alone', () => {
    expect(linkTargets('see [a](b.md#x) and ![i](img.png "t") and `[c](d)`\n```\n[e](f)\n```\n<a href="g.md">g</a>')).toEqual(['b.md#x', 'img.png', 'g.md']);
  });
});
