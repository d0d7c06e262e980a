import type { Options } from 'csv-stringify/sync';

/**
 * How every export is written so a spreadsheet opens it safely (OWASP, CSV injection): a cell
 * that starts with = + - @ (or their full-width forms), a tab or a carriage return gets an
 * apostrophe in front, so Excel, LibreOffice and Sheets show what was typed instead of running it.
 */
export const SAFE_CSV: Options = { escape_formulas: true };
