import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountStream } from '@portal/events/accounts/account.events';
import { languageOf } from '@portal/events/http/language';
import { requireRole } from '@portal/events/http/session';
import { translate } from '@portal/events/rules/messages';
import { RegistrationStatusChange } from '@portal/events/rules/registration';
import { handleCommand } from '../core/command-handler.ts';
import { idempotencyOf, metadataOf } from '../core/request-context.ts';
import { forgetAccount } from './credentials.ts';
import { accountDecider } from './decider.ts';
import { removeProfileImages } from './profile-image.ts';

const RegistrationId = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'registration.notFound') });

/** Approve, reject and delete registrations: admins only, checked from the verified session. */
export async function registrationAdminRoutes(app: FastifyInstance): Promise<void> {
  const { store, uploadsDir } = app.commands;
  app.addHook('preValidation', requireRole('admin'));
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.put(
    '/api/admin/registration/:id/status',
    {
      schema: {
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
        { type: 'ChangeRegistrationStatus', data: { status: request.body.status, now: new Date().toISOString() } },
        { idempotency: idempotencyOf(request), metadata: metadataOf(request) },
      );
      return {
        success: true,
        message: translate('registration.statusChanged', languageOf(request)),
        position: result.position,
      };
    },
  );

  routes.delete(
    '/api/admin/registration/:id',
    {
      schema: {
        tags: ['registrations'],
        summary: 'Delete a registration; frees its username and contacts',
        params: RegistrationId,
      },
    },
    async (request) => {
      const accountId = request.params.id;
      const result = await handleCommand(
        store,
        accountDecider,
        accountStream(accountId),
        { type: 'DeleteRegistration', data: { now: new Date().toISOString() } },
        {
          idempotency: idempotencyOf(request),
          metadata: metadataOf(request),
          inSameTransaction: (tx) => forgetAccount(tx, accountId),
        },
      );
      await removeProfileImages(uploadsDir, accountId);
      return {
        success: true,
        message: translate('registration.deleted', languageOf(request)),
        position: result.position,
      };
    },
  );

  routes.delete(
    '/api/admin/members/:id/personal-data',
    {
      schema: {
        tags: ['registrations'],
        summary:
          "Erase a member's or partner's personal data (PDPA): their key is deleted, read models are scrubbed, counts stay",
        params: RegistrationId,
      },
    },
    async (request) => {
      const accountId = request.params.id;
      const result = await handleCommand(
        store,
        accountDecider,
        accountStream(accountId),
        { type: 'ErasePersonalData', data: { now: new Date().toISOString() } },
        {
          idempotency: idempotencyOf(request),
          metadata: metadataOf(request),
          inSameTransaction: (tx) => forgetAccount(tx, accountId),
        },
      );
      await removeProfileImages(uploadsDir, accountId);
      return { success: true, message: translate('erasure.done', languageOf(request)), position: result.position };
    },
  );
}
