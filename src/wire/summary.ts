/**
 * Short, honest descriptions of what went wrong on the wire, for reasons and notes: a response
 * body summarised (status, content type, size, first line) rather than dumped, and a failed
 * connection labelled by what failed (DNS, refused, reset, timeout, TLS), read from the error code.
 */
import type { FailureReason } from './types.js';

const firstLineMax = 80;

/** `HTTP 404 (application/json, 52 B): "{\"error\":…"`: the first non-empty line (an HTML page's title), truncated. */
export function summarizeBody(status: number, contentType: string | undefined, text: string): string {
  const size = Buffer.byteLength(text);
  const sizeWords = size >= 1024 ? `${(size / 1024).toFixed(1)} kB` : `${size} B`;
  const type = contentType?.split(';')[0]?.trim();
  const meta = [type || undefined, size > 0 ? sizeWords : 'empty body'].filter(Boolean).join(', ');
  // An HTML error page's first line is its doctype: its title says more.
  const title = type === 'text/html' ? /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim() : undefined;
  const line =
    title ||
    (text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== '') ??
      '');
  const first = line.length > firstLineMax ? `${line.slice(0, firstLineMax)}…` : line;
  return `HTTP ${status} (${meta})${first ? `: ${JSON.stringify(first)}` : ''}`;
}

/** Error codes by what failed, matched in a failure's detail (Node's codes, e.g. `getaddrinfo ENOTFOUND host`). */
const labels: Array<[RegExp, string]> = [
  [/\b(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)\b/, 'DNS lookup failed'],
  [/\bECONNREFUSED\b/, 'connection refused'],
  [/\b(EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)\b/, 'host unreachable'],
  [/\b(ECONNRESET|EPIPE|ECONNABORTED)\b/, 'connection reset'],
  [/\b(ETIMEDOUT|ESOCKETTIMEDOUT)\b/, 'timeout'],
  [/\b(ERR_TLS_\w+|ERR_SSL_\w+|EPROTO|CERT_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\b/, 'TLS error'],
];

/** A label for a failure that says what failed: from the error code in `detail`, else the recorded reason in words. */
export function failureLabel(reason: FailureReason, detail: string): string {
  for (const [code, label] of labels) if (code.test(detail)) return label;
  return reason.replace(/-/g, ' ');
}
