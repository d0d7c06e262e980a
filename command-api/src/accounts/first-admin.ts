import { randomBytes } from 'node:crypto';
import { accountStream } from '@portal/contracts/accounts/account.events';
import { password as passwordRule, username as usernameRule } from '@portal/contracts/rules/registration';
import type { z } from 'zod';
import { seal } from '@portal/platform/privacy/personal-data';
import { translate } from '@portal/contracts/rules/messages';
import type { EventStore } from '@portal/platform/store/port';
import type { Sql } from '@portal/platform/store/sql';
import { handleCommand } from '../core/command-handler.ts';
import { hasAdmin, reserve, saveCredentials } from './credentials.ts';
import { accountDecider } from './decider.ts';
import { hashPassword } from './passwords.ts';
import { newId } from '../core/ids.ts';

export interface FirstAdmin {
  username: string;
  /** Set only when the password was generated here: it is shown once and kept nowhere. */
  generatedPassword?: string;
}

/**
 * Makes sure an administrator exists: the first one comes from ADMIN_USERNAME and ADMIN_PASSWORD,
 * or gets a random password that the caller prints once. Does nothing when an admin exists.
 */
export async function ensureFirstAdmin(
  db: Sql,
  store: EventStore,
  wanted: { username?: string; password?: string },
): Promise<FirstAdmin | null> {
  if (await hasAdmin(db)) return null;
  const username = checked('ADMIN_USERNAME', usernameRule, wanted.username || 'admin01');
  const generatedPassword = wanted.password ? undefined : randomBytes(12).toString('base64url');
  const password = checked('ADMIN_PASSWORD', passwordRule, wanted.password || generatedPassword);
  const passwordHash = await hashPassword(password);
  const accountId = newId();
  const personal = await seal(db, accountId, { username, fullName: 'Administrator' });
  await handleCommand(
    store,
    accountDecider,
    accountStream(accountId),
    { type: 'CreateAdmin', data: { personal }, metadata: { now: new Date().toISOString() } },
    {
      metadata: { actorRole: 'system' },
      inSameTransaction: async (tx) => {
        await reserve(tx, accountId, { username });
        await saveCredentials(tx, accountId, 'admin', passwordHash);
      },
    },
  );
  return { username, generatedPassword };
}

/** The first admin's settings follow the registration rules; a bad one stops the start with a clear message. */
function checked(variable: string, rule: z.ZodType<string>, value: unknown): string {
  const result = rule.safeParse(value);
  if (result.success) return result.data;
  const key = result.error.issues[0]?.message ?? 'value.invalid';
  throw new Error(`${variable}: ${translate(key, 'en')}`);
}
