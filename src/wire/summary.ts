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

/** Node's error codes by what failed. */
const labels: Array<[RegExp, string]> = [
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)$/, 'DNS lookup failed'],
  [/^ECONNREFUSED$/, 'connection refused'],
  [/^(EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/, 'host unreachable'],
  [/^(ECONNRESET|EPIPE|ECONNABORTED)$/, 'connection reset'],
  [/^(ETIMEDOUT|ESOCKETTIMEDOUT)$/, 'timeout'],
  [/^(ERR_TLS_\w+|ERR_SSL_\w+|EPROTO|CERT_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)$/, 'TLS error'],
];

/** A label for a failure that says what failed: from the socket or parser error's `code`, else the recorded reason in words. */
export function failureLabel(reason: FailureReason, code: string | undefined): string {
  if (code !== undefined) for (const [codes, label] of labels) if (codes.test(code)) return label;
  return reason.replace(/-/g, ' ');
}
