import { randomBytes } from 'node:crypto';
import type { Role } from '@portal/contracts/accounts/roles';
import {
  CompanyData,
  PersonalData,
  accountStream,
  decodeAccountEvent,
} from '@portal/contracts/accounts/account.events';
import { decodeAttendanceEvent, attendanceStream } from '@portal/contracts/attendance/attendance.events';
import {
  CertificateIssued,
  CompletionChecked,
  certificateStream,
  completionStream,
} from '@portal/contracts/certificates/certificate.events';
import type { EventMetadata } from '@portal/contracts/envelope';
import type { Sealed } from '@portal/contracts/privacy/sealed';
import { translate } from '@portal/contracts/rules/messages';
import { certificatePdf, englishDate, thaiDate } from '@portal/platform/certificates/certificate-pdf';
import { conflict } from '@portal/platform/domain/errors';
import { open } from '@portal/platform/privacy/personal-data';
import { type EventStore, type StreamFold, WrongExpectedRevision } from '@portal/platform/store/port';
import type { Sql } from '@portal/platform/store/sql';
import type { Actor } from '../core/command.ts';
import type { Mailer } from '../outreach/mailer.ts';
import { sendSealedLetter } from '../outreach/sealed-letter.ts';
import { type Completer, completers, completionFold, courseToCertify, lastRoundEnd } from './completion.ts';

export interface CertifyDeps {
  db: Sql;
  store: EventStore;
  mailer: Mailer;
}

/** Whether a member's scan in a round counts: accepted and not voided since. */
const attendedFold: StreamFold<boolean> = {
  initial: () => false,
  evolve(state, stored) {
    const event = decodeAttendanceEvent(stored);
    if (event?.type === 'AttendanceScanned') return true;
    if (event?.type === 'AttendanceVoided') return false;
    return state;
  },
};

/** An account as a certificate names it: its sealed personal data and, for a partner, its company. */
type Named = { personal: Sealed | null; company: Sealed | null; role: Role };
const namedFold: StreamFold<Named> = {
  initial: () => ({ personal: null, company: null, role: 'member' }),
  evolve(state, stored) {
    const event = decodeAccountEvent(stored);
    switch (event?.type) {
      case 'MemberRegistered':
        return { personal: event.data.personal, company: null, role: 'member' };
      case 'AdminCreated':
        return { personal: event.data.personal, company: null, role: 'admin' };
      case 'PartnerRegistered':
        return { personal: event.data.personal, company: event.data.company, role: 'partner' };
      case 'ProfileUpdated':
        return { ...state, personal: event.data.personal };
      case 'PersonalDataErased':
      case 'RegistrationDeleted':
        return { ...state, personal: null, company: null };
      default:
        return state;
    }
  },
};

const CHUNK = 1000;

/**
 * Decides a course's certificates (issue 23), once its last round has ended: every member who
 * attended the course's share of its held rounds and has no certificate of it gets one, and is
 * e-mailed it. Each certificate stream takes one issue, so deciding again (the sweep after a
 * manual issue, two command services at once) never issues twice; a revoked certificate stays
 * revoked. `actor`: the creator or an admin asking now; absent when the sweep asks. The e-mails
 * go out after (`mailed`): whoever asked need not wait for a class's worth of SMTP.
 */
export async function certifyCourse(
  deps: CertifyDeps,
  courseId: string,
  options: { now: Date; actor?: Actor; origin: string; eventMetadata: EventMetadata },
): Promise<{ issued: number; position: number; mailed: Promise<void> }> {
  const course = await courseToCertify(deps.store, courseId, options.actor);
  const ends = lastRoundEnd(course.rounds);
  if (ends === null || Date.parse(ends) > options.now.getTime()) throw conflict('certificate.courseNotOver');
  const { state: rule } = await deps.store.readFolded(completionStream(courseId), completionFold);

  const pairs = course.members.flatMap((memberId) =>
    course.rounds.map((round) => ({ memberId, roundId: round.roundId })),
  );
  const attended = new Set<string>();
  for (let from = 0; from < pairs.length; from += CHUNK) {
    const chunk = pairs.slice(from, from + CHUNK);
    const folded = await deps.store.readFoldedMany(
      chunk.map((pair) => ({
        streamId: attendanceStream(pair.roundId, pair.memberId),
        fold: attendedFold as StreamFold<unknown>,
      })),
    );
    folded.forEach((one, i) => {
      const pair = chunk[i]!;
      if (one.state) attended.add(`${pair.memberId} ${pair.roundId}`);
    });
  }
  const completed = completers(course.rounds, course.members, rule.percent, (member, round) =>
    attended.has(`${member} ${round}`),
  );

  const now = options.now.toISOString();
  const issued: { completer: Completer; certificateId: string }[] = [];
  for (const completer of completed) {
    const certificateId = randomBytes(16).toString('base64url');
    const event = CertificateIssued.create({
      certificateId,
      courseId,
      courseTopic: course.topic,
      issuerId: course.creator,
      ...completer,
      percent: rule.percent,
      issuedAt: now,
    });
    try {
      await deps.store.append(
        certificateStream(courseId, completer.memberId),
        [{ ...event, metadata: options.eventMetadata }],
        { expectedRevision: 'no_stream' },
      );
      issued.push({ completer, certificateId });
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision)) throw error;
    }
  }
  const checked = CompletionChecked.create({
    courseId,
    heldRounds: course.rounds.length,
    issued: issued.length,
    checkedAt: now,
  });
  const result = await deps.store.append(
    completionStream(courseId),
    [{ ...checked, metadata: options.eventMetadata }],
    {
      expectedRevision: 'any',
    },
  );
  const mailed = (async () => {
    const { name: issuer, role } = await issuerOf(deps, course.creator);
    for (const { completer, certificateId } of issued) {
      await mailCertificate(deps, {
        ...completer,
        certificateId,
        courseTopic: course.topic,
        issuer,
        issuedAt: now,
        creator: { id: course.creator, role },
        origin: options.origin,
        eventMetadata: options.eventMetadata,
      }).catch(() => undefined); // recorded as a failed e-mail; the certificate stands, downloadable
    }
  })();
  return { issued: issued.length, position: result.position, mailed };
}

/** Who issues a course's certificates: the creator's shop when they are a partner, otherwise their name. */
async function issuerOf(deps: CertifyDeps, accountId: string): Promise<{ name: string; role: Role }> {
  const { state } = await deps.store.readFolded(accountStream(accountId), namedFold);
  const company = state.company && (await open(deps.db, state.company, CompanyData));
  if (company?.companyName) return { name: company.companyName, role: state.role };
  const person = state.personal && (await open(deps.db, state.personal, PersonalData));
  return { name: person?.fullName || person?.username || '', role: state.role };
}

async function mailCertificate(
  deps: CertifyDeps,
  c: Completer & {
    certificateId: string;
    courseTopic: string;
    issuer: string;
    issuedAt: string;
    creator: { id: string; role: Role };
    origin: string;
    eventMetadata: EventMetadata;
  },
) {
  const { state } = await deps.store.readFolded(accountStream(c.memberId), namedFold);
  const person = state.personal && (await open(deps.db, state.personal, PersonalData));
  if (!person?.personalEmail) return;
  const memberName = person.fullName || person.username;
  const verifyUrl = `${c.origin}/verify/${c.certificateId}`;
  const pdf = await certificatePdf({ ...c, memberName, verifyUrl });
  const subject = `${translate('certificate.subject', 'th')} / ${translate('certificate.subject', 'en')}`;
  const text = [
    `สวัสดี ${memberName}`,
    `คุณผ่านหลักสูตร “${c.courseTopic}” เมื่อ ${thaiDate(c.issuedAt)} ประกาศนียบัตรแนบมากับอีเมลนี้`,
    `ตรวจสอบได้ที่ ${verifyUrl}`,
    '',
    `Hello ${memberName},`,
    `You completed “${c.courseTopic}” on ${englishDate(c.issuedAt)}. Your certificate is attached.`,
    `Anyone can check it at ${verifyUrl}`,
  ].join('\n');
  await sendSealedLetter(deps, {
    accountId: c.memberId,
    letter: {
      to: person.personalEmail,
      subject,
      text,
      attachments: [{ filename: `certificate-${c.certificateId}.pdf`, content: pdf, contentType: 'application/pdf' }],
    },
    // The letter goes out in the course creator's name, as the issuer.
    metadata: { actor: c.creator, now: c.issuedAt },
    eventMetadata: c.eventMetadata,
  });
}
