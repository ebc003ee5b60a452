/**
 * Flag parsing for the subcommands, on node:util's parseArgs, with errors as UsageError.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { failOnLevels, type FailOn } from '../../properties/definition.js';
import { UsageError } from './command.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The parsed values: a string or boolean per declared flag (a list of strings for a repeatable one), absent when not given. */
export type Flags<O extends Options> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : O[K] extends { multiple: true } ? string[] : string;
};

/**
 * Parses `argv` against `options`; unknown flags, positionals and missing values are usage errors.
 * A negative number after a flag that takes a value is that flag's value (`--runs -5`), so the
 * flag's own check can say what is wrong with it.
 */
export function parseFlags<O extends Options>(argv: string[], options: O): Flags<O> {
  // Rejoin each negative number with its flag, as `--flag=-5`.
  const joined: string[] = [];
  for (const [i, arg] of argv.entries()) {
    const previous = argv[i - 1];
    if (
      previous?.startsWith('--') &&
      !previous.includes('=') &&
      options[previous.slice(2)]?.type === 'string' &&
      /^-\d/.test(arg) &&
      joined.at(-1) === previous
    ) {
      joined[joined.length - 1] = `${previous}=${arg}`;
    } else joined.push(arg);
  }
  // A value after a flag that takes none: say so, and where a report goes (`--json FILE`).
  for (const [i, arg] of joined.entries()) {
    const previous = joined[i - 1];
    if (!previous?.startsWith('--') || previous.includes('=') || arg.startsWith('-') || options[previous.slice(2)]?.type !== 'boolean') continue;
    const where = previous === '--json' && options.out !== undefined ? ': --json prints the JSON report on stdout; --out FILE writes it to a file' : '';
    throw new UsageError(`${previous} takes no value, got ${JSON.stringify(arg)}${where}`);
  }
  try {
    return parseArgs({ args: joined, options, strict: true, allowPositionals: false }).values as Flags<O>;
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const flag = /'(-[^' ]+)/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown flag ${flag ?? message}`, { notAFlag: true });
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      throw new UsageError(`unexpected argument ${JSON.stringify(/'([^']*)'/.exec(message)?.[1] ?? '')}: every value follows its flag`, { notAFlag: true });
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag !== undefined) {
      throw new UsageError(
        /does not take/.test(message)
          ? `${flag} takes no value`
          : `${flag} needs a value${/ambiguous/.test(message) ? ` (a value starting with "-" is written ${flag}=-VALUE)` : ''}`,
      );
    }
    throw new UsageError(message.split('\n')[0]!);
  }
}

/** An integer flag from `min` to `max`, or a usage error naming the flag and the range. */
export function integerFlag(name: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER, min = 0): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value.trim()) || Number(value) > max || Number(value) < min) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** `--fail-on` (of `check` and `check-client`): one of the thresholds, else a usage error naming them. */
export function parseFailOn(text: string | undefined): FailOn {
  if (text === undefined) return 'policy';
  // Any case: reports print levels as [MUST], [SHOULD], [POLICY].
  const level = text.toLowerCase();
  if (!(failOnLevels as readonly string[]).includes(level))
    throw new UsageError(`--fail-on must be one of ${failOnLevels.join(', ')}, got ${JSON.stringify(text)}`);
  return level as FailOn;
}
