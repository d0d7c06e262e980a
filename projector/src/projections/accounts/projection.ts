import { CompanyData, PersonalData, accountIdOf, decodeAccountEvent } from '@portal/contracts/accounts/account.events';
import { type StoredRowOf, createTable, insertRows, updateRows } from '@portal/platform/read-models/table';
import type { Sql } from '@portal/platform/store/sql';
import {
  type AccountRow,
  PERSONAL_COLUMNS,
  type PersonalColumn,
  accountCounts,
  accounts,
  personalColumnNames,
} from '@portal/read-models/accounts';
import { type Batch, type Projection, readsOf, someOf } from '../../projection.ts';

/** What an account shows once its key is gone: every field blank. */
const nobody: PersonalData = PersonalData.parse({ username: '' });

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

/** Every account event but the consents and password changes, which no row here shows. */
const READS = readsOf(
  someOf(
    decodeAccountEvent,
    ...[...decodeAccountEvent.types].filter((type) => type !== 'ConsentGiven' && type !== 'PasswordChanged'),
  ),
);

/**
 * Every account with its registration status: the registration report lists members and
 * partners, profiles are read from here for everyone (admins included). Personal data is opened
 * with the person's key and kept sealed, column by column, with the read models' key (the view
 * `accounts` opens it); once erased, the row keeps only its id, role and dates.
 */
export const accountsProjection: Projection = {
  name: 'accounts',
  reads: READS,
  // 8: identifiers compared byte by byte (COLLATE "C", read-models/table.ts identifier).
  version: 8,
  async createTables(sql, schema) {
    await createTable(sql, schema, accounts);
    await createTable(sql, schema, accountCounts);
  },
  async apply(sql, schema, stored, personal, batch) {
    if (!READS.has(stored.type)) return;
    const event = decodeAccountEvent(stored);
    if (!event) return;
    const id = accountIdOf(event.streamId);
    const pending = pendingFor(batch, sql, schema);
    /** A row's sealed columns, in one call (sealTexts): its personal data, photo, company and search text. */
    const sealedColumns = async (p: PersonalData, search: string, company: string | null) => {
      const n = personalColumnNames.length;
      const sealed = await personal.sealAll([
        ...personalColumnNames.map((column) => p[PERSONAL_COLUMNS[column]]),
        p.profileImage || null,
        search,
        company,
      ]);
      return {
        ...(Object.fromEntries(personalColumnNames.map((column, i) => [column, sealed[i]!])) as Record<
          PersonalColumn,
          Buffer | null
        >),
        profile_img: sealed[n]!,
        search_text: sealed[n + 1]!,
        company: sealed[n + 2]!,
        search_grams: await personal.searchGrams(search),
      };
    };
    const insert = async (
      role: AccountRow['role'],
      status: AccountRow['status'],
      p: PersonalData,
      company: CompanyData | null,
      at: string,
    ) => {
      // A second registration of one account changes nothing, as ON CONFLICT DO NOTHING would.
      if (pending.rows.has(id)) return;
      pending.rows.set(id, {
        id,
        role,
        status,
        registered_at: at,
        updated_at: at,
        ...(await sealedColumns(p, searchText(id, p, company), company && JSON.stringify(company))),
      });
    };
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
        const status = event.type === 'MemberApproved' ? ('approved' as const) : ('rejected' as const);
        const at = event.type === 'MemberApproved' ? event.data.approvedAt : event.data.rejectedAt;
        const registered = pending.rows.get(id);
        if (registered) Object.assign(registered, { status, updated_at: at });
        pending.statuses.set(id, { status, updated_at: at });
        return;
      }
      case 'RegistrationDeleted':
        await writePending(sql, schema, pending);
        await writeCounted(
          sql,
          schema,
          pending,
          `DELETE FROM ${schema}.accounts_sealed WHERE id = $1 RETURNING id, role, status AS was, NULL::text AS now`,
          [id],
        );
        return;
      case 'PersonalDataErased':
        await writePending(sql, schema, pending);
        await writeCounted(
          sql,
          schema,
          pending,
          `UPDATE ${schema}.accounts_sealed a SET ${personalColumnNames.map((column) => `${column} = NULL`).join(', ')},
             company = NULL, profile_img = NULL, search_text = NULL, search_grams = '{}', status = 'erased', updated_at = $2
             FROM ${schema}.accounts_sealed o
            WHERE a.id = $1 AND o.id = a.id
           RETURNING a.id, a.role, o.status AS was, a.status AS now`,
          [id, event.data.erasedAt],
        );
        return;
      case 'ProfileUpdated': {
        const changed = await personal(event.data.personal, PersonalData);
        if (!changed) return; // erased since: the erasure event scrubs the row
        await writePending(sql, schema, pending);
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
        // The company is left as it is: none sealed, none set.
        const { company: _none, ...columns } = await sealedColumns(
          p,
          searchText(id, p, company ? CompanyData.parse(JSON.parse(company)) : null),
          null,
        );
        const set = {
          ...columns,
          updated_at: event.data.updatedAt,
        };
        await sql.query(...updateRows(schema, accounts, set, { id }));
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

/**
 * What a batch has still to write: registrations are written together, with the approvals and
 * rejections that came in the same batch folded in, and status changes of accounts written
 * before in one statement; before a deletion, an erasure or a profile change, and at the end.
 */
interface Pending {
  rows: Map<string, StoredRowOf<typeof accounts>>;
  statuses: Map<string, { status: AccountRow['status']; updated_at: string }>;
  /** How each count (role and status, joined by a NUL) moves. */
  counts: Map<string, number>;
}

const pendingOfBatch = new WeakMap<Batch, Pending>();

function pendingFor(batch: Batch, sql: Sql, schema: string): Pending {
  const existing = pendingOfBatch.get(batch);
  if (existing) return existing;
  const pending: Pending = { rows: new Map(), statuses: new Map(), counts: new Map() };
  pendingOfBatch.set(batch, pending);
  batch.after(`accounts:${schema}`, async () => {
    await writePending(sql, schema, pending);
    await writeCounts(sql, schema, pending);
  });
  return pending;
}

async function writePending(sql: Sql, schema: string, pending: Pending) {
  if (pending.rows.size > 0) {
    const rows = [...pending.rows.values()];
    pending.rows.clear();
    const [insert, params] = insertRows(
      schema,
      accounts,
      rows,
      'ON CONFLICT (id) DO NOTHING RETURNING id, role, NULL::text AS was, status AS now',
    );
    const written = await writeCounted(sql, schema, pending, insert, params);
    // Status changes of accounts registered in this batch are in their rows, unless the account
    // was there already (then the registration changed nothing and the change is for that row).
    const inserted = new Set(written.map((row) => row.id));
    for (const id of inserted) pending.statuses.delete(id);
  }
  if (pending.statuses.size > 0) {
    const changes = [...pending.statuses];
    pending.statuses.clear();
    await writeCounted(
      sql,
      schema,
      pending,
      `UPDATE ${schema}.${accounts.storedAs} a SET status = s.status, updated_at = s.updated_at
         FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS s(id, status, updated_at), ${schema}.${accounts.storedAs} o
        WHERE a.id = s.id AND o.id = a.id
       RETURNING a.id, a.role, o.status AS was, a.status AS now`,
      [
        changes.map(([id]) => id),
        changes.map(([, change]) => change.status),
        changes.map(([, change]) => change.updated_at),
      ],
    );
  }
}

/**
 * Runs `statement` (an insert, update or delete of accounts returning each row's id, role, status
 * before (`was`, null for a new row) and after (`now`, null for a removed one)) and notes how the
 * counts move; answers the ids. The batch writes the counts once, at its end (writeCounts).
 */
async function writeCounted(sql: Sql, schema: string, pending: Pending, statement: string, params: unknown[]) {
  const changed = await sql.query<{ id: string; role: string; was: string | null; now: string | null }>(
    statement,
    params,
  );
  const move = (role: string, status: string | null, by: number) => {
    if (status === null) return;
    const key = `${role}\u0000${status}`;
    pending.counts.set(key, (pending.counts.get(key) ?? 0) + by);
  };
  for (const row of changed) {
    move(row.role, row.was, -1);
    move(row.role, row.now, 1);
  }
  return changed;
}

/**
 * The batch's count changes in one statement, in key order: two projectors (Kafka partitions)
 * writing counts at once wait for each other at most, never in a circle.
 */
async function writeCounts(sql: Sql, schema: string, pending: Pending) {
  const moves = [...pending.counts].filter(([, by]) => by !== 0).sort(([a], [b]) => (a < b ? -1 : 1));
  pending.counts.clear();
  if (moves.length === 0) return;
  const keys = moves.map(([key]) => key.split('\u0000') as [string, string]);
  await sql.query(
    `INSERT INTO ${schema}.${accountCounts.storedAs} AS c (role, status, n)
     SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]) AS moved(role, status, n) ORDER BY role, status
     ON CONFLICT (role, status) DO UPDATE SET n = c.n + EXCLUDED.n`,
    [keys.map(([role]) => role), keys.map(([, status]) => status), moves.map(([, by]) => by)],
  );
  // A count brought to zero goes (the rows just written, so no other lock is waited for): the
  // counts are then the same whatever order the events were applied in.
  await sql.query(
    `DELETE FROM ${schema}.${accountCounts.storedAs}
      WHERE n = 0 AND (role, status) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [keys.map(([role]) => role), keys.map(([, status]) => status)],
  );
}
