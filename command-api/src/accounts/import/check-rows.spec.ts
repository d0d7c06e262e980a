import { describe, expect, it } from 'vitest';
import { sampleMember } from '@portal/platform/testing/accounts';
import { checkRows, importIdempotency } from './check-rows.ts';
import { readImportFile } from './csv-file.ts';

const header = 'username,title,fullName,personalId,personalPhone,personalEmail';
const line = (p: ReturnType<typeof sampleMember>) =>
  [p.username, p.title, p.fullName, p.personalId, p.personalPhone, p.personalEmail].join(',');

describe('reading an import file', () => {
  it('takes Excel’s BOM, semicolons, any column case and order, and numbers rows as a spreadsheet does', () => {
    const a = sampleMember({ fullName: 'สมศรี ใจดี' });
    const b = sampleMember();
    const file = readImportFile(
      `\ufeffPERSONALEMAIL;username;personalId;personalPhone;notes\r\n${a.personalEmail};${a.username};${a.personalId};${a.personalPhone};x\r\n\r\n${b.personalEmail};${b.username};${b.personalId};${b.personalPhone};y\r\n`,
    );
    expect('rows' in file && file.rows.map((row) => [row.line, row.username, row.personalEmail])).toEqual([
      [2, a.username, a.personalEmail],
      [4, b.username, b.personalEmail],
    ]);
  });

  it('refuses a file without the required columns, without rows, or that is not CSV', () => {
    expect(readImportFile('name,phone\nA,1')).toEqual({ refused: 'import.missingColumns' });
    expect(readImportFile(`${header}\n`)).toEqual({ refused: 'import.empty' });
    expect(readImportFile('')).toEqual({ refused: 'import.empty' });
    expect(readImportFile('"open\n')).toEqual({ refused: 'import.notCsv' });
  });
});

describe('checking the rows', () => {
  const rowsOf = (...people: ReturnType<typeof sampleMember>[]) => {
    const file = readImportFile(`${header}\n${people.map(line).join('\n')}`);
    if (!('rows' in file)) throw new Error(file.refused);
    return checkRows(file.rows);
  };

  it('given a good row, makes the member the registration form would', () => {
    const [row] = rowsOf(sampleMember({ personalEmail: 'Somsri@Example.com' }));
    expect(row!.errors).toEqual({});
    expect(row!.member).toMatchObject({ personalEmail: 'somsri@example.com', personalAddress: '' });
  });

  it('given a wrong check digit or a short phone, says which field, with the form’s first message', () => {
    const [id, phone] = rowsOf(sampleMember({ personalId: '1101700000000' }), sampleMember({ personalPhone: '08123' }));
    expect(id!.errors).toEqual({ personalId: 'personalId.checksum' });
    expect(phone!.errors).toEqual({ personalPhone: 'personalPhone.length' });
    expect(id!.member).toBeNull();
  });

  it('given two rows sharing an e-mail in any case, flags both; a third row is untouched', () => {
    const rows = rowsOf(
      sampleMember({ personalEmail: 'twin@example.com' }),
      sampleMember({ personalEmail: 'TWIN@example.com' }),
      sampleMember(),
    );
    expect(rows.map((row) => row.errors.personalEmail ?? null)).toEqual([
      'import.duplicateInFile',
      'import.duplicateInFile',
      null,
    ]);
    expect(rows.map((row) => row.member !== null)).toEqual([false, false, true]);
  });

  it('keys a row by what it says: the same row on another line of another file has the same key', () => {
    const person = sampleMember();
    const [first] = rowsOf(person);
    const [, moved] = rowsOf(sampleMember(), person);
    expect(importIdempotency(moved!)).toEqual(importIdempotency(first!));
    expect(importIdempotency(rowsOf(sampleMember())[0]!).key).not.toBe(importIdempotency(first!).key);
  });
});
