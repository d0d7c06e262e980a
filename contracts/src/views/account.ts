import { z } from 'zod';
import { CompanyData, PersonalData } from '../accounts/account.events.ts';
import { orderParam, pageParam, pageSizeParam, sortParam, pageFields } from './query-params.ts';

/** A partner's company, as registered: the shape its events seal. */
export const CompanyView = CompanyData;
export type CompanyView = z.infer<typeof CompanyView>;

/**
 * A member or partner as the registration report and the profile answer show them
 * (spec 001 section 3, "Registration list member", and spec 000's member profile).
 * The console imports these schemas; it does not write its own types.
 */
export const AccountView = PersonalData.omit({ profileImage: true }).extend({
  _id: z.string(),
  memberId: z.string(),
  email: z.string(),
  companyName: z.string().nullable(),
  company: CompanyView.nullable(),
  profile_img: z.string().nullable(),
  role: z.enum(['member', 'partner', 'admin']),
  status: z.enum(['pending', 'approved', 'rejected']),
  /** true once approved, as the old product's `isActive`. */
  isActive: z.boolean(),
  gender: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  occupation: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AccountView = z.infer<typeof AccountView>;

export const RegistrationList = z.object({ members: z.array(AccountView) });
export const ProfileAnswer = z.object({ success: z.boolean(), member: AccountView.nullable(), message: z.string() });

/** The registration report's filters (spec 001 section 9); without `page` the whole list is answered. */
export const RegistrationQuery = z.object({
  search: z.string().trim().max(200).optional(),
  status: z.enum(['pending', 'approved', 'rejected'], { error: 'report.status' }).optional(),
  sort: sortParam(['id', 'name', 'registrationDate', 'status'], 'registrationDate'),
  order: orderParam,
  page: pageParam.optional(),
  pageSize: pageSizeParam(10),
  minPosition: z.coerce.number().int().optional(),
});
export type RegistrationQuery = z.infer<typeof RegistrationQuery>;

export const RegistrationPage = RegistrationList.extend({
  ...pageFields,
});
