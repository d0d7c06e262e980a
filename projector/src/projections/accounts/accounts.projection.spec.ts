import { describe, expect, it } from 'vitest';
import {
  MemberApproved,
  MemberRejected,
  PersonalDataErased,
  ProfileUpdated,
  RegistrationDeleted,
} from '@portal/contracts/accounts/account.events';
import { seal } from '@portal/platform/privacy/personal-data';
import { memberRegisteredEvent, sampleMember } from '@portal/platform/testing/accounts';
import { projectionSpecification } from '../../testing/projection-specification.ts';

const at = '2026-11-24T08:00:00.000Z';
const id = (n: number) => `bbbbbbbbbbbbbbbbbbbb${String(n).padStart(4, '0')}`;

/**
 * The accounts read model, from a small story: one member approved and renamed, one rejected, one
 * deleted, one erased. The view opens what the projector sealed; an erased row keeps no name.
 */
describe('the accounts projection', () => {
  const spec = projectionSpecification();

  it('lists each registration with its status and current name, and keeps nothing of the erased', async () => {
    const registered = (n: number, fullName: string) =>
      memberRegisteredEvent(spec.db, id(n), { username: `story${n}`, fullName });
    const { password: _p, acceptTerms: _a, ...renamed } = sampleMember({ username: 'story1', fullName: 'Ann Renamed' });
    await spec.given(
      [
        `account-${id(1)}`,
        [
          await registered(1, 'Ann First'),
          MemberApproved.create({ approvedAt: at }),
          ProfileUpdated.create({ personal: await seal(spec.db, id(1), renamed), updatedAt: at }),
        ],
      ],
      [`account-${id(2)}`, [await registered(2, 'Bea Second'), MemberRejected.create({ rejectedAt: at })]],
      [`account-${id(3)}`, [await registered(3, 'Cat Third'), RegistrationDeleted.create({ deletedAt: at })]],
      [`account-${id(4)}`, [await registered(4, 'Dan Fourth'), PersonalDataErased.create({ erasedAt: at })]],
    );
    expect(
      await spec.rows(
        `SELECT id, role, status, username, full_name FROM rm.accounts WHERE id LIKE 'bbbb%' ORDER BY id`,
      ),
    ).toEqual([
      { id: id(1), role: 'member', status: 'approved', username: 'story1', full_name: 'Ann Renamed' },
      { id: id(2), role: 'member', status: 'rejected', username: 'story2', full_name: 'Bea Second' },
      { id: id(4), role: 'member', status: 'erased', username: '', full_name: '' },
    ]);
    // Not merely hidden by the view: the sealed columns themselves are gone.
    expect(
      await spec.rows(`SELECT username IS NULL AND full_name IS NULL AS empty FROM rm.accounts_sealed WHERE id = $1`, [
        id(4),
      ]),
    ).toEqual([{ empty: true }]);
    // The search's blind index follows the name: the new one is found, the old one and the erased are not.
    const found = async (fragment: string) =>
      (
        await spec.rows<{ id: string }>(
          `SELECT id FROM rm.accounts_sealed WHERE id LIKE 'bbbb%' AND search_grams @> rm.search_grams($1) ORDER BY id`,
          [fragment],
        )
      ).map((row) => row.id);
    expect(await found('ann renamed')).toEqual([id(1)]);
    expect(await found('ann first')).toEqual([]);
    expect(await found('bea sec')).toEqual([id(2)]);
    expect(await found('dan fourth')).toEqual([]);
    expect(await found('story')).toEqual([id(1), id(2)]);
    // Nothing the story wrote waits in GIN's pending list, which every search would read whole
    // (the embedded database has no autovacuum to move it in).
    expect(
      await spec.rows(`SELECT gin_clean_pending_list('rm.accounts_search_grams'::regclass)::text AS pages`),
    ).toEqual([{ pages: '0' }]);
  });
});
