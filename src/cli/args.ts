/**
 * Flag parsing for the subcommands, on node:util's parseArgs, with errors as UsageError.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The parsed values: a string or boolean per declared flag, absent when not given. */
export type Flags<O extends Options> = { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };

/** Parses `argv` against `options`; unknown flags and positionals are usage errors. */
export function parseFlags<O extends Options>(argv: string[], options: O): Flags<O> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Flags<O>;
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
}

/** A non-negative integer flag, or a usage error naming the flag. */
export function integerFlag(name: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from 0 to ${max}, got "${value}"`);
  }
  return Number(value);
}
