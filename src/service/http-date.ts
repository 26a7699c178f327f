/**
 * A strict reader of RFC 9110's HTTP-date (§5.6.7): exactly its three forms, nothing `Date.parse` would also
 * accept. `Date.parse` reads "Mar 5" as a date in 2001 and rolls "31 Feb" over into March, so a lenient reader
 * turns a broken header into a zero or a wrong wait.
 *
 *   IMF-fixdate  Sun, 06 Nov 1994 08:49:37 GMT
 *   rfc850-date  Sunday, 06-Nov-94 08:49:37 GMT   (obsolete; two-digit year)
 *   asctime-date Sun Nov  6 08:49:37 1994         (obsolete; no zone, always GMT)
 *
 * Names are case-sensitive (the grammar writes them as %s"…"). A date that does not exist (31 Feb, hour 24) is
 * refused, and so is a day name that does not match the date: the sender's clock or formatter is broken and we
 * cannot tell which half is right, so the caller falls back to its own backoff rather than guess.
 */

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const LONG_DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const DAY = DAY_NAMES.join('|');
const LONG_DAY = LONG_DAY_NAMES.join('|');
const MONTH = MONTHS.join('|');
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

const IMF_FIXDATE = new RegExp(`^(${DAY}), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(${LONG_DAY}), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^(${DAY}) (${MONTH}) (\\d{2}| \\d) ${TIME} (\\d{4})$`);

interface DateFields {
  dayName: number;
  day: number;
  month: number;
  year: number;
  hour: number;
  minute: number;
  second: number;
}

/** Milliseconds since the epoch for an HTTP-date, or undefined when `value` is not exactly one of its forms. */
export function parseHttpDate(value: string, now: number = Date.now()): number | undefined {
  const fields = matchFields(value, now);
  return fields === undefined ? undefined : toEpochMs(fields);
}

function matchFields(value: string, now: number): DateFields | undefined {
  let m = IMF_FIXDATE.exec(value);
  if (m) return fields(DAY_NAMES, m[1], m[2], m[3], Number(m[4]), m[5], m[6], m[7]);
  m = RFC850_DATE.exec(value);
  if (m) return fields(LONG_DAY_NAMES, m[1], m[2], m[3], expandTwoDigitYear(Number(m[4]), now), m[5], m[6], m[7]);
  m = ASCTIME_DATE.exec(value);
  if (m) return fields(DAY_NAMES, m[1], m[3], m[2], Number(m[7]), m[4], m[5], m[6]);
  return undefined;
}

// The regular expressions guarantee every group below matched, so the non-null reads are safe.
function fields(
  names: readonly string[],
  dayName: string | undefined,
  day: string | undefined,
  month: string | undefined,
  year: number,
  hour: string | undefined,
  minute: string | undefined,
  second: string | undefined,
): DateFields {
  return {
    dayName: names.indexOf(dayName ?? ''),
    day: Number(day),
    month: MONTHS.indexOf((month ?? '') as (typeof MONTHS)[number]),
    year,
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
  };
}

/**
 * RFC 9110 §5.6.7: a two-digit year that "appears to be more than 50 years in the future" is the most recent
 * past year with the same last two digits.
 */
function expandTwoDigitYear(twoDigits: number, now: number): number {
  const thisYear = new Date(now).getUTCFullYear();
  let year = thisYear - (thisYear % 100) + twoDigits;
  if (year > thisYear + 50) year -= 100;
  return year;
}

function toEpochMs(f: DateFields): number | undefined {
  if (f.hour > 23 || f.minute > 59 || f.second > 60 || f.day < 1) return undefined;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  const midnight = new Date(0);
  midnight.setUTCFullYear(f.year, f.month, f.day);
  // It also rolls 31 Feb over into March: a date that does not round-trip does not exist.
  if (midnight.getUTCFullYear() !== f.year || midnight.getUTCMonth() !== f.month || midnight.getUTCDate() !== f.day)
    return undefined;
  if (midnight.getUTCDay() !== f.dayName) return undefined;
  // second 60 is a leap second (the grammar allows it); it reads as the first instant of the next minute.
  return midnight.getTime() + ((f.hour * 60 + f.minute) * 60 + f.second) * 1000;
}
