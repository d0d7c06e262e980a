import { createHash } from 'node:crypto';
import type { Sql } from './sql.ts';

/**
 * Runs `ddl` (a CREATE OR REPLACE of the function or view `object` names, as in
 * `FUNCTION es.append_batch(jsonb)` or `VIEW rm.accounts`) only when the object is missing or was
 * made from another text: a fingerprint of the text it was made from is kept as its comment.
 * Replacing a function or view that is already there costs as much as making it (es.append_batch
 * 60 to 90 ms on PGlite), and every start of every service replaced them all.
 */
export async function replaceWhenChanged(sql: Sql, object: `FUNCTION ${string}` | `VIEW ${string}`, ddl: string) {
  const fingerprint = `made from ${createHash('sha256').update(ddl).digest('hex').slice(0, 32)}`;
  const [kind, name] = object.split(' ', 2) as ['FUNCTION' | 'VIEW', string];
  const described =
    kind === 'FUNCTION'
      ? `obj_description(to_regprocedure($1), 'pg_proc')`
      : `obj_description(to_regclass($1), 'pg_class')`;
  const [row] = await sql.query<{ comment: string | null }>(`SELECT ${described} AS comment`, [name]);
  if (row?.comment === fingerprint) return;
  await sql.query(ddl);
  await sql.query(`COMMENT ON ${kind} ${name} IS '${fingerprint}'`);
}
