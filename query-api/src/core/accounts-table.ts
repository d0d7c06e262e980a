import type { Sql, SqlDatabase } from '@portal/platform/store/sql';
import { openRows } from '@portal/platform/read-models/table';
import type { AccountView, RegistrationQuery } from '@portal/contracts/views/account';
import { type AccountRow, accounts, toAccountView } from '@portal/read-models/accounts';
import { SEARCH_GRAM_LENGTH, unlockedKey } from '@portal/platform/read-models/sealed-columns';
import { containsPattern } from './paging.ts';

const name = `coalesce(nullif(rm.opened(full_name), ''), rm.opened(username))`;
/** Every column but the search's blind index (a long array no answer shows). */
const shownColumns = Object.keys(accounts.columns)
  .filter((column) => column !== 'search_grams')
  .join(', ');
const sortColumns: Record<RegistrationQuery['sort'], string> = {
  id: 'id',
  name: `lower(${name})`,
  registrationDate: 'registered_at',
  status: 'status',
};

/**
 * The registration report's rows, filtered, sorted and paged in the database (spec 001 section
 * 9): search over name, e-mail, id, phone, address, national id and title (the sealed
 * search_text column of the read model, found through its blind index search_grams); one status; the total
 * for the pager. `limit` null answers every matching row (the CSV export).
 */
export async function searchRegistrations(
  sql: SqlDatabase,
  query: RegistrationQuery,
  limit: { page: number; pageSize: number } | null,
): Promise<{ members: AccountView[]; total: number }> {
  const params: unknown[] = [];
  const where = [`role IN ('member', 'partner')`, `status <> 'erased'`];
  if (query.status) {
    params.push(query.status);
    where.push(`status = $${params.length}`);
  }
  if (query.search) {
    const searched = query.search.toLowerCase();
    // The blind index narrows the rows to those holding every piece of the fragment; only they
    // are opened to check (a fragment shorter than a piece opens every row).
    if (Array.from(searched).length >= SEARCH_GRAM_LENGTH) {
      params.push(searched);
      where.push(`search_grams @> rm.search_grams($${params.length})`);
    }
    params.push(containsPattern(query.search));
    where.push(`rm.opened(search_text) LIKE $${params.length}`);
  }
  const filter = where.join(' AND ');
  const order = `${sortColumns[query.sort]} ${query.order === 'asc' ? 'ASC' : 'DESC'}, id ${query.order === 'asc' ? 'ASC' : 'DESC'}`;
  const page = limit ? ` LIMIT ${limit.pageSize} OFFSET ${(limit.page - 1) * limit.pageSize}` : '';
  // Read sealed and opened here: a page's hundred-odd values cost far less in Node than in pgcrypto.
  // A search counts its matches in the same statement (each found row is opened once); otherwise
  // the total is the kept counts' (a few rows, whatever the number of members).
  const rows = await sql.query<Record<string, unknown> & { total?: string }>(
    `SELECT ${shownColumns}${query.search ? ', count(*) OVER ()::text AS total' : ''}
       FROM rm.accounts_sealed WHERE ${filter} ORDER BY ${order}${page}`,
    params,
  );
  let total: number;
  if (!query.search) {
    const [counted] = await sql.query<{ total: string }>(
      `SELECT coalesce(sum(n), 0)::text AS total FROM rm.account_counts WHERE ${filter}`,
      params,
    );
    total = Number(counted!.total);
  } else if (rows.length > 0) {
    total = Number(rows[0]!.total);
  } else {
    // A page past the last: the matches counted on their own.
    const [counted] = await sql.query<{ total: string }>(
      `SELECT count(*)::text AS total FROM rm.accounts_sealed WHERE ${filter}`,
      params,
    );
    total = Number(counted!.total);
  }
  const key = unlockedKey(sql);
  return {
    members: openRows(
      accounts,
      key,
      rows.map(({ total: _total, ...row }) => row),
    ).map(toAccountView),
    total,
  };
}

// Erased accounts keep a row (status erased) so other read models can still count them.
/** Members and partners, newest registration first; erased people are no longer listed. */
export async function listRegistrations(sql: Sql): Promise<AccountView[]> {
  const rows = await sql.query<AccountRow>(
    `SELECT * FROM rm.accounts WHERE role IN ('member', 'partner') AND status <> 'erased'
      ORDER BY registered_at DESC, id`,
  );
  return rows.map(toAccountView);
}

/** One account; an erased one is not found. */
export async function findAccount(sql: Sql, id: string): Promise<AccountView | null> {
  const [row] = await sql.query<AccountRow>(`SELECT * FROM rm.accounts WHERE id = $1 AND status <> 'erased'`, [id]);
  return row ? toAccountView(row) : null;
}
