import { accountIdOf, decodeAccountEvent } from '@portal/events/accounts/account.events';
import type { Projection } from '../../projection.ts';

/**
 * Every account with its registration status: the registration report lists members and
 * partners, profiles are read from here for everyone (admins included).
 */
export const accountsProjection: Projection = {
  name: 'accounts',
  async createTables(sql, schema) {
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.accounts (
      id text PRIMARY KEY,
      role text NOT NULL,
      username text NOT NULL,
      title text NOT NULL,
      full_name text NOT NULL,
      personal_id text NOT NULL,
      personal_phone text NOT NULL,
      personal_email text NOT NULL,
      personal_address text NOT NULL,
      personal_province text NOT NULL,
      personal_district text NOT NULL,
      personal_subdistrict text NOT NULL,
      personal_postal_code text NOT NULL,
      company_name text,
      profile_img text,
      status text NOT NULL,
      registered_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await sql.query(`CREATE INDEX IF NOT EXISTS accounts_registered_at ON ${schema}.accounts (registered_at DESC)`);
  },
  async apply(sql, schema, stored) {
    const event = decodeAccountEvent(stored);
    if (!event) return;
    const id = accountIdOf(event.streamId);
    switch (event.type) {
      case 'MemberRegistered':
      case 'PartnerRegistered': {
        const d = event.data;
        const role = event.type === 'MemberRegistered' ? 'member' : 'partner';
        const companyName = 'companyName' in d ? d.companyName : null;
        await sql.query(
          `INSERT INTO ${schema}.accounts (id, role, username, title, full_name, personal_id, personal_phone,
             personal_email, personal_address, personal_province, personal_district, personal_subdistrict,
             personal_postal_code, company_name, status, registered_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'pending', $15, $15)
           ON CONFLICT (id) DO NOTHING`,
          [
            id,
            role,
            d.username,
            d.title,
            d.fullName,
            d.personalId,
            d.personalPhone,
            d.personalEmail,
            d.personalAddress,
            d.personalProvince,
            d.personalDistrict,
            d.personalSubdistrict,
            d.personalPostalCode,
            companyName,
            d.registeredAt,
          ],
        );
        return;
      }
      case 'MemberApproved':
      case 'MemberRejected': {
        const status = event.type === 'MemberApproved' ? 'approved' : 'rejected';
        const at = event.type === 'MemberApproved' ? event.data.approvedAt : event.data.rejectedAt;
        await sql.query(`UPDATE ${schema}.accounts SET status = $2, updated_at = $3 WHERE id = $1`, [id, status, at]);
        return;
      }
      case 'RegistrationDeleted':
        await sql.query(`DELETE FROM ${schema}.accounts WHERE id = $1`, [id]);
        return;
      case 'AdminCreated':
        await sql.query(
          `INSERT INTO ${schema}.accounts (id, role, username, title, full_name, personal_id, personal_phone,
             personal_email, personal_address, personal_province, personal_district, personal_subdistrict,
             personal_postal_code, status, registered_at, updated_at)
           VALUES ($1, 'admin', $2, '', $3, '', '', '', '', '', '', '', '', 'approved', $4, $4)
           ON CONFLICT (id) DO NOTHING`,
          [id, event.data.username, event.data.fullName, event.data.createdAt],
        );
        return;
      default: {
        const _exhaustive: never = event;
      }
    }
  },
};
