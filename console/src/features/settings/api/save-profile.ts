import type { Done } from '@portal/contracts/answers';
import type { ProfileUpdate } from '@portal/contracts/rules/profile';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { profileKey } from '../../../lib/profile.ts';

/** PUT /api/members/profile/{id}: the profile saved; the profile is read again. */
export function useSaveProfile(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: z.output<typeof ProfileUpdate>) =>
      api<z.infer<typeof Done>>(`/api/members/profile/${id}`, { method: 'PUT', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: profileKey(id) }),
  });
}
