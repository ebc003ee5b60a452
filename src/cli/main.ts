/**
 * `mcp-resume-spec <command> [flags]`. Exit status: 0 all good, 1 a property is violated,
 * 2 the command could not run (with a one-line reason on stderr).
 */
import { UsageError, type Command } from './command.js';
import { toolVersion } from '../version.js';

/** The commands, by name, each loaded when run (the loaded module's `usage` is its `--help`). */
export const loaders: Record<string, () => Promise<Command>> = {
  explore: async () => (await import('./explore.js')).exploreCommand,
  serve: async () => (await import('./serve.js')).serveCommand,
  check: async () => (await import('./check.js')).checkCommand,
  'check-client': async () => (await import('./check-client.js')).checkClientCommand,
  demo: async () => (await import('./demo.js')).demoCommand,
};

const summaries: Record<string, string> = {
  explore: 'explore the model exhaustively within bounds and print every violation with its trace',
  serve: 'serve the model as a real MCP server over HTTP (both transports)',
  check: 'check a candidate server over HTTP and report which properties it breaks',
  'check-client': 'check an MCP client against the reference server with injected faults',
  demo: "the main job, from a clone of the repository (npm start; it needs the devDependencies): the model's verdicts, then servers and clients checked",
};

/** `mcp-resume-spec --help`: the commands, one line each. */
export function help(): string {
  const lines = ['usage: mcp-resume-spec <command> [flags]', '', 'commands:'];
  for (const [name, summary] of Object.entries(summaries)) lines.push(`  ${name.padEnd(12)} ${summary}`);
  lines.push('', "run 'mcp-resume-spec <command> --help' for a command's flags; --version (-v) prints the version");
  return lines.join('\n');
}

/** The line a usage error of command `name` is told in; for a flag the command does not have, where its flags are listed. */
export function usageErrorLine(name: string, error: UsageError | RangeError): string {
  const hint = error instanceof UsageError && error.notAFlag ? `; run 'mcp-resume-spec ${name} --help' for its flags` : '';
  return `mcp-resume-spec ${name}: ${error.message}${hint}`;
}

/** Runs the CLI and returns the exit status. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    console.log(help());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    console.log(toolVersion());
    return 0;
  }
  const load = loaders[name];
  if (!load) {
    console.error(`mcp-resume-spec: unknown command "${name}"; commands: ${Object.keys(loaders).join(', ')}`);
    return 2;
  }
  let command: Command;
  try {
    command = await load();
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND';
    const hint = missing && name === 'demo' ? ' (demo runs from a clone of the repository, with its devDependencies: npm start)' : '';
    console.error(`mcp-resume-spec: the ${name} command is not available: ${(error as Error).message.split('\n')[0]}${hint}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.usage);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError || error instanceof RangeError) {
      console.error(usageErrorLine(name, error));
      return 2;
    }
    console.error(`mcp-resume-spec ${name}: ${(error as Error).message?.split('\n')[0] ?? String(error)}`);
    return 2;
  }
}
