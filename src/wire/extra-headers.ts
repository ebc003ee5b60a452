/**
 * Headers a user adds to every request of the checking client (`check --header`), e.g. a bearer
 * token for a server behind a gate: which are allowed, and their parsing from `Name: value`.
 */

/** Headers the checking client sets itself: the protocol's and HTTP's framing. Giving one would change what is checked. */
export const clientOwnedHeaders: readonly string[] = Object.freeze([
  'accept',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'host',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

// RFC 9110's token: the characters a field name may use.
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** What is wrong with sending header `name` with `value` on every request, if anything. */
export function extraHeaderProblem(name: string, value: string): string | undefined {
  if (!token.test(name)) return `${JSON.stringify(name)} is not a header name`;
  if (clientOwnedHeaders.includes(name.toLowerCase())) return `${name} is set by the checking client itself (${clientOwnedHeaders.join(', ')} are)`;
  // A CR or LF would end the header early; other control characters but tab are refused by Node's HTTP client
  // (the C1 range is not: to HTTP it is obs-text).
  if (/(?![\t\x80-\x9f])\p{Cc}/u.test(value)) return `the value of ${name} has a control character`;
  // Header values are bytes: Node sends Latin-1 and refuses anything beyond it.
  if (/[\u0100-\uffff]/.test(value)) return `the value of ${name} has a character outside Latin-1`;
  return undefined;
}

/**
 * Parses `Name: value` (as curl's `-H` takes it) into a lower-cased name and its value, trimmed.
 *
 * @throws RangeError saying what is wrong
 */
export function parseExtraHeader(text: string): [name: string, value: string] {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new RangeError(`${JSON.stringify(text)} is not "Name: value"`);
  const name = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  const problem = extraHeaderProblem(name, value);
  if (problem) throw new RangeError(problem);
  return [name.toLowerCase(), value];
}
