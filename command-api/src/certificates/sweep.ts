import type { FastifyBaseLogger } from 'fastify';
import { READ_MODEL_SCHEMA } from '@portal/platform/read-models/checkpoint';
import { DomainError } from '@portal/platform/domain/errors';
import { isMissingTable } from '@portal/platform/store/sql';
import { type CertifyDeps, certifyCourse } from './certify.ts';

export interface SweepOptions {
  /** How often to look for courses whose last round has ended (CERTIFICATE_SWEEP_SECONDS). */
  everyMs: number;
  /** How long after a round's end scans are still taken (the scanning margin): decided after it. */
  graceMs: number;
  /** The portal's address for the links in the e-mailed certificates (PUBLIC_URL). */
  publicUrl: string;
  /**
   * How far back the sweep looks: courses that ended longer ago are left to be issued by hand, so
   * a portal upgraded to certificates does not e-mail everyone who ever completed a course.
   */
  lookbackMs: number;
  log: FastifyBaseLogger;
}

/**
 * Issues certificates without anyone asking (issue 23): every `everyMs`, the courses whose last
 * round ended (and its scanning margin passed) since their certificates were last decided, in
 * the last `lookbackMs` (14 days), are decided. The read models only say where to look; each decision is taken on the log, and a
 * certificate stream takes one issue, so two command services sweeping at once issue once.
 */
export function startCertificateSweep(deps: CertifyDeps, options: SweepOptions): () => Promise<void> {
  let running: Promise<void> | null = null;
  const sweep = async () => {
    const now = new Date();
    const due = await deps.db
      .query<{ course_id: string }>(
        `SELECT r.course_id
           FROM ${READ_MODEL_SCHEMA}.rounds r
           LEFT JOIN ${READ_MODEL_SCHEMA}.course_completion c ON c.course_id = r.course_id
          GROUP BY r.course_id, c.checked_at
         HAVING max(r.ends_at) <= $1::timestamptz - make_interval(secs => $2)
            AND max(r.ends_at) > $1::timestamptz - make_interval(secs => $3)
            AND (c.checked_at IS NULL OR c.checked_at < max(r.ends_at) + make_interval(secs => $2))
          LIMIT 100`,
        [now.toISOString(), options.graceMs / 1000, options.lookbackMs / 1000],
      )
      .catch((error: unknown) => {
        // Before the projector has made its tables there is nothing to look at yet; anything else is a fault.
        if (!isMissingTable(error)) options.log.error({ err: error }, 'certificate sweep: finding due courses');
        return [];
      });
    for (const { course_id } of due) {
      try {
        const { issued, mailed } = await certifyCourse(deps, course_id, {
          now,
          origin: options.publicUrl,
          eventMetadata: { correlationId: 'certificate-sweep' },
        });
        await mailed;
        if (issued > 0) options.log.info({ courseId: course_id, issued }, 'certificates issued');
      } catch (error) {
        if (!(error instanceof DomainError))
          options.log.error({ err: error, courseId: course_id }, 'certificate sweep');
      }
    }
  };
  const timer = setInterval(() => {
    running ??= sweep().finally(() => {
      running = null;
    });
  }, options.everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * The sweep's settings from the environment: CERTIFICATE_SWEEP_SECONDS (60; 0 turns it off) and
 * PUBLIC_URL (the address people open the portal at; `fallbackUrl` without it). Certificates are
 * decided once the last round stops taking scans (its end plus SCAN_CLOSES_LATE_MINUTES).
 */
export function certificateSweepFromEnv(
  env: NodeJS.ProcessEnv,
  attendance: { closesLateMinutes: number },
  fallbackUrl: string,
): Omit<SweepOptions, 'log'> | undefined {
  const seconds = Number(env.CERTIFICATE_SWEEP_SECONDS || 60);
  if (!Number.isFinite(seconds) || seconds <= 0) return undefined;
  return {
    everyMs: seconds * 1000,
    graceMs: attendance.closesLateMinutes * 60_000,
    lookbackMs: 14 * 86_400_000,
    publicUrl: (env.PUBLIC_URL || fallbackUrl).replace(/\/+$/, ''),
  };
}
