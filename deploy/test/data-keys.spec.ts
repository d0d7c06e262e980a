import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createAccountTables,
  findCredentials,
  saveCredentials,
  takenFields,
} from '@portal/command-api/accounts/credentials';
import { PersonalData } from '@portal/contracts/accounts/account.events';
import { dataKeysFromEnv, useDataKeys } from '@portal/platform/privacy/data-key';
import type { Sealed } from '@portal/contracts/privacy/sealed';
import { open, rewrapKeys } from '@portal/platform/privacy/personal-data';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { connectPostgres } from '@portal/platform/store/postgres';
import { READ_MODEL_KEY_SETTING, unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { TEST_DATA_KEYS, useTestDataKeys } from '@portal/platform/testing/data-keys';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const CONTACT = {
  name: 'Contact Wanphen',
  email: 'wanphen.writes@example.test',
  subject: 'Parking by hall nine',
  message: 'Secret question about the lunch voucher',
};
const LETTER = { to: 'letter.reader@example.test', subject: 'Round moved to Friday', message: 'See you in room nine' };

/**
 * Found: each person's data key sat in the clear beside the data, so a stolen dump opened every
 * sealed field. Keys are now wrapped with a key-encryption key from the environment (DATA_KEY).
 */
describe.each(testDatabases())('personal-data keys wrapped with DATA_KEY on $name', (database) => {
  let portal: TestPortal;
  let url: string | undefined;
  const { approvedMember, call } = portalCalls(() => portal);
  const people: Awaited<ReturnType<typeof approvedMember>>[] = [];
  beforeAll(async () => {
    portal = await openTestPortal(database);
    url = portal.url;
    for (const name of ['Wrapped Somchai', 'Wrapped Malee']) people.push(await approvedMember(name));
    // Words of their own, held by the read models too: a contact message and an e-mail.
    await call('POST', '/api/contact', people[0]!.token, CONTACT);
    await call('POST', '/api/emails', portal.adminToken, LETTER);
    await call('GET', '/api/admin/emails', portal.adminToken); // waits for the read models
  });
  afterAll(() => portal.close());
  afterEach(() => useTestDataKeys());

  const sealedOf = async (id: string) => {
    const [row] = await portal.db.query<{ data: { personal: Sealed } }>(
      `SELECT data FROM es.events WHERE stream_id = $1 AND type = 'MemberRegistered'`,
      [`account-${id}`],
    );
    return row!.data.personal;
  };
  const snapshot = () =>
    portal.db.query<{ text: string }>(`SELECT (data::text || metadata::text) AS text FROM es.events ORDER BY position`);
  const anotherKey = (fill: number) => ({ current: Buffer.alloc(32, fill), previous: [] });

  it('stores no key in the clear: the database alone, or with a wrong DATA_KEY, opens nothing', async () => {
    const sealed = await sealedOf(people[0]!.id);
    expect(await open(portal.db, sealed, PersonalData)).toMatchObject({ fullName: 'Wrapped Somchai' });
    const [stored] = await portal.db.query<{ key: string }>(
      `SELECT key FROM privacy.subject_keys WHERE subject_id = $1`,
      [people[0]!.id],
    );
    expect(stored!.key).toMatch(/^kek1\./);
    // What an attacker holding the dump would try: the stored value, and each part of it, as the key.
    const { createDecipheriv } = await import('node:crypto');
    const box = sealed as Extract<Sealed, { alg: string }>;
    for (const part of [stored!.key, ...stored!.key.split('.')]) {
      for (const encoding of ['base64', 'base64url', 'hex', 'utf8'] as const) {
        const candidate = Buffer.from(part, encoding);
        if (candidate.length !== 32) continue;
        const decipher = createDecipheriv('aes-256-gcm', candidate, Buffer.from(box.iv, 'base64'));
        decipher.setAAD(Buffer.from(box.subject));
        decipher.setAuthTag(Buffer.from(box.tag, 'base64'));
        decipher.update(Buffer.from(box.data, 'base64'));
        expect(() => decipher.final()).toThrow();
      }
    }
    useDataKeys(anotherKey(9));
    await expect(open(portal.db, sealed, PersonalData)).rejects.toThrow(/not configured/);
  });

  it('leaves no personal data in a dump of the whole database (pg_dump on PostgreSQL), read models included', async () => {
    // Every row of every table, as text; on PostgreSQL, pg_dump's own output too.
    const tables = await portal.db.query<{ name: string }>(
      `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
        WHERE table_schema IN ('es', 'privacy', 'cmd', 'auth', 'rm') AND table_type = 'BASE TABLE'`,
    );
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining([
        'es.events',
        'privacy.subject_keys',
        'cmd.unique_values',
        'cmd.credentials',
        'rm.accounts_sealed',
        'rm.contact_messages_sealed',
        'rm.emails_sealed',
      ]),
    );
    let dump = '';
    for (const { name } of tables) {
      const rows = await portal.db.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
      dump += rows.map((row) => row.row).join('\n');
    }
    if (url) {
      dump += execFileSync('/usr/lib/postgresql/15/bin/pg_dump', [url], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
    }
    expect(dump).toContain('MemberRegistered');
    const words = [...Object.values(CONTACT), ...Object.values(LETTER)];
    for (const { person } of people) {
      words.push(person.fullName, person.username, person.personalId, person.personalPhone, person.personalEmail);
    }
    // What the screens show is all there, opened by the query side's connections.
    const shown = JSON.stringify([
      (await call('GET', '/api/admin/registration', portal.adminToken)).json(),
      (await call('GET', '/api/admin/contact-messages', portal.adminToken)).json(),
      (await call('GET', '/api/admin/emails', portal.adminToken)).json(),
    ]).toLowerCase();
    for (const word of words) {
      expect(shown).toContain(String(word).toLowerCase());
      expect(dump.toLowerCase()).not.toContain(String(word).toLowerCase());
    }
  });

  it('opens the read models only on a connection that holds their key', async () => {
    const sql = url ? connectPostgres({ connectionString: url }) : null;
    try {
      // PGlite has one connection, already unlocked: show that a session without the setting fails.
      const without = sql ?? portal.db;
      if (!sql) await portal.db.query(`SELECT set_config('${READ_MODEL_KEY_SETTING}', '', false)`);
      await expect(without.query(`SELECT full_name FROM rm.accounts`)).rejects.toThrow();
      await expect(without.query(`SELECT message FROM rm.contact_messages`)).rejects.toThrow();
      // A wrong key opens nothing either.
      await without.query(`SELECT set_config('${READ_MODEL_KEY_SETTING}', $1, false)`, [
        Buffer.alloc(32, 7).toString('hex'),
      ]);
      await expect(without.query(`SELECT full_name FROM rm.accounts`)).rejects.toThrow();
    } finally {
      await sql?.close();
      await unlockReadModels(portal.db);
    }
    const names = await portal.db.query<{ full_name: string }>(`SELECT full_name FROM rm.accounts`);
    expect(names.map((row) => row.full_name)).toEqual(expect.arrayContaining(['Wrapped Somchai', 'Wrapped Malee']));
  });

  it('rotates the key-encryption key by re-wrapping the keys, without touching an event', async () => {
    const before = await snapshot();
    const rotated = { current: Buffer.alloc(32, 11), previous: [TEST_DATA_KEYS.current] };
    useDataKeys(rotated);
    const progress: number[] = [];
    const rewrapped = await rewrapKeys(portal.db, (done) => progress.push(done));
    expect(rewrapped).toBeGreaterThanOrEqual(people.length + 1); // the members and the first admin
    expect(progress.at(-1)).toBe(rewrapped);
    expect(await rewrapKeys(portal.db)).toBe(0);
    expect(await snapshot()).toEqual(before);
    // The new key alone opens everything; the old one alone opens nothing.
    useDataKeys({ current: rotated.current, previous: [] });
    for (const { id, person } of people) {
      expect(await open(portal.db, await sealedOf(id), PersonalData)).toMatchObject({ fullName: person.fullName });
    }
    useTestDataKeys();
    await expect(open(portal.db, await sealedOf(people[1]!.id), PersonalData)).rejects.toThrow(/not configured/);
    // The read models' key is re-wrapped too: their personal columns open without a rebuild.
    useDataKeys({ current: rotated.current, previous: [] });
    await unlockReadModels(portal.db);
    const listed = (await call('GET', '/api/admin/registration', portal.adminToken)).json();
    expect(JSON.stringify(listed)).toContain(people[1]!.person.fullName);
    // Back to the test key for the other tests.
    useDataKeys({ current: TEST_DATA_KEYS.current, previous: [rotated.current] });
    await rewrapKeys(portal.db);
  });

  it('wraps keys stored in the clear by an earlier version at the next start', async () => {
    const raw = Buffer.alloc(32, 5);
    const { seal } = await import('@portal/platform/privacy/personal-data');
    await portal.db.query(`INSERT INTO privacy.subject_keys (subject_id, key) VALUES ('legacy-subject', $1)`, [
      raw.toString('base64'),
    ]);
    const sealed = await seal(portal.db, 'legacy-subject', { note: 'sealed before wrapping' });
    expect(await rewrapKeys(portal.db)).toBe(1);
    const [row] = await portal.db.query<{ key: string }>(
      `SELECT key FROM privacy.subject_keys WHERE subject_id = 'legacy-subject'`,
    );
    expect(row!.key).toMatch(/^kek1\./);
    const { z } = await import('zod');
    expect(await open(portal.db, sealed, z.object({ note: z.string() }))).toEqual({ note: 'sealed before wrapping' });
  });
});

describe.each(testDatabases())('reservations written in the clear by an earlier version, on $name', (database) => {
  it('are digested at the next start, and still keep usernames unique and signing in working', async () => {
    const { db, drop } = await database.open();
    try {
      await createEventStoreSchema(db);
      await db.query(`CREATE SCHEMA cmd`);
      await db.query(
        `CREATE TABLE cmd.unique_values (field text, value text, account_id text, PRIMARY KEY (field, value))`,
      );
      await db.query(
        `INSERT INTO cmd.unique_values VALUES ('username', 'oldtimer01', 'acc-1'), ('personalId', '1101700000036', 'acc-1')`,
      );
      await createAccountTables(db);
      const rows = await db.query<{ text: string }>(`SELECT (field || ' ' || digest) AS text FROM cmd.unique_values`);
      expect(rows).toHaveLength(2);
      expect(JSON.stringify(rows)).not.toMatch(/oldtimer01|1101700000036/);
      expect(await takenFields(db, { username: 'OldTimer01', personalId: '1101700000036' })).toEqual(
        expect.arrayContaining(['username', 'personalId']),
      );
      await saveCredentials(db, 'acc-1', 'member', 'hash');
      expect(await findCredentials(db, 'oldtimer01')).toMatchObject({ accountId: 'acc-1' });
    } finally {
      await drop();
    }
  });
});

describe('DATA_KEY from the environment', () => {
  it('is required when a service runs alone, and must be 32 bytes', () => {
    expect(() => dataKeysFromEnv({})).toThrow(/DATA_KEY must be set/);
    expect(() => dataKeysFromEnv({ DATA_KEY: 'too-short' })).toThrow(/32 random bytes/);
    const key = Buffer.alloc(32, 3);
    expect(dataKeysFromEnv({ DATA_KEY: key.toString('base64') }).current).toEqual(key);
    expect(dataKeysFromEnv({ DATA_KEY: key.toString('hex') }).current).toEqual(key);
    const old = Buffer.alloc(32, 4);
    expect(
      dataKeysFromEnv({ DATA_KEY: key.toString('base64'), DATA_KEY_PREVIOUS: old.toString('base64') }).previous,
    ).toEqual([old]);
  });

  it('is generated and kept in DATA_DIR (mode 600) for the embedded start, the same at every start', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'data-key-'));
    const first = dataKeysFromEnv({}, dataDir);
    expect(dataKeysFromEnv({}, dataDir).current).toEqual(first.current);
    expect(statSync(join(dataDir, 'data-key')).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(join(dataDir, 'data-key'), 'utf8'), 'base64')).toEqual(first.current);
    // DATA_KEY wins over the file.
    const given = Buffer.alloc(32, 8);
    expect(dataKeysFromEnv({ DATA_KEY: given.toString('base64') }, dataDir).current).toEqual(given);
  });
});
