import { z } from 'zod';
import { createDecoder, defineEvent } from '../catalogue.ts';

/** Accounts live in streams `account-<id>`; the id is the `_id` every answer shows. */
export const accountStream = (accountId: string) => `account-${accountId}`;
export const accountIdOf = (streamId: string) => streamId.slice('account-'.length);

export const roles = ['member', 'partner', 'admin'] as const;
export type Role = (typeof roles)[number];

const at = z.iso.datetime({ offset: true });

const personal = {
  username: z.string(),
  title: z.string(),
  fullName: z.string(),
  personalId: z.string(),
  personalPhone: z.string(),
  personalEmail: z.string(),
  personalAddress: z.string(),
  personalProvince: z.string(),
  personalDistrict: z.string(),
  personalSubdistrict: z.string(),
  personalPostalCode: z.string(),
};

export const MemberRegistered = defineEvent('MemberRegistered', z.object({ ...personal, registeredAt: at }));

export const PartnerRegistered = defineEvent(
  'PartnerRegistered',
  z.object({
    ...personal,
    companyName: z.string(),
    companyTaxId: z.string(),
    companyAddress: z.string(),
    companyProvince: z.string(),
    companyDistrict: z.string(),
    companySubdistrict: z.string(),
    companyPostalCode: z.string(),
    companyPhone: z.string(),
    companyEmail: z.string(),
    shopLatitude: z.number(),
    shopLongitude: z.number(),
    registeredAt: at,
  }),
);

/** The first administrator, created by the launcher from ADMIN_USERNAME (approved from the start). */
export const AdminCreated = defineEvent(
  'AdminCreated',
  z.object({ username: z.string(), fullName: z.string(), createdAt: at }),
);

export const MemberApproved = defineEvent('MemberApproved', z.object({ approvedAt: at }));
export const MemberRejected = defineEvent('MemberRejected', z.object({ rejectedAt: at }));
export const RegistrationDeleted = defineEvent('RegistrationDeleted', z.object({ deletedAt: at }));

export const accountEvents = [
  MemberRegistered,
  PartnerRegistered,
  AdminCreated,
  MemberApproved,
  MemberRejected,
  RegistrationDeleted,
] as const;

export const decodeAccountEvent = createDecoder(accountEvents);
export type AccountEvent = NonNullable<ReturnType<typeof decodeAccountEvent>>;
