import { Done, PasswordChanged, PhotoUploaded } from '@portal/contracts/answers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PersonalData, accountStream } from '@portal/contracts/accounts/account.events';
import { languageOf } from '@portal/platform/http/language';
import { revokeSessions } from '@portal/platform/http/revocations';
import { open, seal } from '@portal/platform/privacy/personal-data';
import { translate } from '@portal/contracts/rules/messages';
import { PasswordChange, ProfileUpdate, profileImagePattern } from '@portal/contracts/rules/profile';
import { UNIQUE_VIOLATION, sqlState } from '@portal/platform/store/sql';
import { handleCommand, loadState } from '../core/command-handler.ts';
import { idempotencyOf, metadataOf, signedInMetadataOf } from '../core/request-context.ts';
import { passwordHashOf, replaceReservations, savePasswordHash, takenFields } from './credentials.ts';
import { accountDecider } from './decider.ts';
import { hashPassword, passwordMatches } from './passwords.ts';
import { admitSignIn } from './sign-in-throttle.ts';
import { NotAnImage, fieldError, readUpload } from '../core/uploaded-image.ts';
import { PROFILE_IMAGE_BYTES, storeProfileImage } from './profile-image.ts';
import { conflict, forbidden, notFound } from '@portal/platform/domain/errors';

const AccountId = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'profile.notFound') });

/** Only the account itself, or with `admins` an admin, may change it: from the verified session. */
function mustBeAllowed(request: FastifyRequest, id: string, admins: boolean): void {
  const session = request.session!;
  if (session.accountId !== id && !(admins && session.role === 'admin')) {
    throw forbidden(admins ? 'auth.ownerOrAdmin' : 'auth.ownerOnly');
  }
}

/** Account settings (spec 000 section 7): profile, profile photo and password. */
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const { db, store, uploadsDir, signInThrottle } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const currentProfile = async (id: string) => {
    const account = await loadState(store, accountDecider, accountStream(id));
    const profile = 'personal' in account ? await open(db, account.personal, PersonalData) : null;
    if (!profile) throw notFound('profile.notFound');
    return profile;
  };

  routes.put(
    '/api/members/profile/:id',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Save the profile (own, or any as an admin); the national id and username stay',
        params: AccountId,
        body: ProfileUpdate,
        response: { 200: Done },
      },
    },
    async (request) => {
      const { id } = request.params;
      mustBeAllowed(request, id, true);
      const { profile_img: profileImage, ...changes } = request.body;
      if (profileImage && profileImagePattern.exec(profileImage)?.[1] !== id) {
        throw fieldError(request, 400, 'profile_img', 'image.invalid');
      }
      const current = await currentProfile(id);
      const contacts = { personalPhone: changes.personalPhone, personalEmail: changes.personalEmail };
      const refuseIfTaken = async () => {
        const taken = await takenFields(db, contacts, id);
        if (taken.length === 0) return;
        const language = languageOf(request);
        throw conflict('duplicate.error', {
          errors: Object.fromEntries(taken.map((field) => [field, translate(`duplicate.${field}`, language)])),
        });
      };
      await refuseIfTaken();
      const personal = await seal(db, id, { ...current, ...changes, profileImage });
      try {
        const result = await handleCommand(
          store,
          accountDecider,
          accountStream(id),
          { type: 'UpdateProfile', data: { personal }, metadata: signedInMetadataOf(request) },
          {
            idempotency: idempotencyOf(request),
            metadata: metadataOf(request),
            inSameTransaction: (tx) => replaceReservations(tx, id, contacts),
          },
        );
        return {
          success: true as const,
          message: translate('profile.updated', languageOf(request)),
          position: result.position,
        };
      } catch (error) {
        if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
        await refuseIfTaken();
        throw conflict('request.conflict');
      }
    },
  );

  routes.put(
    '/api/members/change-password/:id',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Change your own password; the current one is checked (and rate-limited like sign-in)',
        params: AccountId,
        body: PasswordChange,
        response: { 200: PasswordChanged },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      mustBeAllowed(request, id, false);
      const username = request.session!.username;
      const attempt = await admitSignIn(signInThrottle, reply, username, request.ip);
      if (!(await passwordMatches(await passwordHashOf(db, id), request.body.currentPassword))) {
        throw fieldError(request, 400, 'currentPassword', 'password.currentWrong');
      }
      await signInThrottle.succeeded(attempt, username, request.ip);
      const passwordHash = await hashPassword(request.body.newPassword);
      let revokedAt: number | undefined;
      const result = await handleCommand(
        store,
        accountDecider,
        accountStream(id),
        { type: 'ChangePassword', data: {}, metadata: signedInMetadataOf(request) },
        {
          idempotency: idempotencyOf(request),
          metadata: metadataOf(request),
          // Every session of the account issued until now ends, this one too...
          inSameTransaction: async (tx) => {
            await savePasswordHash(tx, id, passwordHash);
            revokedAt = await revokeSessions(tx, id);
          },
        },
      );
      app.sessionsEnded();
      // ...and the caller carries on in a new one (the cookie is replaced; devices get the token),
      // dated after the revocation even when the database's clock is ahead of this server's.
      const { accountId, role, username: name } = request.session!;
      const token = await app.issueSession(reply, { accountId, role, username: name }, revokedAt);
      return {
        success: true as const,
        message: translate('password.changed', languageOf(request)),
        position: result.position,
        token,
      };
    },
  );

  routes.post(
    '/api/members/uploadprofile/:id',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Upload a profile photo (multipart field profileImage, up to 2 MB); answers its imageUrl',
        params: AccountId,
        consumes: ['multipart/form-data'],
        response: { 200: PhotoUploaded },
      },
    },
    async (request) => {
      const { id } = request.params;
      mustBeAllowed(request, id, true);
      await currentProfile(id);
      const content = await readUpload(request, {
        fields: ['profileImage'],
        maxBytes: PROFILE_IMAGE_BYTES,
        tooLarge: 'image.tooLarge',
      });
      try {
        const imageUrl = await storeProfileImage(uploadsDir, id, content);
        return { success: true as const, imageUrl, message: translate('image.uploaded', languageOf(request)) };
      } catch (error) {
        if (error instanceof NotAnImage) throw fieldError(request, 400, 'profileImage', 'image.invalid');
        throw error;
      }
    },
  );
}
