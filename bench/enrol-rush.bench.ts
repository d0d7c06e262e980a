/**
 * How many enrolments per second a rush gets through: 64 members enrolling in one course at the
 * same moment, all decided one after another on the course's stream (EventStore.appendDecided),
 * beside the same 64 spread over 64 courses (no waiting on each other) as the ceiling. The
 * command API runs in this process, as in `npm start`; on PGlite and, with DATABASE_URL, on
 * PostgreSQL. Prints figures; asserts nothing but the exact outcome (10 places, 54 full).
 */
import { performance } from 'node:perf_hooks';
import type { TestDatabase } from '@portal/platform/testing/databases';
import { startCommandApi } from '../command-api/test/harness.ts';
import { onEachDatabase } from './measure.ts';

const CALLERS = 64;
const ROUNDS = 5;

async function run(database: TestDatabase) {
  const h = await startCommandApi(database);
  try {
    const sign = (sub: string, role: 'partner' | 'member') =>
      h.app.jwt.sign({ sub, role, username: sub, iatMs: Date.now() });
    const teacher = sign('aaaaaaaaaaaaaaaaaaaaaa01', 'partner');
    let memberNo = 0;
    const course = async (maxPeople: number) =>
      (
        await h.app.inject({
          method: 'POST',
          url: '/api/admin/createcourse',
          headers: { authorization: `Bearer ${teacher}` },
          payload: { courseTopic: 'Rush', courseDescription: 'Bench', maxPeople, status: 'public' },
        })
      ).json()._id as string;
    const enrol = (courseId: string) =>
      h.app.inject({
        method: 'POST',
        url: `/api/courses/${courseId}/enroll`,
        headers: { authorization: `Bearer ${sign((memberNo++).toString(16).padStart(24, '0'), 'member')}` },
      });
    const rate = async (label: string, courseIds: () => Promise<string[]>, check?: (codes: number[]) => void) => {
      let took = 0;
      for (let r = 0; r < ROUNDS; r++) {
        const ids = await courseIds();
        const started = performance.now();
        const answers = await Promise.all(ids.map(enrol));
        took += performance.now() - started;
        check?.(answers.map((answer) => answer.statusCode));
      }
      const perSecond = (CALLERS * ROUNDS) / (took / 1000);
      console.log(`  ${label.padEnd(48)} ${perSecond.toFixed(0).padStart(6)} enrolments/s`);
    };
    console.log(`${database.name}: ${CALLERS} members at once, ${ROUNDS} rushes each`);
    await rate(
      'one course, 10 places (10 in, 54 full)',
      async () => Array(CALLERS).fill(await course(10)),
      (codes) => {
        const placed = codes.filter((code) => code === 200).length;
        if (placed !== 10 || codes.filter((code) => code === 409).length !== 54)
          throw new Error(`rush gave ${placed} places`);
      },
    );
    await rate(
      'one course, unlimited (all 64 in)',
      async () => Array(CALLERS).fill(await course(0)),
      (codes) => {
        if (codes.some((code) => code !== 200)) throw new Error('a member of an unlimited course was refused');
      },
    );
    await rate('64 courses, one member each (the ceiling)', () =>
      Promise.all(Array.from({ length: CALLERS }, () => course(0))),
    );
  } finally {
    await h.close();
  }
}

await onEachDatabase(run);
