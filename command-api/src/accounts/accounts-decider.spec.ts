import { describe, it } from 'vitest';
import {
  AdminCreated,
  MemberApproved,
  MemberRegistered,
  PartnerRegistered,
  PersonalDataErased,
  RegistrationDeleted,
} from '@portal/contracts/accounts/account.events';
import type { SealedBox } from '@portal/contracts/privacy/sealed';
import { accountDecider } from '../accounts/decider.ts';
import type { Actor } from '../core/command.ts';
import { deciderSpecification } from '../testing/decider-specification.ts';

const now = '2026-11-24T10:00:00.000Z';
const admin: Actor = { id: 'admin-1', role: 'admin' };
const sealed = (data: string): SealedBox => ({ alg: 'A256GCM', subject: 'account-1', iv: 'iv', tag: 'tag', data });
const personal = sealed('person');
const terms = [
  { document: 'terms' as const, version: '2026-01' },
  { document: 'privacy' as const, version: '2026-01' },
];
const given = deciderSpecification(accountDecider, 'account-1');
const anonymous = { now };
const byAdmin = { now, actor: admin };

const member = () => MemberRegistered.create({ personal, registeredAt: now });
const partner = () => PartnerRegistered.create({ personal, company: sealed('company'), registeredAt: now });

describe('the account decider', () => {
  it('registers a member pending approval with their consent; one an admin adds is approved at once', () => {
    given()
      .when({ type: 'RegisterMember', data: { personal, consent: terms }, metadata: anonymous })
      .then([
        { type: 'MemberRegistered', data: { personal, registeredAt: now } },
        { type: 'ConsentGiven', data: { documents: terms, givenAt: now } },
      ]);
    given()
      .when({ type: 'RegisterMember', data: { personal, consent: null, approved: true }, metadata: byAdmin })
      .then([{ type: 'MemberRegistered' }, { type: 'MemberApproved', data: { approvedAt: now } }]);
    given()
      .when({ type: 'RegisterPartner', data: { personal, company: sealed('c'), consent: terms }, metadata: anonymous })
      .then([{ type: 'PartnerRegistered' }, { type: 'ConsentGiven' }]);
  });

  it('refuses to register over an existing account, as a conflict (never a server error)', () => {
    given(member())
      .when({ type: 'RegisterMember', data: { personal, consent: null }, metadata: anonymous })
      .refused('conflict', 'request.conflict');
    given(member())
      .when({ type: 'CreateAdmin', data: { personal }, metadata: anonymous })
      .refused('conflict', 'request.conflict');
  });

  it('approves or rejects a registration once; admins and gone accounts have none to manage', () => {
    given(member())
      .when({ type: 'ChangeRegistrationStatus', data: { status: 'approved' }, metadata: byAdmin })
      .then([{ type: 'MemberApproved' }]);
    given(partner(), MemberApproved.create({ approvedAt: now }))
      .when({ type: 'ChangeRegistrationStatus', data: { status: 'rejected' }, metadata: byAdmin })
      .then([{ type: 'MemberRejected', data: { rejectedAt: now } }]);
    given(member(), MemberApproved.create({ approvedAt: now }))
      .when({ type: 'ChangeRegistrationStatus', data: { status: 'approved' }, metadata: byAdmin })
      .refused('conflict', 'registration.alreadyInStatus');
    given(AdminCreated.create({ personal, createdAt: now }))
      .when({ type: 'ChangeRegistrationStatus', data: { status: 'approved' }, metadata: byAdmin })
      .refused('notFound', 'registration.notFound');
    given(member(), RegistrationDeleted.create({ deletedAt: now }))
      .when({ type: 'ErasePersonalData', data: {}, metadata: byAdmin })
      .refused('notFound', 'registration.notFound');
    given()
      .when({ type: 'DeleteRegistration', data: {}, metadata: byAdmin })
      .refused('notFound', 'registration.notFound');
  });

  it('lets any existing account change its profile and password, admins included; not once erased', () => {
    const self = { now, actor: { id: 'account-1', role: 'member' as const } };
    given(member())
      .when({ type: 'UpdateProfile', data: { personal: sealed('new') }, metadata: self })
      .then([{ type: 'ProfileUpdated', data: { personal: sealed('new'), updatedAt: now } }]);
    given(AdminCreated.create({ personal, createdAt: now }))
      .when({ type: 'ChangePassword', data: {}, metadata: byAdmin })
      .then([{ type: 'PasswordChanged', data: { changedAt: now } }]);
    given(member(), PersonalDataErased.create({ erasedAt: now }))
      .when({ type: 'UpdateProfile', data: { personal }, metadata: self })
      .refused('notFound', 'profile.notFound');
    given().when({ type: 'ChangePassword', data: {}, metadata: self }).refused('notFound', 'profile.notFound');
  });
});
