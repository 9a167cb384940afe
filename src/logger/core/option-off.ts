// How a logger option says "not set", written once: absent or `null` and, for an option that is
// a switch or a function, `false`. morgan reads its options by truthiness, so
// `{ stream: cond ? file : null }` or `{ skip: cond && fn }` keeps working after migration.

/** Whether an option is absent or `null`. */
export function isUnset(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

/** Whether an option that is a switch or a function is off: absent, `null` or `false`. */
export function isOff(value: unknown): value is undefined | null | false {
  return value === undefined || value === null || value === false;
}
