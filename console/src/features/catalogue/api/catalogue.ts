import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CataloguePage } from '@portal/query-api/contracts/catalogue';
import { api } from '../../../lib/api-client.ts';

export interface CatalogueFilters {
  search?: string;
  mine: boolean;
  page: number;
}
export type CatalogueAnswer = z.infer<typeof CataloguePage>;

export const useCatalogue = ({ search, mine, page }: CatalogueFilters) =>
  useQuery({
    queryKey: ['catalogue', { search, mine, page }],
    queryFn: () => {
      const query = new URLSearchParams({ page: String(page), ...(mine ? { mine: 'true' } : {}) });
      if (search) query.set('search', search);
      return api<CatalogueAnswer>(`/api/courses?${query}`);
    },
    placeholderData: keepPreviousData,
  });

/** Enrol in, or leave, a course as the signed-in member; both lists reload from the read models. */
export function useEnrolment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enrol }: { id: string; enrol: boolean }) =>
      api<{ message: string }>(`/api/courses/${id}/enroll`, { method: enrol ? 'POST' : 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: ['catalogue'] }),
  });
}
