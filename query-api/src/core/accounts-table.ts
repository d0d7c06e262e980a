import type { Sql } from '@portal/events/store/sql';
import type { AccountView, CompanyView } from '../contracts/account.ts';

interface AccountRow {
  id: string;
  role: AccountView['role'];
  username: string;
  title: string;
  full_name: string;
  personal_id: string;
  personal_phone: string;
  personal_email: string;
  personal_address: string;
  personal_province: string;
  personal_district: string;
  personal_subdistrict: string;
  personal_postal_code: string;
  company: CompanyView | null;
  profile_img: string | null;
  status: AccountView['status'];
  registered_at: Date;
  updated_at: Date;
}

const toView = (row: AccountRow): AccountView => ({
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
  status: row.status,
  isActive: row.status === 'approved',
  gender: null,
  dateOfBirth: null,
  occupation: null,
  createdAt: row.registered_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

// Erased accounts keep a row (status erased) so other read models can still count them.
/** Members and partners, newest registration first; erased people are no longer listed. */
export async function listRegistrations(sql: Sql): Promise<AccountView[]> {
  const rows = await sql.query<AccountRow>(
    `SELECT * FROM rm.accounts WHERE role IN ('member', 'partner') AND status <> 'erased'
      ORDER BY registered_at DESC, id`,
  );
  return rows.map(toView);
}

/** One account; an erased one is not found. */
export async function findAccount(sql: Sql, id: string): Promise<AccountView | null> {
  const [row] = await sql.query<AccountRow>(`SELECT * FROM rm.accounts WHERE id = $1 AND status <> 'erased'`, [id]);
  return row ? toView(row) : null;
}
