import { describe, expect, it } from 'vitest';
import { CompanyData, PersonalData, decodeAccountEvent } from '@portal/contracts/accounts/account.events';
import type { StoredEvent } from '@portal/contracts/envelope';
import { open } from '@portal/platform/privacy/personal-data';

const stored = (type: string, data: unknown): StoredEvent => ({
  position: 1,
  transactionId: '1',
  streamId: 'account-0123456789abcdef01234567',
  streamRevision: 0,
  type,
  schemaVersion: 1,
  data,
  metadata: {},
  createdAt: '2026-11-01T08:00:00.000Z',
});

// Version 1 events (written before personal data was sealed) still read, through their upcasters.
describe('account events written in version 1', () => {
  const noDb = { query: () => Promise.reject(new Error('no key lookup for data in the clear')) };

  it('reads a version 1 member registration as version 2 with its data in the clear', async () => {
    const event = decodeAccountEvent(
      stored('MemberRegistered', {
        username: 'somchai01',
        title: 'นาย',
        fullName: 'Somchai',
        personalId: '1101700000001',
        personalPhone: '0812345678',
        personalEmail: 'somchai@example.com',
        personalAddress: '',
        personalProvince: '',
        personalDistrict: '',
        personalSubdistrict: '',
        personalPostalCode: '',
        registeredAt: '2026-11-01T08:00:00.000Z',
      }),
    );
    expect(event?.type).toBe('MemberRegistered');
    if (event?.type !== 'MemberRegistered') return;
    expect(event.data.registeredAt).toBe('2026-11-01T08:00:00.000Z');
    expect(await open(noDb, event.data.personal, PersonalData)).toMatchObject({ username: 'somchai01' });
  });

  it('splits a version 1 partner registration into personal and company data', async () => {
    const company = {
      companyName: 'Co',
      companyTaxId: '0105500000001',
      companyAddress: 'a',
      companyProvince: 'p',
      companyDistrict: 'd',
      companySubdistrict: 's',
      companyPostalCode: '10110',
      companyPhone: '0212345678',
      companyEmail: 'co@example.com',
      shopLatitude: 13.7,
      shopLongitude: 100.5,
    };
    const event = decodeAccountEvent(
      stored('PartnerRegistered', { username: 'partner01', ...company, registeredAt: '2026-11-01T08:00:00.000Z' }),
    );
    if (event?.type !== 'PartnerRegistered') throw new Error('not decoded');
    expect(await open(noDb, event.data.company, CompanyData)).toEqual(company);
    expect(await open(noDb, event.data.personal, PersonalData)).toMatchObject({ username: 'partner01', title: '' });
  });
});
