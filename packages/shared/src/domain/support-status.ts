/**
 * §4 "Support status" computed from the user (§3 "User fields read":
 * has_lifetime_support is true, false or a date string; orders carry created_at).
 * §9: support is active for 1 year after the newest order when no flag is set.
 */

export type SupportStatus =
  { kind: 'lifetime' } | { kind: 'active'; until: Date } | { kind: 'expired'; until?: Date } | { kind: 'unknown' };

export interface SupportUser {
  has_lifetime_support?: boolean | string | null;
  orders?: readonly { created_at: string }[] | null;
}

/**
 * A Date for the text, or null when it is not a valid date. JS date parsing is lenient
 * ('1' parses as 2001), so a 4-digit year is required and a leading YYYY-MM-DD must be
 * a real calendar day ('2027-02-31' is invalid rather than rolling over to March).
 */
function parseDate(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!/\d{4}/.test(text)) return null;
  const ymd = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (ymd) {
    const [year, month, day] = [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])];
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return null;
  }
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** §4: active strictly before `until`, expired from that instant on. */
function statusUntil(until: Date, now: Date): SupportStatus {
  return now.getTime() < until.getTime() ? { kind: 'active', until } : { kind: 'expired', until };
}

/** §9: the newest valid order date plus one calendar year (UTC), or null. */
function supportEndFromOrders(orders: unknown): Date | null {
  if (!Array.isArray(orders)) return null;
  let newest: number | null = null;
  for (const order of orders as unknown[]) {
    const createdAt =
      typeof order === 'object' && order !== null ? parseDate((order as { created_at?: unknown }).created_at) : null;
    if (createdAt && (newest === null || createdAt.getTime() > newest)) newest = createdAt.getTime();
  }
  if (newest === null) return null;
  const end = new Date(newest);
  end.setUTCFullYear(end.getUTCFullYear() + 1);
  return Number.isNaN(end.getTime()) ? null : end;
}

/**
 * §4 Support status: true → lifetime; a date string → active until that date, then
 * expired (an invalid date → unknown); false → expired; unset (undefined or null) →
 * newest order date + 1 year (no valid order → unknown); anything else → unknown.
 */
export function computeSupportStatus(user: SupportUser, now: Date): SupportStatus {
  const flag: unknown = user.has_lifetime_support;
  if (flag === true) return { kind: 'lifetime' };
  if (flag === false) return { kind: 'expired' };
  if (typeof flag === 'string') {
    const until = parseDate(flag);
    return until ? statusUntil(until, now) : { kind: 'unknown' };
  }
  if (flag === undefined || flag === null) {
    const until = supportEndFromOrders(user.orders);
    return until ? statusUntil(until, now) : { kind: 'unknown' };
  }
  return { kind: 'unknown' };
}

/** YYYY-MM-DD in UTC (years padded to 4 digits; no ISO extended-year sign). */
export function formatUtcDate(date: Date): string {
  const pad = (n: number, width: number): string => String(n).padStart(width, '0');
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
}

/** A short English label for a support status (dates as YYYY-MM-DD in UTC). */
export function describeSupportStatus(status: SupportStatus): string {
  switch (status.kind) {
    case 'lifetime':
      return 'Lifetime support';
    case 'active':
      return `Support active until ${formatUtcDate(status.until)}`;
    case 'expired':
      return status.until ? `Support expired on ${formatUtcDate(status.until)}` : 'Support expired';
    case 'unknown':
      return 'Support status unknown';
  }
}
