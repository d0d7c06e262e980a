import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CataloguePage } from '@portal/contracts/views/catalogue';
import { api } from '../../../lib/api-client.ts';

export interface CatalogueFilters {
  search?: string;
  mine: boolean;
  page: number;
}
export type CatalogueAnswer = z.infer<typeof CataloguePage>;

/** GET /api/courses: the catalogue's page, public courses or the member's own. */
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
