import { useState } from 'react';
import { useDebounced } from '../../../lib/use-debounced.ts';
import { usePage } from '../../../lib/use-page.ts';
import { type CourseFilters, useCourseList } from '../api/get-courses.ts';

type Order = Pick<CourseFilters, 'sort' | 'order'>;

/**
 * The course list's search as the list and the report run it: what is typed (searched once the
 * typing pauses), the order, and the page, back to 1 whenever the search or the order changes.
 */
export function useCourseSearch(defaults: Order, pageSize?: number) {
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim());
  const [order, setOrder] = useState(defaults);
  const [page, setPage] = usePage(JSON.stringify([search, order]));
  const filters: CourseFilters = { ...order, search: search || undefined, page, ...(pageSize ? { pageSize } : {}) };
  return { typed, setTyped, order, setOrder, setPage, filters, list: useCourseList(filters) };
}
