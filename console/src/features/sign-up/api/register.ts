import { useMutation } from '@tanstack/react-query';
import type {
  MemberRegistration,
  MemberSelfRegistration,
  PartnerRegistration,
} from '@portal/contracts/rules/registration';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

interface Registered {
  success: true;
  message: string;
  _id: string;
}

export const registerMember = (body: z.output<typeof MemberSelfRegistration>) =>
  api<Registered>('/api/members/register', { method: 'POST', body });

/** The whole partner form is posted, ids of the chosen places included (spec 000 section 3). */
export const registerPartner = (body: z.output<typeof PartnerRegistration> & Record<string, unknown>) =>
  api<Registered>('/api/partners/register', { method: 'POST', body });

/** An admin creates a member account, approved from the start (/addemployee). */
export const createMember = (body: z.output<typeof MemberRegistration>) =>
  api<Registered>('/api/admin/members', { method: 'POST', body });

export const useRegisterMember = () => useMutation({ mutationFn: registerMember });
export const useCreateMember = () => useMutation({ mutationFn: createMember });
export const useRegisterPartner = () => useMutation({ mutationFn: registerPartner });
