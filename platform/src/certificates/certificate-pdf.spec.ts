import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { certificatePdf, englishDate, printable, thaiDate } from './certificate-pdf.ts';

const content = {
  certificateId: 'AbCdEfGhIjKlMnOpQrStUv',
  memberName: 'สมหญิง ใจดี',
  courseTopic: 'Yoga',
  issuer: 'Studio',
  attendedRounds: 4,
  heldRounds: 5,
  hours: 6,
  issuedAt: '2026-11-25T17:30:00.000Z',
  verifyUrl: 'https://portal.example/verify/AbCdEfGhIjKlMnOpQrStUv',
};

describe('the certificate PDF', () => {
  it('dates in the Buddhist era in Thai, in Bangkok (past midnight there is the next day)', () => {
    expect(thaiDate(content.issuedAt)).toBe('26 พฤศจิกายน พ.ศ. 2569');
    expect(englishDate(content.issuedAt)).toBe('26 November 2026');
  });

  it('prints text without control characters, direction overrides or lone surrogates, cut to its line', () => {
    expect(printable('A\u0000B\u202eC\u200fD\ud800E\u0007')).toBe('ABCD\ufffdE');
    expect(printable('น้ำใจ')).toBe('น้ำใจ');
    expect(Array.from(printable('ก'.repeat(500), 120))).toHaveLength(120);
  });

  it('is made for any text the portal could hold: Thai marks, right-to-left, controls, long strings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.string({ unit: 'grapheme', maxLength: 2000 }),
        async (name, topic) => {
          const pdf = await certificatePdf({ ...content, memberName: name, courseTopic: topic, issuer: name });
          expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
        },
      ),
      { numRuns: 25 },
    );
  });
});
