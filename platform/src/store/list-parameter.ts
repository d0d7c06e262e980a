/**
 * A list of text values for a statement, as `ARRAY[...]` of one parameter each when there are few
 * (padded with NULLs, which match nothing and count nothing, to 1 or 4 of them, so that two
 * statement texts serve them), else as one array parameter. Why: PGlite keeps each statement
 * prepared, but with an array parameter PostgreSQL learns the list's length only from its value,
 * finds the generic plan dearer than one made for the value, and plans the statement anew on
 * almost every call (docs/performance.md); with `ARRAY[$1, ...]` it knows the length and keeps
 * one generic plan. Not beyond 4: padded to 16, PostgreSQL still planned anew most calls (a plan
 * for the values given expects fewer rows than 16). `first` is the number of the list's first
 * parameter; the answer's `params` go there, in order.
 */
export function listParameter(values: readonly string[], first: number): { sql: string; params: unknown[] } {
  const size = SIZES.find((size) => values.length <= size);
  if (size === undefined) return { sql: `$${first}::text[]`, params: [values] };
  const placeholders = Array.from({ length: size }, (_, i) => `$${first + i}`);
  const params = Array.from({ length: size }, (_, i) => values[i] ?? null);
  return { sql: `ARRAY[${placeholders.join(', ')}]::text[]`, params };
}

const SIZES = [1, 4];
