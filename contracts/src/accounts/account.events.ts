import { z } from 'zod';
import { createDecoder, defineEvent } from '../catalogue.ts';
import { Sealed, legacyPlain } from '../privacy/sealed.ts';

/** Accounts live in streams `account-<id>`; the id is the `_id` every answer shows. */
export const accountStream = (accountId: string) => `account-${accountId}`;
export const accountIdOf = (streamId: string) => streamId.slice('account-'.length);

export { type Role, roles } from './roles.ts';

const at = z.iso.datetime({ offset: true });
const text = z.string().default('');

/** A person's own data. In events it is always sealed with the person's key (../privacy). */
export const PersonalData = z.object({
  username: z.string(),
  title: text,
  fullName: text,
  personalId: text,
  personalPhone: text,
  personalEmail: text,
  personalAddress: text,
  personalProvince: text,
  personalDistrict: text,
  personalSubdistrict: text,
  personalPostalCode: text,
  /** The uploaded profile photo's address (the photo is erased with the rest). */
  profileImage: text,
});
export type PersonalData = z.output<typeof PersonalData>;

/**
 * A partner's company. Sealed too: a sole trader's tax id is their national id, and the company's
 * phone and e-mail are often the person's own.
 */
export const CompanyData = z.object({
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
});
export type CompanyData = z.output<typeof CompanyData>;

const companyKeys = Object.keys(CompanyData.shape);
type Data = Record<string, unknown>;

/** Version 1 carried the personal fields in the clear; version 2 seals them. */
export const MemberRegistered = defineEvent('MemberRegistered', z.object({ personal: Sealed, registeredAt: at }), {
  version: 2,
  upcasters: {
    1: (data) => {
      const { registeredAt, ...personal } = data as Data;
      return { personal: legacyPlain(personal), registeredAt };
    },
  },
});

export const PartnerRegistered = defineEvent(
  'PartnerRegistered',
  z.object({ personal: Sealed, company: Sealed, registeredAt: at }),
  {
    version: 2,
    upcasters: {
      1: (data) => {
        const { registeredAt, ...fields } = data as Data;
        const pick = (company: boolean) =>
          Object.fromEntries(Object.entries(fields).filter(([key]) => companyKeys.includes(key) === company));
        return { personal: legacyPlain(pick(false)), company: legacyPlain(pick(true)), registeredAt };
      },
    },
  },
);

/** The first administrator, created by the launcher from ADMIN_USERNAME (approved from the start). */
export const AdminCreated = defineEvent('AdminCreated', z.object({ personal: Sealed, createdAt: at }), {
  version: 2,
  upcasters: {
    1: (data) => {
      const { createdAt, ...personal } = data as Data;
      return { personal: legacyPlain(personal), createdAt };
    },
  },
});

/** Changed in account settings: the whole personal data, sealed again. */
export const ProfileUpdated = defineEvent('ProfileUpdated', z.object({ personal: Sealed, updatedAt: at }));

/** The password changed; the hash itself never enters the log. */
export const PasswordChanged = defineEvent('PasswordChanged', z.object({ changedAt: at }));

/** The texts a person agreed to, by the version (date) of each text, when registering. */
export const ConsentGiven = defineEvent(
  'ConsentGiven',
  z.object({
    documents: z.array(z.object({ document: z.enum(['terms', 'privacy']), version: z.string() })),
    givenAt: at,
  }),
);

export const MemberApproved = defineEvent('MemberApproved', z.object({ approvedAt: at }));
export const MemberRejected = defineEvent('MemberRejected', z.object({ rejectedAt: at }));
/** A registration removed by an admin; its key is deleted with it, as on erasure. */
export const RegistrationDeleted = defineEvent('RegistrationDeleted', z.object({ deletedAt: at }));
/**
 * The person's data erased (PDPA): their key is deleted in the same transaction, so everything
 * sealed for them is unreadable from now on. The account id, and what was counted, remain.
 */
export const PersonalDataErased = defineEvent('PersonalDataErased', z.object({ erasedAt: at }));

export const accountEvents = [
  MemberRegistered,
  PartnerRegistered,
  AdminCreated,
  ConsentGiven,
  ProfileUpdated,
  PasswordChanged,
  MemberApproved,
  MemberRejected,
  RegistrationDeleted,
  PersonalDataErased,
] as const;

export const decodeAccountEvent = createDecoder(accountEvents);
export type AccountEvent = NonNullable<ReturnType<typeof decodeAccountEvent>>;
