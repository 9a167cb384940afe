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

export { fc };
