import { z } from 'zod';
import { roles } from './roles.ts';

/**
 * The signed-in user as POST /api/login answers it (spec 000 section 7) and as the console keeps
 * it in storage. The server's route and the console both use this one schema.
 */
export const SignedInPartner = z.object({
  token: z.string(),
  _id: z.string(),
  partnerId: z.string().nullable(),
  title: z.string(),
  fullName: z.string(),
  username: z.string(),
  role: z.enum(roles),
  /** รอยืนยัน, ไม่ยืนยัน or ยืนยันแล้ว, as the old product stored it. */
  status: z.string(),
  personalPhone: z.string(),
  personalEmail: z.string(),
  profile_img: z.string().nullable(),
});
export type SignedInPartner = z.infer<typeof SignedInPartner>;

export const LoginAnswer = z.object({ success: z.literal(true), message: z.string(), partner: SignedInPartner });
export type LoginAnswer = z.infer<typeof LoginAnswer>;

/** A refused sign-in: 401 for bad credentials, 403 naming the status for pending or rejected accounts. */
export const LoginRefusal = z.object({ success: z.literal(false), message: z.string(), status: z.string().optional() });
