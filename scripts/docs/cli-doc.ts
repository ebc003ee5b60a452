/**
 * docs/cli.md: the command-line reference, made of the CLI's own help texts (`mcp-resume-spec
 * --help` and each command's `--help`), so that it says what the commands say and cannot drift
 * from them. The commands are imported, not spawned: their `usage` is what `--help` prints.
 */
import { help, loaders } from '../../src/cli/main.js';
import { fence, generatedBanner } from './markdown.js';

/** The whole of docs/cli.md. */
export async function cliDoc(): Promise<string> {
  const out = [
    generatedBanner('scripts/docs.ts'),
    '',
    '# The command line: `mcp-resume-spec`',
    '',
    "Every block below is what the command prints for `--help`, word for word. How to read a check's reports,",
    'exit statuses, baselines, levels and a CI job: [usage.md](usage.md).',
    '',
    '```sh',
    'npx mcp-resume-spec --help              # in a project that installed it (npm install mcp-resume-spec)',
    'npm run cli -- check --help             # in a clone of this repository, from the sources',
    '```',
    '',
    fence('text', help()),
    '',
  ];
  for (const [name, load] of Object.entries(loaders)) {
    const command = await load();
    out.push(`## \`mcp-resume-spec ${name}\``, '', fence('text', command.usage), '');
  }
  return out.join('\n');
}
