import type { Sql } from '@portal/platform/store/sql';
import type { AccountView, RegistrationQuery } from '@portal/contracts/views/account';
import { type AccountRow, toAccountView } from '@portal/read-models/accounts';
import { containsPattern } from './paging.ts';

const name = `coalesce(nullif(full_name, ''), username)`;
const sortColumns: Record<RegistrationQuery['sort'], string> = {
  id: 'id',
  name: `lower(${name})`,
  registrationDate: 'registered_at',
  status: 'status',
};

/**
 * The registration report's rows, filtered, sorted and paged in the database (spec 001 section
 * 9): search over name, e-mail, id, phone, address, national id and title (the generated
 * search_text column of the read model); one status; the total
 * for the pager. `limit` null answers every matching row (the CSV export).
 */
export async function searchRegistrations(
  sql: Sql,
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
    params.push(containsPattern(query.search));
    where.push(`search_text LIKE $${params.length}`);
  }
  const filter = where.join(' AND ');
  const [counted] = await sql.query<{ total: string }>(
    `SELECT count(*)::text AS total FROM rm.accounts WHERE ${filter}`,
    params,
  );
  const order = `${sortColumns[query.sort]} ${query.order === 'asc' ? 'ASC' : 'DESC'}, id ${query.order === 'asc' ? 'ASC' : 'DESC'}`;
  const page = limit ? ` LIMIT ${limit.pageSize} OFFSET ${(limit.page - 1) * limit.pageSize}` : '';
  const rows = await sql.query<AccountRow>(
    `SELECT * FROM rm.accounts WHERE ${filter} ORDER BY ${order}${page}`,
    params,
  );
  return { members: rows.map(toAccountView), total: Number(counted!.total) };
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
