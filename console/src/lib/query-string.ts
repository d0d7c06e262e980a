/** Filters as a query string: every set value, none of the empty or absent ones. */
export const queryString = (filters: object) =>
  new URLSearchParams(
    Object.entries(filters)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([key, value]) => [key, String(value)]),
  ).toString();
