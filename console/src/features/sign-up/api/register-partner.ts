import type { Registered } from '@portal/contracts/answers';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PartnerRegistration } from '@portal/contracts/rules/registration';
import { api } from '../../../lib/api-client.ts';

/** POST /api/partners/register: the whole partner form, ids of the chosen places included (spec 000 section 3). */
export const useRegisterPartner = () =>
  useMutation({
    mutationFn: (body: z.output<typeof PartnerRegistration> & Record<string, unknown>) =>
      api<z.infer<typeof Registered>>('/api/partners/register', { method: 'POST', body }),
  });
