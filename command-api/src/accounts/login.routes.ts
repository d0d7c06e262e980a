import { SignedOut } from '@portal/contracts/answers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PersonalData, accountStream } from '@portal/contracts/accounts/account.events';
import { LoginAnswer } from '@portal/contracts/accounts/login.contract';
import { languageOf } from '@portal/platform/http/language';
import { endSession } from '@portal/platform/http/revocations';
import { SESSION_COOKIE } from '@portal/platform/http/session';
import { open } from '@portal/platform/privacy/personal-data';
import { translate } from '@portal/contracts/rules/messages';
import { LoginRequest } from '@portal/contracts/rules/registration';
import { loadState } from '../core/command-handler.ts';
import type { RegistrationStatus } from './account.ts';
import { findCredentials } from './credentials.ts';
import { accountDecider } from './decider.ts';
import { passwordMatches } from './passwords.ts';
import { admitSignIn } from './sign-in-throttle.ts';
import { forbidden, unauthenticated } from '@portal/platform/domain/errors';

/** The status words the old product stored and the console shows (spec 000 section 4). */
export const statusLabels: Record<RegistrationStatus, string> = {
  pending: 'รอยืนยัน',
  rejected: 'ไม่ยืนยัน',
  approved: 'ยืนยันแล้ว',
};

export async function loginRoutes(app: FastifyInstance): Promise<void> {
  const { db, store } = app.commands;
  const throttle = app.commands.signInThrottle;

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/login',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign in; the token comes back in the answer and as an httpOnly cookie',
        body: LoginRequest,
        response: { 200: LoginAnswer },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const attempt = await admitSignIn(throttle, reply, username, request.ip);
      const credentials = await findCredentials(db, username);
      // Unknown user and wrong password get the same answer, after the same work; the try stays counted.
      if (!(await passwordMatches(credentials?.passwordHash, password)) || !credentials) {
        throw unauthenticated('login.failed');
      }
      await throttle.succeeded(attempt, username, request.ip);
      const account = await loadState(store, accountDecider, accountStream(credentials.accountId));
      if (!('personal' in account)) throw unauthenticated('login.failed');
      const profile = await open(db, account.personal, PersonalData);
      if (!profile) throw unauthenticated('login.failed');
      if (account.status !== 'approved') {
        throw forbidden(account.status === 'pending' ? 'login.pending' : 'login.rejected', {
          status: statusLabels[account.status],
        });
      }
      const token = await app.issueSession(reply, {
        accountId: credentials.accountId,
        role: account.role,
        username: profile.username,
      });
      return {
        success: true as const,
        message: translate('login.success', languageOf(request)),
        partner: {
          token,
          _id: credentials.accountId,
          partnerId: account.role === 'partner' ? credentials.accountId : null,
          title: profile.title,
          fullName: profile.fullName,
          username: profile.username,
          role: account.role,
          status: statusLabels[account.status],
          personalPhone: profile.personalPhone,
          personalEmail: profile.personalEmail,
          profile_img: null,
        },
      };
    },
  );

  app.post(
    '/api/logout',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign out: ends the session (cookie or bearer token) on the server',
        response: { 200: SignedOut },
      },
    },
    async (request, reply) => {
      if (request.session) {
        // With its NOTIFY in one transaction: other processes are told whenever it commits.
        await db.transaction((tx) => endSession(tx, request.session!));
        app.sessionsEnded();
      }
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true as const };
    },
  );
}
