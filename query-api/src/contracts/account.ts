import { z } from 'zod';
import { orderParam, pageParam, pageSizeParam, sortParam } from './query-params.ts';

/** A partner's company, as registered. */
export const CompanyView = z.object({
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
export type CompanyView = z.infer<typeof CompanyView>;

/**
 * A member or partner as the registration report and the profile answer show them
 * (spec 001 section 3, "Registration list member", and spec 000's member profile).
 * The console imports these schemas; it does not write its own types.
 */
export const AccountView = z.object({
  _id: z.string(),
  memberId: z.string(),
  username: z.string(),
  title: z.string(),
  fullName: z.string(),
  personalId: z.string(),
  personalPhone: z.string(),
  personalEmail: z.string(),
  email: z.string(),
  personalAddress: z.string(),
  personalProvince: z.string(),
  personalDistrict: z.string(),
  personalSubdistrict: z.string(),
  personalPostalCode: z.string(),
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
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  pages: z.number(),
});
