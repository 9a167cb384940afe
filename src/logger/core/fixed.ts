// `Number#toFixed` for the response-time tokens, without its cost: V8 formats through a
// generic exact-decimal routine that took several hundred nanoseconds per call, a large part
// of a timed line. A duration is a small non-negative number printed with a few digits, for
// which scaling to an integer gives the same text, except where the scaled value lies within
// rounding error of a half (toFixed rounds the exact binary value, the product may round
// either way): there, and for anything outside the fast range, toFixed itself answers.

const SCALE = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

/** Below this the product's error (at most one ulp, under 1.3e-4) is far from the 1e-3 band. */
const FAST_LIMIT = 1e12;

/** `value.toFixed(digits)`, the same text for every value and every `digits` in 0..100. */
export function toFixed(value: number, digits: number): string {
  const scale = SCALE[digits];
  if (scale === undefined || !(value >= 0)) return value.toFixed(digits);
  const scaled = value * scale;
  const floor = Math.floor(scaled);
  if (!(scaled < FAST_LIMIT) || Math.abs(scaled - floor - 0.5) < 1e-3) {
    return value.toFixed(digits);
  }
  const units = scaled - floor < 0.5 ? floor : floor + 1;
  if (digits === 0) return String(units);
  const fraction = String(units % scale);
  const whole = (units - (units % scale)) / scale;
  return `${whole}.${'0'.repeat(digits - fraction.length)}${fraction}`;
}
