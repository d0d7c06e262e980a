import { randomBytes } from 'node:crypto';
import { courseStream } from '@portal/contracts/courses/course.events';
import { IMPORT_MAX_BYTES, ImportCheckRequest, ImportRowsRequest } from '@portal/contracts/rules/import';
import { type MessageKey, translate } from '@portal/contracts/rules/messages';
import { ImportCheck, ImportRowsAnswer } from '@portal/contracts/views/import';
import { DomainError } from '@portal/platform/domain/errors';
import { languageOf } from '@portal/platform/http/language';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { handleDecision } from '../../core/command-handler.ts';
import { accountIdOf } from '@portal/contracts/accounts/account.events';
import { metadataOf, signedInMetadataOf } from '../../core/request-context.ts';
import { fieldError } from '../../core/uploaded-image.ts';
import { courseDecider } from '../../courses/decider.ts';
import { enrolMembers } from '../../courses/decide.ts';
import type { Mailer } from '../../outreach/mailer.ts';
import { sendPasswordLink } from '../password-link.routes.ts';
import { hashPassword } from '../passwords.ts';
import { memberRegistration, registerAccount } from '../register.routes.ts';
import { type CheckedRow, checkRows, importIdempotency, takenByAccounts } from './check-rows.ts';
import { readImportFile } from './csv-file.ts';

/** Rows created side by side within a chunk. */
const ROWS_AT_ONCE = 4;

/**
 * Bulk onboarding (issue 23), for admins: a CSV of members is checked (a dry run: row by row what
 * would be created, and every problem, in the admin's language), then created in chunks the
 * console sends one after another (its progress bar), each row under its own idempotency key
 * (what it says): a chunk sent again, or the file imported again after an interruption or with
 * its wrong rows fixed, creates nobody twice. Accounts are created approved, as /addemployee does,
 * optionally enrolled in a course, and each is e-mailed a link to set their password.
 */
export async function importRoutes(app: FastifyInstance, options: { mailer: Mailer }): Promise<void> {
  const { db, store } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const words = (request: FastifyRequest, errors: Partial<Record<string, MessageKey>>) =>
    Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, translate(key!, languageOf(request))]));

  /** The rows an earlier import created: the answers stored under their keys. */
  const alreadyImported = async (rows: CheckedRow[]) => {
    const found = new Map<number, string>();
    for (const row of rows) {
      const { key, fingerprint } = importIdempotency(row);
      const earlier = await store.findIdempotent(key, fingerprint).catch(() => null);
      if (earlier) found.set(row.line, accountIdOf(earlier.streamId));
    }
    return found;
  };

  routes.post(
    '/api/admin/imports/check',
    {
      config: { roles: ['admin'] },
      bodyLimit: IMPORT_MAX_BYTES + 64 * 1024,
      schema: {
        tags: ['accounts'],
        summary: 'Check a CSV of members before importing it: row by row, what would be created and what is wrong',
        body: ImportCheckRequest,
        response: { 200: ImportCheck },
      },
    },
    async (request) => {
      const file = readImportFile(request.body.csv);
      if ('refused' in file) throw fieldError(request, 400, 'csv', file.refused);
      const rows = checkRows(file.rows);
      const taken = await takenByAccounts(db, rows);
      const imported = await alreadyImported(rows.filter((row) => taken.has(row.line)));
      const views = rows.map((row) => {
        if (imported.has(row.line))
          return { line: row.line, values: row.values, status: 'imported' as const, errors: {} };
        const errors: Partial<Record<string, MessageKey>> = { ...row.errors };
        for (const { field } of taken.get(row.line) ?? []) errors[field] ??= `duplicate.${field}`;
        const status = Object.keys(errors).length > 0 ? ('invalid' as const) : ('new' as const);
        return { line: row.line, values: row.values, status, errors: words(request, errors) };
      });
      const count = (status: string) => views.filter((view) => view.status === status).length;
      return {
        success: true as const,
        rows: views,
        summary: { rows: views.length, new: count('new'), invalid: count('invalid'), imported: count('imported') },
      };
    },
  );

  // E-mails go out one at a time after each chunk's answer, never 40 chunks' worth at once.
  let letters: Promise<unknown> = Promise.resolve();

  routes.post(
    '/api/admin/imports/rows',
    {
      config: { roles: ['admin'] },
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        tags: ['accounts'],
        summary: 'Create a chunk of checked rows (up to 250); a row already created answers imported',
        body: ImportRowsRequest,
        response: { 200: ImportRowsAnswer },
      },
    },
    async (request) => {
      const { courseId } = request.body;
      const rows = checkRows(request.body.rows);
      // One unusable password for the chunk's accounts: nobody knows it; each sets their own by link.
      const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
      type Result = {
        line: number;
        status: 'created' | 'imported' | 'invalid';
        accountId: string | null;
        errors: Record<string, string>;
      };
      let position = 0;
      const importRow = async (row: CheckedRow): Promise<Result> => {
        if (!row.member)
          return { line: row.line, status: 'invalid', accountId: null, errors: words(request, row.errors) };
        try {
          const registration = memberRegistration(db, '', row.member, { consent: null, approved: true });
          const result = await registerAccount(app, request, registration, {
            idempotency: importIdempotency(row),
            passwordHash,
          });
          position = Math.max(position, result.position);
          return {
            line: row.line,
            status: result.replayed ? 'imported' : 'created',
            accountId: accountIdOf(result.streamId),
            errors: {},
          };
        } catch (error) {
          if (!(error instanceof DomainError) || error.kind !== 'conflict') throw error;
          // The same row, sent at the same instant by another tab, won: it is imported, not taken.
          const { key, fingerprint } = importIdempotency(row);
          const earlier = await store.findIdempotent(key, fingerprint).catch(() => null);
          if (earlier)
            return { line: row.line, status: 'imported', accountId: accountIdOf(earlier.streamId), errors: {} };
          const errors = (error.extra.errors as Record<string, string> | undefined) ?? {
            username: translate(error.messageKey, languageOf(request)),
          };
          return { line: row.line, status: 'invalid', accountId: null, errors };
        }
      };
      // A few rows at a time: each is its own transaction, and the database has connections to spare.
      const results: Result[] = [];
      for (let from = 0; from < rows.length; from += ROWS_AT_ONCE) {
        results.push(...(await Promise.all(rows.slice(from, from + ROWS_AT_ONCE).map(importRow))));
      }
      const accounts = results.flatMap((result) => (result.accountId ? [result.accountId] : []));
      let enrolled: Set<string> | null = null;
      if (courseId && accounts.length > 0) {
        const decided = await handleDecision(
          store,
          courseDecider,
          courseStream(courseId),
          (state) =>
            enrolMembers(state, {
              type: 'EnrolMembers',
              data: { memberIds: accounts },
              metadata: signedInMetadataOf(request),
            }),
          { metadata: metadataOf(request) },
        );
        position = Math.max(position, decided.result.position);
        enrolled = decided.outcome ?? new Set(accounts);
      }
      const created = results.filter((result) => result.status === 'created').map((result) => result.accountId!);
      letters = letters.then(async () => {
        for (const accountId of created) {
          await sendPasswordLink(app, options.mailer, request, accountId).catch((error: unknown) =>
            request.log.warn({ err: error, accountId }, 'import: the password link was not sent'),
          );
        }
      });
      return {
        success: true as const,
        position,
        results: results.map((result) => ({
          ...result,
          enrolled: enrolled && result.accountId ? enrolled.has(result.accountId) : null,
        })),
      };
    },
  );
}
