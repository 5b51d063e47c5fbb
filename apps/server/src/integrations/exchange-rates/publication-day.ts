/**
 * When ECB reference rates exist (ADR 036). The ECB publishes the euro reference rates on TARGET working days at
 * about 16:00 CET; a rate dated D counts as published at 16:00 Frankfurt time on D.
 */

const FRANKFURT = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The publication hour, Frankfurt time. */
export const PUBLICATION_HOUR = 16;

const DAY_MS = 24 * 60 * 60 * 1000;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The latest date whose rate may have been published by `at`: Frankfurt's date when it is 16:00 or later there, else
 * the day before. Only a date bound: on a weekend or holiday no rate of that date exists, and the latest rate on or
 * before it applies.
 */
export function latestPublicationDate(at: Date): string {
  const parts = Object.fromEntries(FRANKFURT.formatToParts(at).map((part) => [part.type, part.value]));
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  return Number(parts.hour) >= PUBLICATION_HOUR ? date : addDays(date, -1);
}

/** Easter Sunday of a year (the Gregorian computus, anonymous algorithm), 'YYYY-MM-DD'. */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Whether `date` is a TARGET working day: not a Saturday or Sunday, New Year's Day, Good Friday, Easter Monday,
 * 1 May, 25 or 26 December (the TARGET2 closing days, on which the ECB publishes no reference rates).
 */
export function isTargetWorkingDay(date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const monthDay = date.slice(5);
  if (['01-01', '05-01', '12-25', '12-26'].includes(monthDay)) return false;
  const easter = easterSunday(Number(date.slice(0, 4)));
  return date !== addDays(easter, -2) && date !== addDays(easter, 1);
}

/** The latest TARGET working day on or before `date`. */
export function targetWorkingDayOnOrBefore(date: string): string {
  let day = date;
  while (!isTargetWorkingDay(day)) day = addDays(day, -1);
  return day;
}
