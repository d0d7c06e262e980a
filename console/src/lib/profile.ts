import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ProfileAnswer } from '@portal/contracts/views/account';
import { api } from './api-client.ts';

/** A person's profile (GET /api/members/profile/{id}): read by settings and by the dashboards. */
export const profileKey = (id: string) => ['profile', id];

export const getProfile = (id: string) => api<z.infer<typeof ProfileAnswer>>(`/api/members/profile/${id}`);

export const useProfile = (id: string) => useQuery({ queryKey: profileKey(id), queryFn: () => getProfile(id) });
