import { PersonalData, accountStream } from '@portal/contracts/accounts/account.events';
import type { Sealed } from '@portal/contracts/privacy/sealed';
import { open } from '@portal/platform/privacy/personal-data';
import type { EventStore, StreamFold } from '@portal/platform/store/port';
import type { Sql } from '@portal/platform/store/sql';
import { foldOf, loadState } from '../core/command-handler.ts';
import type { StreamToRead } from '../core/prefetched-streams.ts';
import { digestOf } from './credentials.ts';
import { accountDecider } from './decider.ts';

/** What other areas ask of the accounts area: who a username names, and who an account is. */

/** The account a username names (compared as registration normalised it), or null. */
export async function accountIdOfUsername(sql: Sql, username: string): Promise<string | null> {
  const [row] = await sql.query<{ account_id: string }>(
    `SELECT account_id FROM cmd.unique_values WHERE field = 'username' AND digest = $1`,
    [await digestOf(sql, 'username', username)],
  );
  return row?.account_id ?? null;
}

/** The account's stream as memberToScan reads it, to read with the scan's other streams at once. */
export const memberStreamToScan = (accountId: string): StreamToRead => ({
  streamId: accountStream(accountId),
  fold: foldOf(accountDecider) as StreamFold<unknown>,
});

/**
 * Names already opened, by the sealed data they were opened from: that object belongs to the
 * account's fold, which the store remembers (fold-memory.ts) and brings up to the stream's last
 * event on every read. A new profile seals a new object; erasure and deletion drop it from the
 * fold, in the transaction that deletes the key. So a name found here is the one the log has now,
 * and a scan does not ask the database for the member's key each time (a round trip per scan).
 */
const openedNames = new WeakMap<Sealed, string | null>();

/** A member as a scan sees them: approved or not, and their name; null for anyone who is not a member. */
export async function memberToScan(
  deps: { db: Sql; store: EventStore },
  accountId: string,
): Promise<{ approved: boolean; name: string | null } | null> {
  const account = await loadState(deps.store, accountDecider, accountStream(accountId));
  if (!('role' in account) || account.role !== 'member' || !('personal' in account)) return null;
  let name = openedNames.get(account.personal);
  if (name === undefined) {
    name = (await open(deps.db, account.personal, PersonalData))?.fullName ?? null;
    openedNames.set(account.personal, name);
  }
  return { approved: account.status === 'approved', name };
}

/** Whether an account may assist in a course: an approved member or partner. */
export async function mayAssist(store: EventStore, accountId: string): Promise<boolean> {
  const account = await loadState(store, accountDecider, accountStream(accountId));
  return (
    account.status === 'approved' && 'role' in account && (account.role === 'member' || account.role === 'partner')
  );
}
