import type { PhotoUploaded } from '@portal/contracts/answers';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

/** POST /api/members/uploadprofile/{id}: the photo, saved with the profile afterwards. */
export const useUploadPhoto = (id: string) =>
  useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('profileImage', file);
      return api<z.infer<typeof PhotoUploaded>>(`/api/members/uploadprofile/${id}`, { method: 'POST', body: form });
    },
  });
