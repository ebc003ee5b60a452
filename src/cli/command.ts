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
  /** A flag the command does not have, or a value where a flag belongs: its --help lists the flags. */
  readonly notAFlag: boolean;

  constructor(message: string, { notAFlag = false }: { notAFlag?: boolean } = {}) {
    super(message);
    this.notAFlag = notAFlag;
  }
}
