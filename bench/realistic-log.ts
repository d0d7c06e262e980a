/**
 * A realistic event log of about `target` events, written straight into the log's tables in
 * large inserts (a generator, not the command side: a million commands would take an hour).
 * The mix and stream shapes are the portal's own: members and partners registering (personal data
 * sealed with a key per person, as the command side seals it), consenting and approved; courses
 * with 16 rounds each and 50 members enrolled, a few leaving; in every round 90% of the enrolled
 * scanned, a tenth of them scanned twice (refused as duplicates), one in a hundred voided, and one
 * unknown pass refused on the scanner's device stream.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  CompanyData,
  ConsentGiven,
  MemberApproved,
  MemberRegistered,
  PartnerRegistered,
  accountStream,
} from '@portal/contracts/accounts/account.events';
import {
  AttendanceScanned,
  AttendanceVoided,
  ScanRefused,
  attendanceStream,
  refusalStream,
} from '@portal/contracts/attendance/attendance.events';
import {
  CourseCreated,
  MemberEnrolled,
  MemberUnenrolled,
  RoundScheduled,
} from '@portal/contracts/courses/course.events';
import type { NewEvent } from '@portal/contracts/envelope';
import { wrapKey } from '@portal/platform/privacy/data-key';
import { sealWithKey } from '@portal/platform/privacy/personal-data';
import { withCheckDigit } from '@portal/platform/testing/accounts';
import type { SqlDatabase } from '@portal/platform/store/sql';

const ROUNDS = 16;
const ENROLLED = 50;
/** Events one course brings, with its rounds, enrolments and scans (measured from the mix below). */
const EVENTS_PER_COURSE = 900;
const CHUNK = 5000;

type Row = [streamId: string, revision: number, event: NewEvent];

export async function generateRealisticLog(
  db: SqlDatabase,
  target: number,
  onProgress?: (written: number) => void,
): Promise<{ events: number; members: number; courses: number }> {
  const courses = Math.max(1, Math.round(target / EVENTS_PER_COURSE));
  const members = Math.max(ENROLLED, courses * 20);
  const partners = Math.max(1, Math.ceil(courses / 20));
  const base = Date.UTC(2026, 0, 5, 9);
  const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();

  const pending: Row[] = [];
  const keys: [string, string][] = [];
  let written = 0;
  const flush = async (force = false) => {
    while (pending.length >= CHUNK || (force && pending.length > 0)) {
      const rows = pending.splice(0, CHUNK);
      await db.query(
        `INSERT INTO es.events (stream_id, stream_revision, type, schema_version, data, metadata)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::int[], $5::jsonb[], $6::jsonb[])`,
        [
          rows.map((r) => r[0]),
          rows.map((r) => r[1]),
          rows.map((r) => r[2].type),
          rows.map((r) => r[2].schemaVersion),
          rows.map((r) => JSON.stringify(r[2].data)),
          rows.map((r) => JSON.stringify(r[2].metadata ?? {})),
        ],
      );
      written += rows.length;
      onProgress?.(written);
    }
    if (keys.length >= CHUNK || (force && keys.length > 0)) {
      const batch = keys.splice(0);
      await db.query(
        `INSERT INTO privacy.subject_keys (subject_id, key) SELECT * FROM unnest($1::text[], $2::text[])`,
        [batch.map((k) => k[0]), batch.map((k) => k[1])],
      );
    }
  };
  const emit = async (streamId: string, revision: number, event: NewEvent) => {
    pending.push([streamId, revision, event]);
    if (pending.length >= CHUNK) await flush();
  };
  const keyOf = (subject: string) => {
    const key = randomBytes(32);
    keys.push([subject, wrapKey(subject, key)]);
    return key;
  };
  const consent = (minutes: number) =>
    ConsentGiven.create({
      documents: [
        { document: 'terms', version: '2026-01-01' },
        { document: 'privacy', version: '2026-01-01' },
      ],
      givenAt: at(minutes),
    });

  const memberIds: string[] = [];
  for (let m = 0; m < members; m++) {
    const id = randomUUID();
    memberIds.push(id);
    const personal = person(m);
    const stream = accountStream(id);
    await emit(
      stream,
      0,
      MemberRegistered.create({ personal: sealWithKey(keyOf(id), id, personal), registeredAt: at(m) }),
    );
    await emit(stream, 1, consent(m));
    await emit(stream, 2, MemberApproved.create({ approvedAt: at(m + 60) }));
  }
  const companyKeys = Object.keys(CompanyData.shape);
  const partnerIds: string[] = [];
  for (let p = 0; p < partners; p++) {
    const id = randomUUID();
    partnerIds.push(id);
    const form = { ...person(members + p), ...company(p) };
    const pick = (company: boolean) =>
      Object.fromEntries(Object.entries(form).filter(([key]) => companyKeys.includes(key) === company));
    const key = keyOf(id);
    const stream = accountStream(id);
    await emit(
      stream,
      0,
      PartnerRegistered.create({
        personal: sealWithKey(key, id, pick(false)),
        company: sealWithKey(key, id, { ...pick(true), shopLatitude: 13.73, shopLongitude: 100.56 }),
        registeredAt: at(p),
      }),
    );
    await emit(stream, 1, consent(p));
    await emit(stream, 2, MemberApproved.create({ approvedAt: at(p + 60) }));
  }

  for (let c = 0; c < courses; c++) {
    const courseId = randomUUID();
    const partner = partnerIds[c % partners]!;
    const stream = `course-${courseId}`;
    let revision = 0;
    const start = 10_000 + c * 30;
    await emit(
      stream,
      revision++,
      CourseCreated.create({
        courseTopic: `Course ${c}`,
        courseDescription: 'Knife skills, stocks and sauces',
        maxPeople: ENROLLED + 10,
        status: 'public',
        creator: partner,
        createdAt: at(start),
      }),
    );
    const rounds = Array.from({ length: ROUNDS }, () => randomUUID());
    for (const [r, roundId] of rounds.entries()) {
      await emit(
        stream,
        revision++,
        RoundScheduled.create({
          roundId,
          roundStartTime: at(start + 10_080 * (r + 1)),
          roundEndTime: at(start + 10_080 * (r + 1) + 120),
          scheduledAt: at(start),
        }),
      );
    }
    const enrolled = Array.from({ length: ENROLLED }, (_, i) => memberIds[(c * 7 + i * 13) % members]!);
    const unique = [...new Set(enrolled)];
    for (const [i, memberId] of unique.entries()) {
      await emit(stream, revision++, MemberEnrolled.create({ memberId, enrolledAt: at(start + 1 + i) }));
    }
    // Two leave after the first round.
    for (const memberId of unique.slice(0, 2)) {
      await emit(stream, revision++, MemberUnenrolled.create({ memberId, unenrolledAt: at(start + 10_300) }));
    }
    for (const [r, roundId] of rounds.entries()) {
      const roundStart = start + 10_080 * (r + 1);
      const present = unique.slice(r === 0 ? 0 : 2).filter((_, i) => (i + r) % 10 !== 0);
      for (const [i, memberId] of present.entries()) {
        const scannedAt = at(roundStart + (i % 30));
        const attempt = {
          courseId,
          roundId,
          scannerId: partner,
          deviceId: `tablet-${c % 3}`,
          method: 'camera' as const,
          deviceTime: scannedAt,
          serverTime: scannedAt,
          lateUploaded: false,
        };
        const attendance = attendanceStream(roundId, memberId);
        await emit(
          attendance,
          0,
          AttendanceScanned.create({ ...attempt, memberId, scannedAt, late: i % 30 > 15, walkIn: false }),
        );
        if (i % 10 === 3) {
          await emit(
            attendance,
            1,
            ScanRefused.create({ ...attempt, memberId, reason: 'duplicate', firstScannedAt: scannedAt }),
          );
        } else if (i % 100 === 7) {
          await emit(
            attendance,
            1,
            AttendanceVoided.create({
              courseId,
              roundId,
              memberId,
              reason: 'wrong person',
              voidedBy: partner,
              voidedAt: at(roundStart + 60),
            }),
          );
        }
      }
      const unknownAt = at(roundStart + 5);
      await emit(
        refusalStream(roundId, `tablet-${c % 3}`),
        0,
        ScanRefused.create({
          courseId,
          roundId,
          memberId: null,
          scannerId: partner,
          deviceId: `tablet-${c % 3}`,
          method: 'camera',
          deviceTime: unknownAt,
          serverTime: unknownAt,
          lateUploaded: false,
          reason: 'unknownMember',
          firstScannedAt: null,
        }),
      );
    }
  }
  await flush(true);
  await db.query(
    `INSERT INTO es.streams (stream_id, revision) SELECT stream_id, max(stream_revision) FROM es.events GROUP BY stream_id
     ON CONFLICT (stream_id) DO UPDATE SET revision = EXCLUDED.revision`,
  );
  return { events: written, members, courses };
}

/** A registration's personal fields, unique by `n` (as the registration form sends them). */
const person = (n: number) => {
  const digits = String(n).padStart(8, '0');
  return {
    username: `member${digits}`,
    title: 'นาย',
    fullName: `สมชาย ทดสอบ ${digits}`,
    personalId: withCheckDigit(`1101${digits}`),
    personalPhone: `08${digits}`,
    personalEmail: `member${digits}@example.com`,
    personalAddress: '1 Sukhumvit Road',
    personalProvince: 'กรุงเทพมหานคร',
    personalDistrict: 'วัฒนา',
    personalSubdistrict: 'คลองเตยเหนือ',
    personalPostalCode: '10110',
  };
};

const company = (n: number) => {
  const digits = String(n).padStart(8, '0');
  return {
    companyName: `Training Co ${digits}`,
    companyTaxId: withCheckDigit(`0105${digits}`),
    companyAddress: '99 Rama IV Road',
    companyProvince: 'กรุงเทพมหานคร',
    companyDistrict: 'ปทุมวัน',
    companySubdistrict: 'ลุมพินี',
    companyPostalCode: '10330',
    companyPhone: `02${digits}`,
    companyEmail: `office${digits}@training.example.com`,
  };
};
