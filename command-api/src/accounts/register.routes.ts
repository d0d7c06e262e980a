import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CompanyData, type Role, accountIdOf, accountStream } from '@portal/contracts/accounts/account.events';
import { languageOf } from '@portal/platform/http/language';
import { seal } from '@portal/platform/privacy/personal-data';
import { consentToCurrentTexts } from '@portal/contracts/rules/legal';
import { type MessageKey, translate } from '@portal/contracts/rules/messages';
import {
  type MemberRegistration,
  MemberSelfRegistration,
  PartnerRegistration,
  type UniqueField,
  conflictLabels,
  partnerUniqueFields,
  uniqueFields,
} from '@portal/contracts/rules/registration';
import type { AppendResult } from '@portal/platform/store/port';
import { UNIQUE_VIOLATION, type Sql, sqlState } from '@portal/platform/store/sql';
import { handleCommand } from '../core/command-handler.ts';
import type { CommandMetadata } from '../core/command.ts';
import { newId } from '../core/ids.ts';
import { commandMetadataOf, idempotencyOf, metadataOf } from '../core/request-context.ts';
import { type UniqueValues, reserve, saveCredentials, takenFields } from './credentials.ts';
import type { AccountCommand } from './decide.ts';
import { accountDecider } from './decider.ts';
import { hashPassword } from './passwords.ts';
import { conflict } from '@portal/platform/domain/errors';
import { Registered } from '@portal/contracts/answers';

type DuplicateAnswer = (taken: UniqueField[], request: FastifyRequest) => Record<string, unknown>;

/** The member form's duplicate answer: `error`, a flag per unique field, a message per taken field. */
const memberDuplicates: DuplicateAnswer = (taken, request) => ({
  error: translate('duplicate.error', languageOf(request)),
  fields: Object.fromEntries(uniqueFields.map((field) => [field, taken.includes(field)])),
  errors: Object.fromEntries(taken.map((field) => [field, translate(`duplicate.${field}`, languageOf(request))])),
});

/** The partner form's: the same, with `conflicts`, the Thai labels of the taken fields. */
const partnerDuplicates: DuplicateAnswer = (taken, request) => ({
  ...memberDuplicates(taken, request),
  fields: Object.fromEntries(partnerUniqueFields.map((field) => [field, taken.includes(field)])),
  conflicts: taken.map((field) => conflictLabels[field]),
});

interface Registration {
  role: Exclude<Role, 'admin'>;
  password: string;
  unique: UniqueValues;
  duplicates: DuplicateAnswer;
  /** The command, once the person's data is sealed with the new account's key. */
  command(accountId: string, metadata: CommandMetadata): Promise<AccountCommand>;
}

/**
 * Registers an account: refuses taken values, seals the person's data, appends the events and
 * reserves the unique values and saves the password hash in the same transaction.
 */
export async function registerAccount(
  app: FastifyInstance,
  request: FastifyRequest,
  registration: Registration,
  /** An import's row: its own idempotency key, and the import's one unusable password hash. */
  imported?: { idempotency: { key: string; fingerprint: string }; passwordHash: string },
): Promise<AppendResult> {
  const { db, store } = app.commands;
  const idempotency = imported?.idempotency ?? idempotencyOf(request);
  const earlier = idempotency && (await store.findIdempotent(idempotency.key, idempotency.fingerprint));
  if (earlier) return earlier;

  const refuseIfTaken = async (sql: Sql) => {
    const taken = await takenFields(sql, registration.unique);
    if (taken.length > 0) throw conflict('duplicate.error', registration.duplicates(taken, request));
  };
  await refuseIfTaken(db);
  const passwordHash = imported?.passwordHash ?? (await hashPassword(registration.password));
  const accountId = newId();
  const command = await registration.command(accountId, commandMetadataOf(request));
  try {
    return await handleCommand(store, accountDecider, accountStream(accountId), command, {
      idempotency,
      metadata: metadataOf(request),
      inSameTransaction: async (tx) => {
        await reserve(tx, accountId, registration.unique);
        await saveCredentials(tx, accountId, registration.role, passwordHash);
      },
    });
  } catch (error) {
    // Two registrations raced past the first check: the loser gets the same duplicate answer.
    if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
    await refuseIfTaken(db);
    throw conflict('request.conflict');
  }
}

const pick = <Field extends string>(values: Record<string, unknown>, fields: readonly Field[]) =>
  Object.fromEntries(fields.map((field) => [field, values[field]])) as Record<Field, string>;

/**
 * A member's registration: their unique values, the spec's duplicate answer, and the command once
 * their data is sealed. Self-registration records consent; an admin's (/addemployee) approves.
 */
export const memberRegistration = (
  sql: Sql,
  password: string,
  personal: Omit<MemberRegistration, 'password'>,
  options: { consent: ReturnType<typeof consentToCurrentTexts> | null; approved: boolean },
): Registration => ({
  role: 'member',
  password,
  unique: pick(personal, uniqueFields),
  duplicates: memberDuplicates,
  command: async (accountId, metadata) => ({
    type: 'RegisterMember',
    data: { personal: await seal(sql, accountId, personal), ...options },
    metadata,
  }),
});

/** The answer to a registration: the new account's `_id` and the position of its events. */
export const registered = (
  request: FastifyRequest,
  result: AppendResult,
  message: MessageKey = 'register.success',
) => ({
  success: true as const,
  message: translate(message, languageOf(request)),
  _id: accountIdOf(result.streamId),
  position: result.position,
});

/** Public: anyone may register as a member or a partner. */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/members/register',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Register a member (awaits approval by an admin); records consent to the terms and privacy notice',
        body: MemberSelfRegistration,
        response: { 201: Registered },
      },
    },
    async (request, reply) => {
      const { password, acceptTerms: _accepted, ...personal } = request.body;
      const result = await registerAccount(
        app,
        request,
        memberRegistration(db, password, personal, { consent: consentToCurrentTexts(), approved: false }),
      );
      return reply.code(201).send(registered(request, result));
    },
  );

  routes.post(
    '/api/partners/register',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Register a partner with their company (awaits approval by an admin)',
        body: PartnerRegistration,
        response: { 201: Registered },
      },
    },
    async (request, reply) => {
      const { password, acceptTerms: _accepted, ...fields } = request.body;
      const isCompanyField = ([field]: [string, unknown]) => field in CompanyData.shape;
      const company = Object.fromEntries(Object.entries(fields).filter(isCompanyField));
      const personal = Object.fromEntries(Object.entries(fields).filter((entry) => !isCompanyField(entry)));
      const result = await registerAccount(app, request, {
        role: 'partner',
        password,
        unique: pick(fields, partnerUniqueFields),
        duplicates: partnerDuplicates,
        command: async (accountId, metadata) => ({
          type: 'RegisterPartner',
          metadata,
          data: {
            personal: await seal(db, accountId, personal),
            company: await seal(db, accountId, company),
            consent: consentToCurrentTexts(),
          },
        }),
      });
      return reply.code(201).send(registered(request, result));
    },
  );
}
