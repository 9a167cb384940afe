// `:date` beyond morgan's three UTC renderings: in the server's time zone, and in a layout the
// application names. No date library: the layouts are a small strftime-like language, and the
// time zone is the process's (`TZ`), read through `Date`'s local getters.
//   local      the Common Log Format date in local time: `10/Oct/2000:15:55:36 +0200`
//   iso-local  ISO 8601 in local time with its offset: `2000-10-10T15:55:36.789+02:00`
//   a layout   any argument with a `%`: the directives below in local time, everything else
//              as it is; `utc:` before it renders in UTC instead (`:date[utc:%H:%M:%S]`)
// Directives: %Y year, %m month, %d day, %H hour, %M minute, %S second (two digits each but
// the year), %L milliseconds (three digits), %z offset (`+0200`), %Z offset (`+02:00`),
// %b month name, %a day name (English, as CLF's), %s seconds since 1970, %% a `%`. Any other
// `%x` is written as it is.
// Every rendering but the milliseconds changes once a second at most (the offset too), so
// each piece is kept for the second it was made in, as clf-date.ts does for CLF.

/** The months' English abbreviations, as CLF and `%b` write them. */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** `7` as `07`: two digits at least. */
function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

function pad4(value: number): string {
  return value >= 0 && value < 10000 ? String(value).padStart(4, '0') : String(value);
}

/** The fields of a date, in local time or in UTC. */
interface Fields {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly weekday: number;
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
  /** Minutes east of UTC. */
  readonly offset: number;
}

function fieldsOf(date: Date, utc: boolean): Fields {
  if (utc) {
    return {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth(),
      day: date.getUTCDate(),
      weekday: date.getUTCDay(),
      hours: date.getUTCHours(),
      minutes: date.getUTCMinutes(),
      seconds: date.getUTCSeconds(),
      offset: 0,
    };
  }
  return {
    year: date.getFullYear(),
    month: date.getMonth(),
    day: date.getDate(),
    weekday: date.getDay(),
    hours: date.getHours(),
    minutes: date.getMinutes(),
    seconds: date.getSeconds(),
    // getTimezoneOffset is minutes *west* of UTC; `-0` would print as `+0000` anyway.
    offset: -date.getTimezoneOffset() || 0,
  };
}

/** `+0200` (`colon`: `+02:00`). */
function offsetText(minutes: number, colon: boolean): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad2(Math.floor(abs / 60))}${colon ? ':' : ''}${pad2(abs % 60)}`;
}

/** One directive's text, or undefined for a letter that is not one. */
function directive(letter: string, f: Fields, ms: number): string | undefined {
  switch (letter) {
    case 'Y':
      return pad4(f.year);
    case 'm':
      return pad2(f.month + 1);
    case 'd':
      return pad2(f.day);
    case 'H':
      return pad2(f.hours);
    case 'M':
      return pad2(f.minutes);
    case 'S':
      return pad2(f.seconds);
    case 'z':
      return offsetText(f.offset, false);
    case 'Z':
      return offsetText(f.offset, true);
    case 'b':
      return MONTHS[f.month];
    case 'a':
      return DAYS[f.weekday];
    case 's':
      return String(Math.floor(ms / 1000));
    case '%':
      return '%';
    default:
      return undefined;
  }
}

/** Renders `layout` for the time `ms`, but for `%L` (the milliseconds, added by the caller). */
function renderSecond(layout: string, utc: boolean, ms: number): string {
  const f = fieldsOf(new Date(ms), utc);
  let text = '';
  for (let i = 0; i < layout.length; i++) {
    const char = layout[i] as string;
    if (char !== '%' || i + 1 === layout.length) {
      text += char;
      continue;
    }
    const letter = layout[i + 1] as string;
    const value = directive(letter, f, ms);
    text += value ?? `%${letter}`;
    i += 1;
  }
  return text;
}

/** `000` to `999`. */
const MILLIS: readonly string[] = Array.from({ length: 1000 }, (_, n) =>
  String(n).padStart(3, '0'),
);

/** A `Date` holds times up to this many milliseconds either side of 1970. */
const MAX_TIME = 8.64e15;

/**
 * A layout's pieces split at `%L` (not `%%L`): each piece is rendered at most once a second,
 * the milliseconds between them on every call.
 */
function layoutRenderer(layout: string, utc: boolean): (ms: number) => string | undefined {
  const pieces: string[] = [];
  let start = 0;
  for (let i = 0; i < layout.length - 1; i++) {
    if (layout[i] !== '%') continue;
    if (layout[i + 1] === 'L') {
      pieces.push(layout.slice(start, i));
      start = i + 2;
    }
    i += 1;
  }
  pieces.push(layout.slice(start));
  const cached = pieces.map(() => ({ second: Number.NaN, text: '' }));
  return (time) => {
    const ms = Math.trunc(time);
    if (!(Math.abs(ms) <= MAX_TIME)) return undefined;
    const second = Math.floor(ms / 1000);
    let text = '';
    for (let p = 0; p < pieces.length; p++) {
      const cache = cached[p] as { second: number; text: string };
      if (cache.second !== second) {
        cache.second = second;
        cache.text = renderSecond(pieces[p] as string, utc, ms);
      }
      if (p > 0) text += MILLIS[ms - second * 1000];
      text += cache.text;
    }
    return text;
  };
}

/** The CLF date in local time (`:date[local]`). */
const LOCAL_CLF = '%d/%b/%Y:%H:%M:%S %z';
/** ISO 8601 in local time with the offset (`:date[iso-local]`). */
const ISO_LOCAL = '%Y-%m-%dT%H:%M:%S.%L%Z';

/** Renderers by argument: one per format part, plus those of format functions, up to a cap. */
const renderers = new Map<string, (ms: number) => string | undefined>();
const MAX_RENDERERS = 64;

/**
 * The renderer of a `:date` argument other than `clf`, `iso` and `web`: `local`, `iso-local`
 * or a layout; undefined for anything else (written `-`, as morgan writes an unknown format).
 */
export function dateRenderer(format: string): ((ms: number) => string | undefined) | undefined {
  const known = renderers.get(format);
  if (known !== undefined) return known;
  let made: ((ms: number) => string | undefined) | undefined;
  if (format === 'local') made = layoutRenderer(LOCAL_CLF, false);
  else if (format === 'iso-local') made = layoutRenderer(ISO_LOCAL, false);
  else if (format.includes('%')) {
    const utc = format.startsWith('utc:');
    made = layoutRenderer(utc ? format.slice(4) : format, utc);
  }
  // A format function may ask for any argument: past the cap, renderers are made per call.
  if (made !== undefined && renderers.size < MAX_RENDERERS) renderers.set(format, made);
  return made;
}

// clf-date.ts writes CLF's months and two-digit fields with these.
export { MONTHS, pad2 };
