import { CompanyData, PersonalData, accountIdOf, decodeAccountEvent } from '@portal/events/accounts/account.events';
import type { Projection } from '../../projection.ts';

const nobody: PersonalData = {
  username: '',
  title: '',
  fullName: '',
  personalId: '',
  personalPhone: '',
  personalEmail: '',
  personalAddress: '',
  personalProvince: '',
  personalDistrict: '',
  personalSubdistrict: '',
  personalPostalCode: '',
  profileImage: '',
};

/**
 * Every account with its registration status: the registration report lists members and
 * partners, profiles are read from here for everyone (admins included). Personal data is opened
 * with the person's key; once erased, the row keeps only its id, role and dates.
 */
export const accountsProjection: Projection = {
  name: 'accounts',
  version: 4,
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
      company jsonb,
      profile_img text,
      status text NOT NULL,
      registered_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      -- What the registration report's search looks in, kept by PostgreSQL itself.
      search_text text GENERATED ALWAYS AS (lower(
        id || ' ' || full_name || ' ' || username || ' ' || personal_email || ' ' || personal_phone || ' ' ||
        personal_address || ' ' || personal_subdistrict || ' ' || personal_district || ' ' || personal_province || ' ' ||
        personal_postal_code || ' ' || personal_id || ' ' || title || ' ' || coalesce(company->>'companyName', '')
      )) STORED
    )`);
    await sql.query(`CREATE INDEX IF NOT EXISTS accounts_registered_at ON ${schema}.accounts (registered_at DESC)`);
  },
  async apply(sql, schema, stored, personal) {
    const event = decodeAccountEvent(stored);
    if (!event) return;
    const id = accountIdOf(event.streamId);
    const insert = (role: string, status: string, p: PersonalData, company: CompanyData | null, at: string) =>
      sql.query(
        `INSERT INTO ${schema}.accounts (id, role, username, title, full_name, personal_id, personal_phone,
           personal_email, personal_address, personal_province, personal_district, personal_subdistrict,
           personal_postal_code, company, profile_img, status, registered_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)
         ON CONFLICT (id) DO NOTHING`,
        [
          id,
          role,
          p.username,
          p.title,
          p.fullName,
          p.personalId,
          p.personalPhone,
          p.personalEmail,
          p.personalAddress,
          p.personalProvince,
          p.personalDistrict,
          p.personalSubdistrict,
          p.personalPostalCode,
          company && JSON.stringify(company),
          p.profileImage || null,
          status,
          at,
        ],
      );
    // A key already erased: the row starts empty; the deletion or erasure that follows settles it.
    const opened = async (sealed: Parameters<typeof personal>[0]) => (await personal(sealed, PersonalData)) ?? nobody;
    switch (event.type) {
      case 'MemberRegistered':
        await insert('member', 'pending', await opened(event.data.personal), null, event.data.registeredAt);
        return;
      case 'PartnerRegistered': {
        const company = await personal(event.data.company, CompanyData);
        await insert('partner', 'pending', await opened(event.data.personal), company, event.data.registeredAt);
        return;
      }
      case 'AdminCreated':
        await insert('admin', 'approved', await opened(event.data.personal), null, event.data.createdAt);
        return;
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
      case 'PersonalDataErased':
        await sql.query(
          `UPDATE ${schema}.accounts SET username = '', title = '', full_name = '', personal_id = '',
             personal_phone = '', personal_email = '', personal_address = '', personal_province = '',
             personal_district = '', personal_subdistrict = '', personal_postal_code = '', company = NULL,
             profile_img = NULL, status = 'erased', updated_at = $2
           WHERE id = $1`,
          [id, event.data.erasedAt],
        );
        return;
      case 'ProfileUpdated': {
        const p = await personal(event.data.personal, PersonalData);
        if (!p) return; // erased since: the erasure event scrubs the row
        await sql.query(
          `UPDATE ${schema}.accounts SET title = $2, full_name = $3, personal_phone = $4, personal_email = $5,
             personal_address = $6, personal_province = $7, personal_district = $8, personal_subdistrict = $9,
             personal_postal_code = $10, profile_img = $11, updated_at = $12
           WHERE id = $1`,
          [
            id,
            p.title,
            p.fullName,
            p.personalPhone,
            p.personalEmail,
            p.personalAddress,
            p.personalProvince,
            p.personalDistrict,
            p.personalSubdistrict,
            p.personalPostalCode,
            p.profileImage || null,
            event.data.updatedAt,
          ],
        );
        return;
      }
      case 'ConsentGiven':
      case 'PasswordChanged':
        return;
      default: {
        const _exhaustive: never = event;
      }
    }
  },
};
