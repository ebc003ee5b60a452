/** A CLI subcommand: parses its own arguments and returns the exit status. */
export interface Command {
  name: string;
  /** One line for `mcp-resume-spec --help`. */
  summary: string;
  /** Full usage text. */
  usage: string;
  run(argv: string[]): Promise<number>;
}

/** A bad flag or argument: the CLI prints the message on one line and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
