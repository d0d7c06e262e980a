import { accountIdOf, decodeAccountEvent } from '@portal/events/accounts/account.events';
import type { Projection } from '../../projection.ts';

/**
 * Members and partners with their registration status, for the registration report and profiles.
 * Admins are not registrations and are not listed.
 */
export const registrationsProjection: Projection = {
  name: 'registrations',
  async createTables(sql, schema) {
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.registrations (
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
    await sql.query(
      `CREATE INDEX IF NOT EXISTS registrations_registered_at ON ${schema}.registrations (registered_at DESC)`,
    );
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
          `INSERT INTO ${schema}.registrations (id, role, username, title, full_name, personal_id, personal_phone,
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
        await sql.query(`UPDATE ${schema}.registrations SET status = $2, updated_at = $3 WHERE id = $1`, [
          id,
          status,
          at,
        ]);
        return;
      }
      case 'RegistrationDeleted':
        await sql.query(`DELETE FROM ${schema}.registrations WHERE id = $1`, [id]);
        return;
      case 'AdminCreated':
        return;
      default: {
        const _exhaustive: never = event;
      }
    }
  },
};
