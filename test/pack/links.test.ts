/**
 * Every link in a shipped Markdown file resolves for the user who installed the package: a relative
 * link names a file (or a folder holding one) in the packed file list (`npm pack --dry-run --json`),
 * and a link to the repository uses the URL package.json names as `repository`; a link to a heading
 * of a shipped Markdown file (`page.md#anchor`, or `#anchor` in the same file) names one it has, as
 * GitHub and npm derive anchors. Nothing else is fetched: web links are not followed.
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

/** The anchors of a Markdown file's headings, as GitHub makes them (a repeated one gets -1, -2...), and of its `id`/`name` attributes. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.*)$/gm)) {
    const slug = heading!
      .trim()
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const [, id] of markdown.matchAll(/\b(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
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
        const [path, anchor] = [decodeURIComponent(target.split('#')[0]!), target.split('#')[1]];
        const resolved = path === '' ? doc : posix.normalize(posix.join(dirname(doc), path)).replace(/\/$/, '');
        const inside = shipped.has(resolved) || files.some((f) => f.startsWith(`${resolved}/`));
        if (resolved.startsWith('..') || !inside) broken.push(`${doc}: ${target}`);
        else if (anchor !== undefined && resolved.endsWith('.md') && !headingAnchors(readFileSync(join(root, resolved), 'utf8')).has(anchor))
          broken.push(`${doc}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('anchors are read as GitHub makes them', () => {
    const page = '# A `code`: Title\n## Same\n## Same\n```\n## not a heading\n```\n## [Linked](x.md) heading\n<a id="here"></a>\n';
    expect([...headingAnchors(page)]).toEqual(['a-code-title', 'same', 'same-1', 'linked-heading', 'here']);
  });

  test('the link reader finds links and leaves code alone', () => {
    expect(linkTargets('see [a](b.md#x) and ![i](img.png "t") and `[c](d)`\n```\n[e](f)\n```\n<a href="g.md">g</a>')).toEqual(['b.md#x', 'img.png', 'g.md']);
  });
});
