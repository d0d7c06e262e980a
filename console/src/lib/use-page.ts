import { useState } from 'react';

/**
 * The page of a paged list, back to 1 whenever `resetKey` (the search, sort and filters it pages
 * through) changes: derived while rendering, so no stale page is ever fetched.
 */
export function usePage(resetKey: string): [number, (page: number) => void] {
  const [state, setState] = useState({ key: resetKey, page: 1 });
  const page = state.key === resetKey ? state.page : 1;
  return [page, (next) => setState({ key: resetKey, page: next })];
}
