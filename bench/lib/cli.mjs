// The command line of the small measuring scripts (profile, instructions, allocations).

const args = process.argv.slice(2);

/** `--name=N` as a number, or `fallback`. */
export function numberOption(name, fallback) {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : fallback;
}

/** `--name=text` as text, or undefined. */
export function stringOption(name) {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : undefined;
}

/** The arguments that are not options. */
export const positional = args.filter((a) => !a.startsWith('--'));

/**
 * `impl@logger:<format>`, `impl@parsers:<case>` or `impl@parsers-alone:<case>` (the parser on a
 * bare IncomingMessage, lib/parser-alone.mjs) as a worker's spec.
 */
export function variantSpec(name) {
  const [impl, rest] = name.split('@');
  const [group, what] = rest.split(':');
  if (group === 'logger') return { group, impl, format: what };
  if (group === 'parsers-alone') return { group: 'parsers', impl, kase: what, alone: true };
  return { group, impl, kase: what };
}

/** Whether `--name` was given. */
export function flag(name) {
  return args.includes(`--${name}`);
}
