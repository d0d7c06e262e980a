import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountIdOf, accountStream } from '@portal/events/accounts/account.events';
import { HttpError } from '@portal/events/http/errors';
import { languageOf } from '@portal/events/http/language';
import { translate } from '@portal/events/rules/messages';
import { MemberRegistration, type UniqueField, uniqueFields } from '@portal/events/rules/registration';
import type { AppendResult } from '@portal/events/store/port';
import { UNIQUE_VIOLATION, type Sql, sqlState } from '@portal/events/store/sql';
import { handleCommand } from '../core/command-handler.ts';
import { idempotencyOf, metadataOf } from '../core/request-context.ts';
import { type UniqueValues, reserve, saveCredentials, takenFields } from './credentials.ts';
import { accountDecider } from './decider.ts';
import { hashPassword } from './passwords.ts';

/** Account ids look like the old product's (24 hex digits), and say nothing about the person. */
export const newAccountId = () => randomBytes(12).toString('hex');

/** The spec's duplicate answer: `error`, a flag per unique field, and a message per taken field. */
async function refuseIfTaken(sql: Sql, values: UniqueValues, request: FastifyRequest): Promise<void> {
  const taken = await takenFields(sql, values);
  if (taken.length === 0) return;
  const language = languageOf(request);
  const fields = Object.fromEntries(uniqueFields.map((field) => [field, taken.includes(field)]));
  const errors = Object.fromEntries(taken.map((field) => [field, translate(`duplicate.${field}`, language)]));
  throw new HttpError(409, 'duplicate.error', { error: translate('duplicate.error', 'th'), fields, errors });
}

export async function registerRoutes(app: FastifyInstance): Promise<void> {
  const { db, store } = app.commands;
  const answer = (request: FastifyRequest, result: AppendResult) => ({
    success: true,
    message: translate('register.success', languageOf(request)),
    _id: accountIdOf(result.streamId),
    position: result.position,
  });

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/members/register',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Register a member (awaits approval by an admin)',
        body: MemberRegistration,
      },
    },
    async (request, reply) => {
      const idempotency = idempotencyOf(request);
      const earlier = idempotency && (await store.findIdempotent(idempotency.key, idempotency.fingerprint));
      if (earlier) return reply.code(201).send(answer(request, earlier));

      const { password, ...profile } = request.body;
      const unique = Object.fromEntries(uniqueFields.map((field) => [field, profile[field]])) as Record<
        UniqueField,
        string
      >;
      await refuseIfTaken(db, unique, request);
      const passwordHash = await hashPassword(password);
      const accountId = newAccountId();
      try {
        const result = await handleCommand(
          store,
          accountDecider,
          accountStream(accountId),
          { type: 'RegisterMember', data: { ...profile, now: new Date().toISOString() } },
          {
            idempotency,
            metadata: metadataOf(request),
            inSameTransaction: async (tx) => {
              await reserve(tx, accountId, unique);
              await saveCredentials(tx, accountId, 'member', passwordHash);
            },
          },
        );
        return reply.code(201).send(answer(request, result));
      } catch (error) {
        // Two registrations raced past the first check: the loser gets the same duplicate answer.
        if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
        await refuseIfTaken(db, unique, request);
        throw new HttpError(409, 'request.conflict');
      }
    },
  );
}
