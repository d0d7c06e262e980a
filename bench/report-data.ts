/**
 * A large portal's report data, written straight into the read models as the projector leaves
 * them (the reports benchmark): members with their personal columns sealed and the search's blind
 * index, courses with rounds, and scan attempts spread over a year (accepted, refused, voided).
 * Sealing and the blind index are the projector's own functions.
 */
import { insertRows } from '@portal/platform/read-models/table';
import { readModelKey, sealText, searchGrams } from '@portal/platform/read-models/sealed-columns';
import type { Sql } from '@portal/platform/store/sql';
import { accounts, personalColumnNames } from '@portal/read-models/accounts';

const CHUNK = 5_000;
export const memberId = (n: number) => `5eed${n.toString(16).padStart(20, '0')}`;
export const courseId = (n: number) => `c0de${n.toString(16).padStart(20, '0')}`;

/** The personal data of member n (what searches look for: 'Person 4242', '0800004242'). */
export const personOf = (n: number) => ({
  username: `user${n}`,
  title: 'นาย',
  full_name: `Person ${n}`,
  personal_id: String(n).padStart(13, '1'),
  personal_phone: `08${String(n).padStart(8, '0')}`,
  personal_email: `user${n}@example.com`,
  personal_address: `${n} Sukhumvit Road`,
  personal_province: 'กรุงเทพมหานคร',
  personal_district: 'วัฒนา',
  personal_subdistrict: 'คลองเตยเหนือ',
  personal_postal_code: '10110',
});

export async function seedMembers(sql: Sql, count: number, progress: (done: number) => void): Promise<void> {
  const key = await readModelKey(sql);
  const statuses = ['pending', 'approved', 'rejected'] as const;
  for (let from = 1; from <= count; from += CHUNK) {
    const rows = [];
    for (let n = from; n < Math.min(count + 1, from + CHUNK); n++) {
      const person = personOf(n);
      const id = memberId(n);
      const search = [
        id,
        person.full_name,
        person.username,
        person.personal_email,
        person.personal_phone,
        person.personal_address,
        person.personal_subdistrict,
        person.personal_district,
        person.personal_province,
        person.personal_postal_code,
        person.personal_id,
        person.title,
        '',
      ]
        .join(' ')
        .toLowerCase();
      const at = new Date(Date.UTC(2025, 0, 1) + n * 60_000);
      rows.push({
        id,
        role: 'member' as const,
        status: statuses[n % 3]!,
        registered_at: at,
        updated_at: at,
        ...Object.fromEntries(personalColumnNames.map((column) => [column, sealText(key, person[column])])),
        search_text: sealText(key, search),
        search_grams: searchGrams(key, search),
      });
    }
    await sql.query(...insertRows('rm', accounts, rows));
    progress(Math.min(count, from + CHUNK - 1));
  }
  await sql.query(
    `INSERT INTO rm.account_counts AS c (role, status, n)
     SELECT role, status, count(*) FROM rm.accounts_sealed WHERE id LIKE '5eed%' GROUP BY role, status
     ON CONFLICT (role, status) DO UPDATE SET n = c.n + EXCLUDED.n`,
  );
}

/** Courses with 16 rounds each, and `count` scan attempts over them by `members` members. */
export async function seedScans(
  sql: Sql,
  count: number,
  members: number,
  courses: number,
  progress: (done: number) => void,
): Promise<void> {
  await sql.query(
    `INSERT INTO rm.courses (id, topic, description, status, max_people, creator, created_at, updated_at)
     SELECT 'c0de' || lpad(to_hex(n), 20, '0'), 'Course ' || n, 'Benchmark course', 'public', 0, $2, now(), now()
       FROM generate_series(1, $1::int) AS n`,
    [courses, memberId(1)],
  );
  for (let from = 1; from <= count; from += CHUNK * 20) {
    const to = Math.min(count, from + CHUNK * 20 - 1);
    await sql.query(
      `INSERT INTO rm.scan_attempts (position, course_id, round_id, member_id, scanner_id, device_id, method, outcome,
                                   reason, device_time, server_time)
     SELECT n, 'c0de' || lpad(to_hex(1 + n % $2), 20, '0'), 'r' || (n % ($2 * 16)),
            '5eed' || lpad(to_hex(1 + (n::bigint * 7919) % $3), 20, '0'), '5eed' || lpad(to_hex(1 + n % 50), 20, '0'),
            'device-' || (n % 50), 'camera',
            CASE WHEN n % 20 = 0 THEN 'refused' WHEN n % 97 = 0 THEN 'voided' ELSE 'accepted' END,
            CASE WHEN n % 20 = 0 THEN 'not_enrolled' END,
            timestamptz '2025-01-01' + n * interval '30 seconds', timestamptz '2025-01-01' + n * interval '30 seconds'
       FROM generate_series($4::int, $1::int) AS n`,
      [to, courses, members, from],
    );
    progress(to);
  }
  // The counts the projector keeps with each insert.
  await sql.query(
    `INSERT INTO rm.scan_attempt_counts (course_id, round_id, outcome, n)
     SELECT course_id, round_id, outcome, count(*) FROM rm.scan_attempts GROUP BY course_id, round_id, outcome`,
  );
  // As PostgreSQL's autovacuum, or the embedded portal's own (embedded-statistics.ts), would have
  // by the time an admin opens the reports: the load starts at once after the seeding.
  await sql.query(`ANALYZE rm.scan_attempts`);
  await sql.query(`ANALYZE rm.accounts_sealed`);
}

const random = (n: number) => 1 + Math.floor(Math.random() * n);

/**
 * The report requests the benchmark sends, by kind, each varying its page, search term or member
 * from request to request so no two answers are the same. `sortedByName` is apart: its rate is
 * far lower (see README, Performance).
 */
export const reportRequests = (members: number): Record<string, () => string> => ({
  'registrations, a page, newest first': () => `/api/admin/registration?page=${random(100)}`,
  'registrations, a name search': () =>
    `/api/admin/registration?page=1&search=${encodeURIComponent(`son ${random(members)}`)}`,
  'registrations, approved, oldest first': () =>
    `/api/admin/registration?status=approved&sort=registrationDate&order=asc&page=${random(100)}`,
  'scan audit, a page, newest first': () => `/api/admin/audit/scans?page=${random(40)}`,
  "scan audit, one member's attempts": () => `/api/admin/audit/scans?page=1&memberId=${memberId(random(members))}`,
});

export const sortedByName = (): Record<string, () => string> => ({
  'registrations, approved, by name': () =>
    `/api/admin/registration?status=approved&sort=name&order=asc&page=${random(100)}`,
});
