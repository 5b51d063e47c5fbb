/**
 * §5 domain fields: turning what a person typed or pasted ('HTTPS://www.München.de.:8443/shop?x=1') into a host.
 * Runs in the browser and on the server alike, so it relies on the WHATWG URL parser (a global in both), not on
 * 'node:url'. Every function accepts any string and never throws (ADR 008).
 */

/**
 * 'http://' or 'https://' (any case, any number of slashes or backslashes, as the WHATWG parser allows), repeated
 * when a person pasted a URL after a scheme they had already typed.
 */
const HTTP_SCHEMES = /^(?:https?:[/\\]*)+/i;
/** Any other scheme with an authority ('ftp://', 'file://'): not a website. */
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** Where the host ends: a path, a query, a fragment (or a backslash, which the WHATWG parser reads as '/'). */
const AFTER_HOST = /[/?#\\]/;
/** Whitespace or a control character in the host text: never part of a domain. */
const SPACE_OR_CONTROL = /[\s\p{Cc}]/u;
/** One DNS label in ASCII: letters, digits and hyphens, 1–63 characters, no hyphen at either end. */
export const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** The longest host name DNS carries, without the trailing dot. */
export const MAX_HOSTNAME_LENGTH = 253;

/** Trimmed input without its http(s) scheme; another scheme is split off and named. */
function withoutScheme(input: string): { rest: string } | { scheme: string; rest: string } {
  const trimmed = String(input).trim();
  const rest = trimmed.replace(HTTP_SCHEMES, '');
  const other = OTHER_SCHEME.exec(rest);
  return other ? { scheme: other[0], rest: rest.slice(other[0].length) } : { rest };
}

/**
 * The host as the person typed it, for messages: trimmed and lowercased, without the http(s) scheme, path, query,
 * fragment, a port (0–65535) or one trailing dot. Unicode stays Unicode. '' when the text holds no host at all
 * ('', 'https://', '///', '?x=1'). Another scheme is kept ('ftp://example.com').
 */
export function typedHost(input: string): string {
  const parts = withoutScheme(input);
  let host = (parts.rest.split(AFTER_HOST)[0] ?? '').toLowerCase();
  if ('scheme' in parts) return `${parts.scheme.toLowerCase()}${host}`;
  const port = /:(\d*)$/.exec(host);
  if (port && Number(port[1] || 0) <= 65_535 && (!host.startsWith('[') || host[port.index - 1] === ']')) {
    host = host.slice(0, port.index);
  }
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** True for an ASCII DNS name: LDH labels of 1–63 characters, at most 253 characters in all. */
export function isDnsHostname(host: string): boolean {
  return host.length <= MAX_HOSTNAME_LENGTH && host.split('.').every((label) => DNS_LABEL.test(label));
}

/**
 * The ASCII (punycode) host name in what the person typed, or null when there is none. Unicode is converted with
 * the WHATWG host parser (UTS #46 mapping, as `domainToASCII`: 'München.de' → 'xn--mnchen-3ya.de', full-width
 * letters → ASCII); an http(s) scheme, a port, a path, a query, a fragment and one trailing dot are dropped.
 * Refused: other schemes, credentials ('user@host'), whitespace or control characters, IP addresses, invalid
 * punycode, and anything that is not a DNS name of LDH labels (no '_', no empty label, no hyphen at a label's end).
 */
export function toAsciiHostname(input: string): string | null {
  const parts = withoutScheme(input);
  const host = parts.rest.split(AFTER_HOST)[0] ?? '';
  // The URL parser would silently drop a tab or newline inside the host; a domain never holds one.
  if ('scheme' in parts || host === '' || SPACE_OR_CONTROL.test(host)) return null;
  let url: URL;
  try {
    url = new URL(`http://${parts.rest}`);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '') return null;
  const hostname = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  // The parser turns IPv4 forms ('0x7f.1') into dotted numbers, whose last label is all digits; no public suffix is.
  if (/(?:^|\.)\d+$/.test(hostname)) return null;
  return hostname !== '' && isDnsHostname(hostname) ? hostname : null;
}
