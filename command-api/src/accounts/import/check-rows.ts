import { createHash } from 'node:crypto';
import { type ImportColumn, IMPORT_COLUMNS, ImportedMember } from '@portal/contracts/rules/import';
import { isMessageKey, type MessageKey } from '@portal/contracts/rules/messages';
import { type UniqueField, uniqueFields } from '@portal/contracts/rules/registration';
import { lookupDigester } from '@portal/platform/privacy/personal-data';
import type { Sql } from '@portal/platform/store/sql';
import { normalise } from '../credentials.ts';
import type { RawRow } from './csv-file.ts';

/** A row as the registration rules see it: the member it makes, or what is wrong, field by field. */
export interface CheckedRow {
  line: number;
  values: Record<ImportColumn, string>;
  member: ImportedMember | null;
  errors: Partial<Record<ImportColumn, MessageKey>>;
}

const valuesOf = (row: RawRow) =>
  Object.fromEntries(IMPORT_COLUMNS.map((column) => [column, row[column] ?? ''])) as Record<ImportColumn, string>;

/**
 * Checks every row under the registration form's rules (the first problem of each field, as the
 * form shows it), and flags every row that shares a username, national id, phone or e-mail with
 * another row of the file: creating one would refuse the other.
 */
export function checkRows(rows: readonly RawRow[]): CheckedRow[] {
  const checked = rows.map((row): CheckedRow => {
    const values = valuesOf(row);
    const parsed = ImportedMember.safeParse(values);
    if (parsed.success) return { line: row.line, values, member: parsed.data, errors: {} };
    const errors: CheckedRow['errors'] = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as ImportColumn;
      errors[field] ??= isMessageKey(issue.message) ? issue.message : 'value.invalid';
    }
    return { line: row.line, values, member: null, errors };
  });
  for (const field of uniqueFields) {
    const lines = new Map<string, CheckedRow[]>();
    for (const row of checked) {
      const value = normalise(field, row.values[field].trim());
      if (value) lines.set(value, [...(lines.get(value) ?? []), row]);
    }
    for (const same of lines.values()) {
      if (same.length > 1) for (const row of same) row.errors[field] ??= 'import.duplicateInFile';
    }
  }
  for (const row of checked) if (Object.keys(row.errors).length > 0) row.member = null;
  return checked;
}

/**
 * Which unique values of the rows some account already holds, found with one query for the whole
 * file: each value's keyed digest (the key read once), matched against the reservations.
 */
export async function takenByAccounts(
  sql: Sql,
  rows: readonly CheckedRow[],
): Promise<Map<number, { field: UniqueField; accountId: string }[]>> {
  const digest = await lookupDigester(sql);
  const wanted = new Map<string, { line: number; field: UniqueField }[]>();
  for (const row of rows) {
    for (const field of uniqueFields) {
      const value = row.values[field].trim();
      if (!value) continue;
      const key = `${field} ${digest(field, normalise(field, value))}`;
      wanted.set(key, [...(wanted.get(key) ?? []), { line: row.line, field }]);
    }
  }
  const taken = new Map<number, { field: UniqueField; accountId: string }[]>();
  if (wanted.size === 0) return taken;
  const pairs = [...wanted.keys()].map((key) => key.split(' ') as [string, string]);
  const found = await sql.query<{ field: UniqueField; digest: string; account_id: string }>(
    `SELECT u.field, u.digest, u.account_id
       FROM cmd.unique_values u
       JOIN unnest($1::text[], $2::text[]) AS w(field, digest) ON w.field = u.field AND w.digest = u.digest`,
    [pairs.map(([field]) => field), pairs.map(([, d]) => d)],
  );
  for (const hit of found) {
    for (const { line, field } of wanted.get(`${hit.field} ${hit.digest}`) ?? []) {
      taken.set(line, [...(taken.get(line) ?? []), { field, accountId: hit.account_id }]);
    }
  }
  return taken;
}

/**
 * A row's idempotency key: what it says. The same row is created once, whichever file or line it
 * comes in (the file imported again after an interruption, or with its wrong rows fixed).
 */
export function importIdempotency(row: Pick<CheckedRow, 'values'>) {
  const digest = createHash('sha256').update(JSON.stringify(row.values)).digest('hex');
  return { key: `import:${digest}`, fingerprint: digest };
}
