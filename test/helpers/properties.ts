// fast-check, configured so that every property run can be replayed: one seed per test file,
// taken from FC_SEED when it is set and drawn at random otherwise, printed when the file loads
// and used by every fc.assert of the file (a failure's report adds the seed and the path of
// the shrunk counterexample). Replay a run with `FC_SEED=<seed> node scripts/run-tests.mjs
// <file>`. Test files take `fc` from here rather than from 'fast-check'.
import fc from 'fast-check';

/** The seed of this file's properties. */
export const seed =
  process.env.FC_SEED === undefined || process.env.FC_SEED === ''
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FC_SEED);
if (!Number.isInteger(seed))
  throw new Error(`FC_SEED must be an integer, not ${process.env.FC_SEED}`);

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
process.stdout.write(`fast-check seed ${seed} (replay: FC_SEED=${seed})\n`);

/** Characters Node accepts in a header value: HTAB, SP, visible ASCII and obs-text (C1 too). */
export const headerChar = fc.oneof(
  fc.constantFrom('\t', '"', '\\', '\u0085', '\u009b', '\u00a0', '\u00e2'),
  fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
);

/** A header value of up to `maxLength` such characters, trimmed as Node trims it. */
export const headerValue = (maxLength = 40) =>
  fc.array(headerChar, { maxLength }).map((chars) => chars.join('').trim());

/** Any string, weighted towards `pieces`: the sequences that break the lines under test. */
export const hostileString = (pieces: readonly string[]) =>
  fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
        { weight: 2, arbitrary: fc.constantFrom(...pieces) },
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));

export { fc };
