import { copyText } from '../store/copy-text.ts';
import { arrayText } from '../store/text-form.ts';
import type { Sql } from '../store/sql.ts';
import { createSealedView, openTexts } from './sealed-columns.ts';

/**
 * A read model's table, declared once: each column's SQL next to the TypeScript type a query
 * reads back, so the projector that writes it and the query API that reads it share one row type
 * (`RowOf`), and a column renamed here is a type error wherever it is written or read.
 *
 * A sealed column holds personal data sealed with the read models' key: the table is then
 * `<name>_sealed` (bytea in those columns) and `<name>` is a view that opens them (see
 * sealed-columns.ts), so the query side reads plain values.
 */
export interface Column<T> {
  readonly sql: string;
  readonly sealed?: 'text' | 'nullable' | 'jsonb';
  /** Only carries the type. */
  readonly type?: T;
}

/** A plain column: its SQL type and constraints, and the type of its value. */
export const column = <T>(sql: string): Column<T> => ({ sql });

/**
 * An identifier: an id the portal makes, a key such as `user:<id>`, or a code such as a status
 * (`T`, its values), as text compared byte by byte (`COLLATE "C"`) whatever the database's
 * collation, then its constraints ('NOT NULL', 'PRIMARY KEY'). Under a linguistic collation
 * (`en_US.UTF-8`, even `C.UTF-8`) each ordering comparison (an index's insertion or lookup, a
 * sort) calls the C library's strcoll, and PostgreSQL sorts without abbreviated keys: a rebuild
 * took a sixth more of PostgreSQL's CPU. Nobody reads identifiers in their order (they break ties
 * and mark pages), so byte order serves as well as any; under `C.UTF-8` it is the same order, and
 * PGlite's database is "C" already. Text a person reads (a topic, a name) keeps the database's
 * collation.
 */
export const identifier = <T extends string = string>(constraints: string): Column<T> =>
  column(`text COLLATE "C" ${constraints}`);

/** An identifier that may be missing (see identifier). */
export const nullableIdentifier = (): Column<string | null> => column('text COLLATE "C"');

/**
 * A sealed column, read opened: as text ('' once erased), as nullable text, or as JSON. Written
 * as the sealed bytes.
 */
export const sealed = {
  text: (): SealedColumn<string> => ({ sql: 'bytea', sealed: 'text' }),
  nullable: (): SealedColumn<string | null> => ({ sql: 'bytea', sealed: 'nullable' }),
  json: <T>(): SealedColumn<T | null> => ({ sql: 'bytea', sealed: 'jsonb' }),
};
type SealedColumn<T> = Column<T> & { readonly sealed: NonNullable<Column<T>['sealed']> };

type Columns = Record<string, Column<unknown>>;
/**
 * An index: its columns or expressions, or with its access method and whether the projector's
 * own statements need it. One the projector does not need serves queries only, and a rebuild
 * builds it after filling the table (one sort instead of a million insertions).
 */
type IndexOn =
  | string
  | {
      readonly using?: 'gin' | 'btree';
      readonly on: string;
      readonly projectorReads?: boolean;
      /**
       * Storage parameters (`WITH (...)`), such as `{ fastupdate: 'off' }`. An index already made
       * keeps its own: a change here comes with a new version of its projection (a rebuild).
       */
      readonly storage?: Readonly<Record<string, string>>;
    };

/** What marks an index only queries read (a COMMENT on it): a rebuild builds it after the fill. */
export const QUERY_INDEX = 'read-model query index';

/** Marks `schema.index` as one only queries read. */
export const markQueryIndex = (sql: Sql, schema: string, index: string) =>
  sql.query(`COMMENT ON INDEX ${schema}.${index} IS '${QUERY_INDEX}'`);

export interface Table<C extends Columns = Columns> {
  /** What queries read: the table, or the view over `<name>_sealed`. */
  readonly name: string;
  /** What the projector writes to. */
  readonly storedAs: string;
  readonly columns: C;
  readonly primaryKey?: readonly string[];
  /**
   * Index name to its columns or expressions, e.g. `{ courses_by_topic: 'lower(topic), id' }`, or
   * with its access method: `{ using: 'gin', on: 'search_grams' }`. An index the projector's own
   * statements filter or join on says so (`{ on: 'course_id', projectorReads: true }`): the others
   * are built after a rebuild's fill.
   */
  readonly indexes: Readonly<Record<string, IndexOn>>;
}

export function defineTable<C extends Columns>(
  name: string,
  columns: C,
  options: { primaryKey?: readonly (keyof C & string)[]; indexes?: Record<string, IndexOn> } = {},
): Table<C> {
  const isSealed = Object.values(columns).some((c) => c.sealed);
  return {
    name,
    storedAs: isSealed ? `${name}_sealed` : name,
    columns,
    primaryKey: options.primaryKey,
    indexes: options.indexes ?? {},
  };
}

/** A row as a query reads it (sealed columns opened). */
export type RowOf<T extends Table> = { [K in keyof T['columns']]: T['columns'][K] extends Column<infer V> ? V : never };

/** A row as the projector writes it: sealed columns as their sealed bytes, times also as ISO text (as events carry them). */
export type StoredRowOf<T extends Table> = {
  [K in keyof T['columns']]: T['columns'][K] extends { sealed: string }
    ? Buffer | null
    : RowOf<T>[K] extends Date | null
      ? RowOf<T>[K] | string
      : RowOf<T>[K];
};

const isMissing = async (sql: Sql, table: string) =>
  (await sql.query<{ missing: boolean }>(`SELECT to_regclass($1) IS NULL AS missing`, [table]))[0]!.missing;

/** Creates the table (in `schema`, so a rebuild can fill fresh ones), its indexes and, if sealed, its view. */
export async function createTable(sql: Sql, schema: string, table: Table): Promise<void> {
  const entries = Object.entries(table.columns);
  const definitions = entries.map(([name, c]) => `${name} ${c.sql}`);
  if (table.primaryKey) definitions.push(`PRIMARY KEY (${table.primaryKey.join(', ')})`);
  // No statistics of sealed columns: ciphertext is never compared, and ANALYZE spent half its time
  // on an accounts table there (0.23 s of 0.44 s for 22,276 accounts; on PGlite an ANALYZE holds
  // the database's thread). Set when the table is made, as a rebuild makes it.
  const sealedNames = entries.flatMap(([name, c]) => (c.sealed ? [name] : []));
  const made = await isMissing(sql, `${schema}.${table.storedAs}`);
  await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.${table.storedAs} (\n  ${definitions.join(',\n  ')}\n)`);
  if (made && sealedNames.length > 0) {
    const columns = sealedNames.map((name) => `ALTER COLUMN ${name} SET STATISTICS 0`);
    await sql.query(`ALTER TABLE ${schema}.${table.storedAs} ${columns.join(', ')}`);
  }
  // Only the indexes missing: CREATE INDEX IF NOT EXISTS takes a share lock on the table even when
  // the index is there, which, in the transaction that prepares every table while another
  // projector writes them, deadlocked a projector starting beside a running one. Looked up in
  // the catalogue itself: the pg_indexes view took 5 to 15 ms a table on PGlite, at every start.
  const existing = new Set(
    made
      ? []
      : (
          await sql.query<{ name: string }>(
            `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = to_regclass($1)`,
            [`${schema}.${table.storedAs}`],
          )
        ).map((row) => row.name),
  );
  for (const [index, on] of Object.entries(table.indexes)) {
    if (existing.has(index)) continue;
    const { using = 'btree', on: columns, projectorReads = false, storage = {} } = typeof on === 'string' ? { on } : on;
    const parameters = Object.entries(storage).map(([name, value]) => `${name} = ${value}`);
    const withParameters = parameters.length ? ` WITH (${parameters.join(', ')})` : '';
    await sql.query(
      `CREATE INDEX IF NOT EXISTS ${index} ON ${schema}.${table.storedAs} USING ${using} (${columns})${withParameters}`,
    );
    if (!projectorReads) await markQueryIndex(sql, schema, index);
  }
  if (table.storedAs === table.name) return;
  await createSealedView(sql, schema, {
    name: table.name,
    plain: entries.filter(([, c]) => !c.sealed).map(([name]) => name),
    opened: Object.fromEntries(entries.flatMap(([name, c]) => (c.sealed ? [[name, c.sealed]] : []))),
  });
}

/**
 * `INSERT INTO <schema>.<table> (<the row's columns>) VALUES (...)` and its parameters, with
 * `then` appended (an ON CONFLICT clause): the columns are the row's keys, so they are checked
 * against the table's.
 */
export function insertRow<T extends Table>(
  schema: string,
  table: T,
  row: Partial<StoredRowOf<T>>,
  then = '',
): [string, unknown[]] {
  const names = Object.keys(row);
  const values = names.map((name) => (row as Record<string, unknown>)[name]);
  const placeholders = names.map((_, i) => `$${i + 1}`);
  return [
    `INSERT INTO ${schema}.${table.storedAs} (${names.join(', ')}) VALUES (${placeholders.join(', ')}) ${then}`.trim(),
    values,
  ];
}

/**
 * Many rows in one statement: `INSERT INTO <schema>.<table> (<columns>) SELECT * FROM unnest(...)`,
 * one typed array per column (the column's SQL type from its declaration), with `then` appended
 * (a WHERE on `input.<column>`, an ON CONFLICT clause). Every row must have the same columns;
 * sealed columns take their sealed bytes. `after`: how many parameters come before these in the
 * statement it goes into (a data-modifying WITH of another statement's).
 */
export function insertRows<T extends Table>(
  schema: string,
  table: T,
  rows: readonly Partial<StoredRowOf<T>>[],
  then = '',
  after = 0,
): [string, unknown[]] {
  const { names, types, isArray } = columnsOf('insertRows', table, rows);
  // Each column's array in its text form: the drivers' own way with arrays cost a rebuild a tenth.
  const params = names.map((name, i) => arrayText(rows.map((row) => valueOf(row, name, isArray[i]!))));
  const arrays = types.map((type, i) => (isArray[i] ? `$${after + i + 1}::text[]` : `$${after + i + 1}::${type}[]`));
  const selected = names.map((name, i) => (isArray[i] ? `input.${name}::${types[i]}` : `input.${name}`));
  return [
    `INSERT INTO ${schema}.${table.storedAs} (${names.join(', ')})
     SELECT ${selected.join(', ')} FROM unnest(${arrays.join(', ')}) AS input(${names.join(', ')}) ${then}`.trim(),
    params,
  ];
}

/**
 * The same rows as insertRows without a clause, by COPY where `sql` can (Sql.copyIn): no array
 * text for the driver to build and PostgreSQL to parse, a third of the cost for a rebuild's rows.
 */
export async function copyRows<T extends Table>(
  sql: Sql,
  schema: string,
  table: T,
  rows: readonly Partial<StoredRowOf<T>>[],
): Promise<void> {
  if (rows.length === 0) return;
  if (!sql.copyIn) return void (await sql.query(...insertRows(schema, table, rows)));
  const { names, isArray } = columnsOf('copyRows', table, rows);
  const values = rows.map((row) => names.map((name, i) => valueOf(row, name, isArray[i]!)));
  await sql.copyIn(`${schema}.${table.storedAs}`, names, copyText(values));
}

/** The columns of a batch of rows (the first row's keys), checked against the table's. */
function columnsOf(caller: string, table: Table, rows: readonly object[]) {
  const names = Object.keys(rows[0] ?? {});
  if (names.length === 0) throw new Error(`${caller} on ${table.name} needs rows with columns`);
  const types = names.map((name) => {
    const declared = table.columns[name];
    if (!declared) throw new Error(`${caller}: ${table.name} has no column ${name}`);
    return sqlTypeOf(declared.sql);
  });
  // An array column goes as the text of each row's array (unnest would flatten an array of arrays).
  return { names, types, isArray: types.map((type) => type.endsWith('[]')) };
}

const valueOf = (row: object, name: string, isArray: boolean) => {
  const value = (row as Record<string, unknown>)[name] ?? null;
  return isArray && value !== null ? arrayText(value as unknown[]) : value;
};

/** 'timestamptz NOT NULL' -> 'timestamptz'; 'bigint PRIMARY KEY' -> 'bigint'; 'text COLLATE "C"' -> 'text'. */
const sqlTypeOf = (declaration: string) =>
  declaration.split(/\s+(?:COLLATE|NOT|NULL|PRIMARY|DEFAULT|REFERENCES|UNIQUE|CHECK|GENERATED)\b/i)[0]!.trim();

/**
 * `UPDATE <schema>.<table> SET <set's columns> WHERE <where's columns equal>` and its
 * parameters; both sides checked against the table's columns.
 */
export function updateRows<T extends Table>(
  schema: string,
  table: T,
  set: Partial<StoredRowOf<T>>,
  where: Partial<StoredRowOf<T>>,
): [string, unknown[]] {
  // An empty side would be a syntax error at best, every row of the table at worst: refuse it here.
  if (Object.keys(set).length === 0 || Object.keys(where).length === 0) {
    throw new Error(`updateRows on ${table.name} needs a column to set and a column to match`);
  }
  const params: unknown[] = [];
  const assign = (entries: [string, unknown][]) =>
    entries.map(([name, value]) => {
      params.push(value);
      return `${name} = $${params.length}`;
    });
  const sets = assign(Object.entries(set));
  const wheres = assign(Object.entries(where));
  return [`UPDATE ${schema}.${table.storedAs} SET ${sets.join(', ')} WHERE ${wheres.join(' AND ')}`, params];
}

/**
 * A row read from `<name>_sealed` opened in Node with the read models' key, as the view would
 * show it: a text column '' when null, a nullable one null, a JSON one parsed.
 */
export function openRow<T extends Table>(table: T, key: Buffer, stored: Record<string, unknown>): RowOf<T> {
  return openRows(table, key, [stored])[0]!;
}

/** Rows read from `<name>_sealed` (a page), opened as openRow does, all with one decipher. */
export function openRows<T extends Table>(
  table: T,
  key: Buffer,
  stored: readonly Record<string, unknown>[],
): RowOf<T>[] {
  const sealedColumns = Object.entries(table.columns).filter(([, declared]) => declared.sealed);
  const values: (Uint8Array | null)[] = [];
  for (const row of stored) {
    for (const [name] of sealedColumns) if (name in row) values.push(row[name] as Uint8Array | null);
  }
  const texts = openTexts(key, values);
  let next = 0;
  return stored.map((stored) => {
    const row: Record<string, unknown> = { ...stored };
    for (const [name, declared] of sealedColumns) {
      if (!(name in stored)) continue;
      const text = texts[next++]!;
      row[name] =
        declared.sealed === 'text'
          ? (text ?? '')
          : declared.sealed === 'jsonb' && text !== null
            ? JSON.parse(text)
            : text;
    }
    return row as RowOf<T>;
  });
}
