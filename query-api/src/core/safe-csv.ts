import type { Options } from 'csv-stringify/sync';
import { z } from 'zod';
import { timeZone } from '@portal/contracts/views/reports';

/**
 * How every export is written so a spreadsheet opens it safely and as the screens show it:
 *
 * - a cell that starts with = + - @ (or their full-width forms), a tab or a carriage return gets
 *   an apostrophe in front (OWASP, CSV injection), so Excel, LibreOffice and Sheets show what was
 *   typed instead of running it (csv-stringify's `escape_formulas`);
 * - an id, national id, phone number or device id that a spreadsheet would take for a number or
 *   a date is written as `="0812345678"`, the one form Excel keeps as text: no leading zero
 *   lost, no 1.1017E+12. The value inside is digits and separators only, so nothing can run;
 * - a moment is written as the local date and time in the export's time zone
 *   (`2026-11-23 17:05:09`), which spreadsheets read as a date and time.
 */
export function safeCsv(zone: string): Options {
  const local = new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return {
    escape_formulas: true,
    cast: {
      date: (value) => local.format(value),
      object: (value) => {
        if (!(value instanceof TextCell)) return JSON.stringify(value);
        return NUMBER_LIKE.test(value.text) ? { value: `="${value.text}"`, escape_formulas: false } : value.text;
      },
    },
  };
}

/** What Excel would turn into a number or a date: digits with separators, or 1e5. */
const NUMBER_LIKE = /^[\d\s.,:/+-]*\d[\d\s.,:/+-]*$|^\d*\.?\d+e[-+]?\d+$/i;

class TextCell {
  constructor(readonly text: string) {}
}

/** A cell a spreadsheet must keep as text (an id, a national id, a phone number, a device id). */
export const asText = (text: string | null | undefined) => new TextCell(text ?? '');

/** A moment in an export, shown in the export's time zone; empty when there is none. */
export const asMoment = (iso: string | null | undefined) => (iso ? new Date(iso) : '');

/**
 * The export's time zone: `tz` (the console sends the browser's, as its screens show dates in
 * it), else Thailand's, where the portal's providers are.
 */
export const ExportZone = z.object({ tz: timeZone.default('Asia/Bangkok') });
