/**
 * How fast the course list, the course details and the members' catalogue answer with many
 * courses (issue: fast at 10,000), on PGlite and, when DATABASE_URL is set, PostgreSQL. Rows go
 * straight into the read models, as the projector would leave them: three rounds per course and
 * twenty enrolments per member. Prints the median of five runs per query; asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { TestDatabase } from '@portal/platform/testing/databases';
import { prepareReadModels } from '@portal/projector/read-models';
import { projections } from '@portal/projector/projections/index';
import { CatalogueQuery } from '@portal/contracts/views/catalogue';
import { CourseQuery } from '@portal/contracts/views/course';
import { searchCatalogue } from '@portal/query-api/core/catalogue-table';
import { findCourse, searchCourses } from '@portal/query-api/core/courses-table';
import { figure, median, onEachDatabase } from './measure.ts';

const COURSES = Number(process.env.BENCH_COURSES ?? 10_000);
const MEMBERS = 2_000;
const id = (n: number) => n.toString(16).padStart(24, '0');

async function run(database: TestDatabase) {
  const { db, drop } = await database.open();
  try {
    await createEventStoreSchema(db);
    await prepareReadModels(db, 'rm', projections);
    const started = performance.now();
    await db.query(
      `INSERT INTO rm.courses (id, topic, description, status, max_people, creator, enrolled, participate,
         total_attend, created_at, updated_at)
       SELECT lpad(to_hex(n), 24, '0'), 'Course ' || n || ' ' || (ARRAY['cooking', 'weaving', 'boxing'])[1 + n % 3],
              'Lessons of course ' || n, (ARRAY['public', 'private'])[1 + n % 2], n % 40, 'partner' || n % 50,
              0, n % 37, n % 91, now() - n * interval '1 hour', now()
         FROM generate_series(1, $1::int) AS n`,
      [COURSES],
    );
    await db.query(
      `INSERT INTO rm.rounds (id, course_id, starts_at, ends_at)
       SELECT md5(c || '-' || r), lpad(to_hex(c), 24, '0'), now() + (r * 7 - 7 + c % 5) * interval '1 day',
              now() + (r * 7 - 7 + c % 5) * interval '1 day' + interval '2 hours'
         FROM generate_series(1, $1::int) AS c, generate_series(1, 3) AS r`,
      [COURSES],
    );
    await db.query(
      `INSERT INTO rm.enrolments (course_id, member_id, enrolled_at)
       SELECT lpad(to_hex(1 + (m * 20 + k) * 7 % $1::int), 24, '0'), 'member' || m, now()
         FROM generate_series(1, $2::int) AS m, generate_series(1, 20) AS k
       ON CONFLICT DO NOTHING`,
      [COURSES, MEMBERS],
    );
    const seeded = (performance.now() - started) / 1000;
    const list = (raw: object) => async () =>
      (await searchCourses(db, CourseQuery.parse(raw), { page: CourseQuery.parse(raw).page ?? 1, pageSize: 9 })).courses
        .length;
    const catalogue = (raw: object) => async () =>
      (await searchCatalogue(db, 'member42', CatalogueQuery.parse(raw))).courses.length;
    const figures = [
      figure('list: first page, participants', await median(list({ page: 1 }))),
      figure('list: search a topic fragment', await median(list({ search: 'course 42', page: 1 }))),
      figure('list: by topic, page 500', await median(list({ sort: 'topic', order: 'asc', page: 500 }))),
      figure(
        'details: one course with rounds',
        await median(async () => ((await findCourse(db, id(4242), new Date())) ? 1 : 0)),
      ),
      figure('catalogue: public, first page', await median(catalogue({ page: 1 }))),
      figure('catalogue: search', await median(catalogue({ search: 'weaving', page: 3 }))),
      figure('catalogue: my courses', await median(catalogue({ mine: 'true', page: 1 }))),
    ];
    console.log(`${database.name}: ${COURSES} courses seeded in ${seeded.toFixed(1)} s\n${figures.join('\n')}`);
  } finally {
    await drop();
  }
}

console.log('Course list benchmark: median of 5 runs per query');
await onEachDatabase(run);
