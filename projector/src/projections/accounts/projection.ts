import { CompanyData, PersonalData, accountIdOf, decodeAccountEvent } from '@portal/contracts/accounts/account.events';
import { createSealedView } from '@portal/platform/read-models/sealed-columns';
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

/** The personal columns, each with the field of PersonalData it keeps. */
const PERSONAL_COLUMNS = {
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
} as const;
type PersonalColumn = keyof typeof PERSONAL_COLUMNS;
const COLUMNS = Object.keys(PERSONAL_COLUMNS) as PersonalColumn[];

/** `$from, ..., $(from + count - 1)` */
const placeholders = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

/** What the registration report's search looks in, lower-cased. */
const searchText = (id: string, p: PersonalData, company: CompanyData | null) =>
  [
    id,
    p.fullName,
    p.username,
    p.personalEmail,
    p.personalPhone,
    p.personalAddress,
    p.personalSubdistrict,
    p.personalDistrict,
    p.personalProvince,
    p.personalPostalCode,
    p.personalId,
    p.title,
    company?.companyName ?? '',
  ]
    .join(' ')
    .toLowerCase();

/**
 * Every account with its registration status: the registration report lists members and
 * partners, profiles are read from here for everyone (admins included). Personal data is opened
 * with the person's key and kept sealed, column by column, with the read models' key (the view
 * `accounts` opens it); once erased, the row keeps only its id, role and dates.
 */
export const accountsProjection: Projection = {
  name: 'accounts',
  version: 5,
  async createTables(sql, schema) {
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.accounts_sealed (
      id text PRIMARY KEY,
      role text NOT NULL,
      status text NOT NULL,
      registered_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      ${COLUMNS.map((column) => `${column} bytea`).join(', ')},
      company bytea,
      profile_img bytea,
      search_text bytea
    )`);
    await sql.query(
      `CREATE INDEX IF NOT EXISTS accounts_registered_at ON ${schema}.accounts_sealed (registered_at DESC)`,
    );
    await createSealedView(sql, schema, {
      name: 'accounts',
      plain: ['id', 'role', 'status', 'registered_at', 'updated_at'],
      opened: {
        ...Object.fromEntries(COLUMNS.map((column) => [column, 'text' as const])),
        company: 'jsonb',
        profile_img: 'nullable',
        search_text: 'text',
      },
    });
  },
  async apply(sql, schema, stored, personal) {
    const event = decodeAccountEvent(stored);
    if (!event) return;
    const id = accountIdOf(event.streamId);
    const sealedColumns = (p: PersonalData) =>
      Promise.all(COLUMNS.map((column) => personal.seal(p[PERSONAL_COLUMNS[column]])));
    const insert = async (role: string, status: string, p: PersonalData, company: CompanyData | null, at: string) =>
      sql.query(
        `INSERT INTO ${schema}.accounts_sealed (id, role, status, registered_at, updated_at, ${COLUMNS.join(', ')},
           company, profile_img, search_text)
         VALUES ($1, $2, $3, $4, $4, ${placeholders(5, COLUMNS.length + 3)})
         ON CONFLICT (id) DO NOTHING`,
        [
          id,
          role,
          status,
          at,
          ...(await sealedColumns(p)),
          await personal.seal(company && JSON.stringify(company)),
          await personal.seal(p.profileImage || null),
          await personal.seal(searchText(id, p, company)),
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
        await sql.query(`UPDATE ${schema}.accounts_sealed SET status = $2, updated_at = $3 WHERE id = $1`, [
          id,
          status,
          at,
        ]);
        return;
      }
      case 'RegistrationDeleted':
        await sql.query(`DELETE FROM ${schema}.accounts_sealed WHERE id = $1`, [id]);
        return;
      case 'PersonalDataErased':
        await sql.query(
          `UPDATE ${schema}.accounts_sealed SET ${COLUMNS.map((column) => `${column} = NULL`).join(', ')},
             company = NULL, profile_img = NULL, search_text = NULL, status = 'erased', updated_at = $2
           WHERE id = $1`,
          [id, event.data.erasedAt],
        );
        return;
      case 'ProfileUpdated': {
        const changed = await personal(event.data.personal, PersonalData);
        if (!changed) return; // erased since: the erasure event scrubs the row
        const [row] = await sql.query<{
          username: Uint8Array | null;
          personal_id: Uint8Array | null;
          company: Uint8Array | null;
        }>(
          `SELECT username, personal_id, company FROM ${schema}.accounts_sealed WHERE id = $1 AND status <> 'erased'`,
          [id],
        );
        if (!row) return;
        // A profile change keeps the username, national id and company the account registered with.
        const kept = {
          username: (await personal.unseal(row.username)) ?? '',
          personalId: (await personal.unseal(row.personal_id)) ?? '',
        };
        const company = await personal.unseal(row.company);
        const p = { ...changed, ...kept };
        await sql.query(
          `UPDATE ${schema}.accounts_sealed SET ${COLUMNS.map((column, i) => `${column} = $${i + 2}`).join(', ')},
             profile_img = $${COLUMNS.length + 2}, search_text = $${COLUMNS.length + 3},
             updated_at = $${COLUMNS.length + 4}
           WHERE id = $1`,
          [
            id,
            ...(await sealedColumns(p)),
            await personal.seal(p.profileImage || null),
            await personal.seal(searchText(id, p, company ? CompanyData.parse(JSON.parse(company)) : null)),
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
