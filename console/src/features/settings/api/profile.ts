import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PasswordChange, ProfileUpdate } from '@portal/contracts/rules/profile';
import { api } from '../../../lib/api-client.ts';
import { profileKey } from '../../../lib/profile.ts';

interface Saved {
  success: true;
  message: string;
  position: number;
}

export function useSaveProfile(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: z.output<typeof ProfileUpdate>) =>
      api<Saved>(`/api/members/profile/${id}`, { method: 'PUT', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: profileKey(id) }),
  });
}

export const useUploadPhoto = (id: string) =>
  useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('profileImage', file);
      return api<{ success: true; imageUrl: string; message: string }>(`/api/members/uploadprofile/${id}`, {
        method: 'POST',
        body: form,
      });
    },
  });

export const useChangePassword = (id: string) =>
  useMutation({
    mutationFn: (body: z.output<typeof PasswordChange>) =>
      api<Saved>(`/api/members/change-password/${id}`, { method: 'PUT', body }),
  });
