import { Done } from '@portal/contracts/answers';
import { PersonalData, accountStream } from '@portal/contracts/accounts/account.events';
import { PasswordSetByLink } from '@portal/contracts/rules/profile';
import { type Language, translate } from '@portal/contracts/rules/messages';
import { conflict, notFound } from '@portal/platform/domain/errors';
import { languageOf } from '@portal/platform/http/language';
import { revokeSessions } from '@portal/platform/http/revocations';
import { open } from '@portal/platform/privacy/personal-data';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { handleCommand, loadState } from '../core/command-handler.ts';
import { commandMetadataOf, idempotencyOf, metadataOf, signedInMetadataOf } from '../core/request-context.ts';
import { fieldError } from '../core/uploaded-image.ts';
import type { Mailer } from '../outreach/mailer.ts';
import { sendSealedLetter } from '../outreach/sealed-letter.ts';
import { lockedPasswordHashOf, passwordHashOf, savePasswordHash } from './credentials.ts';
import { accountDecider } from './decider.ts';
import { hashPassword } from './passwords.ts';
import { PASSWORD_LINK_MS, passwordLinkToken, passwordState, readPasswordLinkToken } from './password-links.ts';

const AccountId = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'profile.notFound') });

/** The letter: both languages, as the person's own is not known yet. */
function letter(link: string, name: string) {
  const line = (language: Language) => translate('passwordLink.subject', language);
  return {
    subject: `${line('th')} / ${line('en')}`,
    text: [
      `สวัสดี ${name}`,
      `ตั้งรหัสผ่านของคุณได้ที่ลิงก์นี้ (ใช้ได้ครั้งเดียว ภายใน 7 วัน):`,
      link,
      '',
      `Hello ${name},`,
      'Set your password at this link (it works once, for 7 days):',
      link,
    ].join('\n'),
  };
}

/**
 * E-mails an account a link to set its password (through SMTP, or kept in the outbox), recorded
 * as every e-mail is. What it says is sealed with the account's own key, so erasing the person
 * erases the letter too. Answers how it went out.
 */
export async function sendPasswordLink(
  app: FastifyInstance,
  mailer: Mailer,
  request: FastifyRequest,
  accountId: string,
): Promise<{ transport: 'smtp' | 'outbox'; position: number }> {
  const { db, store, attendance } = app.commands;
  const account = await loadState(store, accountDecider, accountStream(accountId));
  const person = 'personal' in account ? await open(db, account.personal, PersonalData) : null;
  if (!person) throw notFound('profile.notFound');
  if (!person.personalEmail) throw conflict('passwordLink.noEmail');
  const token = passwordLinkToken(attendance.passSecret, {
    accountId,
    state: passwordState(await passwordHashOf(db, accountId)),
    expiresAt: Date.now() + PASSWORD_LINK_MS,
  });
  const link = `${request.protocol}://${request.host}/set-password?token=${token}`;
  const { subject, text } = letter(link, person.fullName || person.username);
  return sendSealedLetter(
    { db, store, mailer },
    {
      accountId,
      letter: { to: person.personalEmail, subject, text },
      metadata: signedInMetadataOf(request),
      eventMetadata: metadataOf(request),
    },
  );
}

/**
 * Setting a password from an e-mailed link (public: the link is the permission). The token must be
 * the server's, unexpired, and bound to the password the account has now, checked with the row
 * locked, so a link works once even when sent twice at the same instant. Every session of the
 * account ends.
 */
export async function passwordSetRoutes(app: FastifyInstance): Promise<void> {
  const { store, db, attendance } = app.commands;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/password/set',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Set your password from the link an administrator had e-mailed to you (it works once, for 7 days)',
        body: PasswordSetByLink,
        response: { 200: Done },
      },
    },
    async (request) => {
      const invalid = () => fieldError(request, 400, 'token', 'passwordLink.invalid');
      const link = readPasswordLinkToken(attendance.passSecret, request.body.token, Date.now());
      if (!link || passwordState(await passwordHashOf(db, link.accountId)) !== link.state) throw invalid();
      const passwordHash = await hashPassword(request.body.newPassword);
      const result = await handleCommand(
        store,
        accountDecider,
        accountStream(link.accountId),
        { type: 'ChangePassword', data: {}, metadata: commandMetadataOf(request) },
        {
          idempotency: idempotencyOf(request),
          metadata: metadataOf(request),
          inSameTransaction: async (tx) => {
            if (passwordState(await lockedPasswordHashOf(tx, link.accountId)) !== link.state) throw invalid();
            await savePasswordHash(tx, link.accountId, passwordHash);
            await revokeSessions(tx, link.accountId);
          },
        },
      );
      app.sessionsEnded();
      return {
        success: true as const,
        message: translate('passwordLink.set', languageOf(request)),
        position: result.position,
      };
    },
  );
}

/** Admins e-mail a member or partner a link to set their password (again). */
export async function passwordLinkAdminRoutes(app: FastifyInstance, options: { mailer: Mailer }): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/admin/members/:id/password-link',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['accounts'],
        summary: 'E-mail a person a link to set their password (admins); kept in the outbox without SMTP_URL',
        params: AccountId,
        response: { 200: Done.extend({ transport: z.enum(['smtp', 'outbox']) }) },
      },
    },
    async (request) => {
      const sent = await sendPasswordLink(app, options.mailer, request, request.params.id);
      return {
        success: true as const,
        message: translate(sent.transport === 'smtp' ? 'passwordLink.sent' : 'passwordLink.kept', languageOf(request)),
        ...sent,
      };
    },
  );
}
