// Size strings as body-parser's `bytes` package reads them, so `limit: '1.5mb'` means the same
// number of bytes here: units b, kb, mb, gb, tb, pb (any case), base 1024, decimals allowed,
// spaces between number and unit, result floored. A string without a unit is read as
// `parseInt` reads it ('100' and '100b' are 100 bytes); anything else is invalid (null), and
// the caller turns that into a TypeError, so a typo can never silently disable the limit.

const UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
  tb: 1024 ** 4,
  pb: 1024 ** 5,
};

// size = [ "-" / "+" ] 1*DIGIT [ "." 1*DIGIT ] *SP unit ; one pass, no nested quantifiers
const SIZE = /^([-+]?\d+(?:\.\d+)?) *(kb|mb|gb|tb|pb)$/i;

/** Bytes for a number or size string, or null when the value is not a size. */
export function parseBytes(value: unknown): number | null {
  if (typeof value === 'number') return Number.isNaN(value) ? null : value;
  if (typeof value !== 'string') return null;
  const match = SIZE.exec(value);
  const amount = match ? Number.parseFloat(match[1] as string) : Number.parseInt(value, 10);
  const unit = match ? (match[2] as string).toLowerCase() : 'b';
  if (Number.isNaN(amount)) return null;
  return Math.floor((UNITS[unit] as number) * amount);
}
