import { Done, Registered } from '@portal/contracts/answers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountStream } from '@portal/contracts/accounts/account.events';
import { languageOf } from '@portal/platform/http/language';
import { type MessageKey, translate } from '@portal/contracts/rules/messages';
import { MemberRegistration, RegistrationStatusChange } from '@portal/contracts/rules/registration';
import { handleCommand } from '../core/command-handler.ts';
import { idempotencyOf, metadataOf, signedInMetadataOf } from '../core/request-context.ts';
import { forgetAccount } from './credentials.ts';
import { revokeSessions } from '@portal/platform/http/revocations';
import { accountDecider } from './decider.ts';
import { removeProfileImages } from './profile-image.ts';
import { memberRegistration, registerAccount, registered } from './register.routes.ts';

const RegistrationId = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'registration.notFound') });

/**
 * Admins only, checked from the verified session: create members (/addemployee), approve, reject
 * and delete registrations, erase personal data.
 */
export async function registrationAdminRoutes(app: FastifyInstance): Promise<void> {
  const { db, store, uploadsDir } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/admin/members',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['accounts'],
        summary: 'Create a member account, approved from the start (admins only; /addemployee)',
        body: MemberRegistration,
        response: { 201: Registered },
      },
    },
    async (request, reply) => {
      const { password, ...personal } = request.body;
      const result = await registerAccount(
        app,
        request,
        memberRegistration(db, password, personal, { consent: null, approved: true }),
      );
      return reply.code(201).send(registered(request, result, 'employee.created'));
    },
  );

  routes.put(
    '/api/admin/registration/:id/status',
    {
      config: { roles: ['admin'] },
      schema: {
        response: { 200: Done },
        tags: ['registrations'],
        summary: 'Approve or reject a member or partner registration',
        params: RegistrationId,
        body: RegistrationStatusChange,
      },
    },
    async (request) => {
      const result = await handleCommand(
        store,
        accountDecider,
        accountStream(request.params.id),
        {
          type: 'ChangeRegistrationStatus',
          data: { status: request.body.status },
          metadata: signedInMetadataOf(request),
        },
        {
          idempotency: idempotencyOf(request),
          metadata: metadataOf(request),
          // A rejected account is signed out everywhere at once.
          inSameTransaction: async (tx) => {
            if (request.body.status === 'rejected') await revokeSessions(tx, request.params.id);
          },
        },
      );
      if (request.body.status === 'rejected') app.sessionsEnded();
      return {
        success: true as const,
        message: translate('registration.statusChanged', languageOf(request)),
        position: result.position,
      };
    },
  );

  /** Deleting and erasing both forget the account: its values, password, key, sessions and photos. */
  const forget = async (
    request: FastifyRequest,
    accountId: string,
    type: 'DeleteRegistration' | 'ErasePersonalData',
    message: MessageKey,
  ) => {
    const result = await handleCommand(
      store,
      accountDecider,
      accountStream(accountId),
      { type, data: {}, metadata: signedInMetadataOf(request) },
      {
        idempotency: idempotencyOf(request),
        metadata: metadataOf(request),
        inSameTransaction: (tx) => forgetAccount(tx, accountId),
      },
    );
    app.sessionsEnded();
    await removeProfileImages(uploadsDir, accountId);
    return { success: true as const, message: translate(message, languageOf(request)), position: result.position };
  };

  routes.delete(
    '/api/admin/registration/:id',
    {
      config: { roles: ['admin'] },
      schema: {
        response: { 200: Done },
        tags: ['registrations'],
        summary: 'Delete a registration; frees its username and contacts',
        params: RegistrationId,
      },
    },
    (request) => forget(request, request.params.id, 'DeleteRegistration', 'registration.deleted'),
  );

  routes.delete(
    '/api/admin/members/:id/personal-data',
    {
      config: { roles: ['admin'] },
      schema: {
        response: { 200: Done },
        tags: ['registrations'],
        summary:
          "Erase a member's or partner's personal data (PDPA): their key is deleted, read models are scrubbed, counts stay",
        params: RegistrationId,
      },
    },
    (request) => forget(request, request.params.id, 'ErasePersonalData', 'erasure.done'),
  );
}
