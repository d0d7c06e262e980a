import type { PersonalData } from '@portal/contracts/accounts/account.events';
import type { AccountView, CompanyView } from '@portal/contracts/views/account';
import { column, defineTable, identifier, type RowOf, sealed } from '@portal/platform/read-models/table';

/** The personal columns, each with the field of PersonalData it keeps. */
export const PERSONAL_COLUMNS = {
  username: 'username',
  title: 'title',
  full_name: 'fullName',
  personal_id: 'personalId',
  personal_phone: 'personalPhone',
  personal_email: 'personalEmail',
  personal_address: 'personalAddress',
  personal_province: 'personalProvince',
  personal_district: 'personalDistrict',
  personal_subdistrict: 'personalSubdistrict',
  personal_postal_code: 'personalPostalCode',
} as const satisfies Record<string, keyof PersonalData>;
export type PersonalColumn = keyof typeof PERSONAL_COLUMNS;
export const personalColumnNames = Object.keys(PERSONAL_COLUMNS) as PersonalColumn[];

const personalColumns = Object.fromEntries(personalColumnNames.map((name) => [name, sealed.text()])) as Record<
  PersonalColumn,
  ReturnType<typeof sealed.text>
>;

/**
 * Every account with its registration status: the registration report lists members and
 * partners, profiles are read from here for everyone (admins included). Personal data is kept
 * sealed, column by column, with the read models' key (the view `accounts` opens it); once
 * erased, the row keeps only its id, role and dates (status 'erased') so other read models can
 * still count them. Written by the projector's accounts projection.
 */
export const accounts = defineTable(
  'accounts',
  {
    id: identifier('PRIMARY KEY'),
    role: identifier<AccountView['role']>('NOT NULL'),
    status: identifier<AccountView['status'] | 'erased'>('NOT NULL'),
    registered_at: column<Date>('timestamptz NOT NULL'),
    updated_at: column<Date>('timestamptz NOT NULL'),
    ...personalColumns,
    company: sealed.json<CompanyView>(),
    profile_img: sealed.nullable(),
    /** What the registration report's search looks in, lower-cased. */
    search_text: sealed.text(),
    /** search_text's blind index (platform's searchGrams): finds the rows a search opens. */
    search_grams: column<number[]>(`int[] NOT NULL DEFAULT '{}'`),
  },
  {
    indexes: {
      // The report's pages, newest or oldest first: read in index order, ties by id included.
      accounts_registered_at: 'registered_at DESC, id DESC',
      // Without GIN's pending list: entries waiting there (up to 4 MB) are read by every search,
      // and the embedded database has no autovacuum to move them in; a registration is written
      // once, searched often.
      accounts_search_grams: { using: 'gin', on: 'search_grams', storage: { fastupdate: 'off' } },
    },
  },
);
export type AccountRow = RowOf<typeof accounts>;

/**
 * How many accounts there are of each role and status, kept with every write to accounts: the
 * registration report's total (its pager) without counting a hundred thousand rows.
 */
export const accountCounts = defineTable(
  'account_counts',
  {
    role: identifier<AccountView['role']>('NOT NULL'),
    status: identifier<AccountRow['status']>('NOT NULL'),
    n: column<string | number>('bigint NOT NULL'),
  },
  { primaryKey: ['role', 'status'] },
);

/** An account as the registration report and the profile show it. */
export const toAccountView = (row: AccountRow): AccountView => ({
  _id: row.id,
  memberId: row.id,
  username: row.username,
  title: row.title,
  fullName: row.full_name,
  personalId: row.personal_id,
  personalPhone: row.personal_phone,
  personalEmail: row.personal_email,
  email: row.personal_email,
  personalAddress: row.personal_address,
  personalProvince: row.personal_province,
  personalDistrict: row.personal_district,
  personalSubdistrict: row.personal_subdistrict,
  personalPostalCode: row.personal_postal_code,
  companyName: row.company?.companyName ?? null,
  company: row.company,
  profile_img: row.profile_img,
  role: row.role,
  // Queries never show an erased account.
  status: row.status as AccountView['status'],
  isActive: row.status === 'approved',
  gender: null,
  dateOfBirth: null,
  occupation: null,
  createdAt: row.registered_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});
