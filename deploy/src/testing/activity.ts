import { type CallablePortal, portalCalls } from './portal-calls.ts';

const hour = 3600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

export interface Activity {
  /** Rounds that can still be scanned, with their course and, for an ended one, a time within it. */
  rounds: { courseId: string; roundId: string; deviceTime?: string }[];
  members: { id: string; token: string }[];
}

/**
 * A portal's ordinary life through its own calls, touching every read model: registrations and
 * approvals, courses with rounds, enrolments and a withdrawal, scans accepted and refused, a void,
 * a round cancelled and a course deleted after their scans, a course edited, contact, e-mail and
 * notifications read. The tests of distributed projectors compare what it leaves with a rebuild.
 * (A round that has started cannot be cancelled any more; the last course's future round is.)
 */
export async function seedActivity(portal: CallablePortal, size = { courses: 3, members: 4 }): Promise<Activity> {
  const { call, partner, approvedMember } = portalCalls(() => portal);
  const ok = async <T extends { statusCode: number; body: string }>(answer: Promise<T>) => {
    const settled = await answer;
    if (settled.statusCode >= 300) throw new Error(`seeding failed: ${settled.statusCode} ${settled.body}`);
    return settled;
  };
  const teacher = partner();
  const members = [];
  for (let n = 0; n < size.members; n++) members.push(await approvedMember(`Seed Member ${n}`));
  const rounds: Activity['rounds'] = [];
  const courses: string[] = [];
  for (let c = 0; c < size.courses; c++) {
    const payload = { courseTopic: `Seeded course ${c}`, courseDescription: 'Seeded', maxPeople: 0, status: 'public' };
    const courseId = (await ok(call('POST', '/api/admin/createcourse', teacher, payload))).json()._id as string;
    courses.push(courseId);
    for (const [start, end] of [
      [-hour, hour],
      [-4 * hour, -3 * hour],
    ] as const) {
      const body = { roundStartTime: iso(start), roundEndTime: iso(end) };
      const roundId = (await ok(call('POST', `/api/admin/courses/${courseId}/rounds`, teacher, body))).json().round
        ._id as string;
      // An ended round is scanned as a device that was offline uploads it: with the time it scanned.
      rounds.push({ courseId, roundId, ...(end < 0 ? { deviceTime: iso(start + 1000) } : {}) });
    }
    for (const member of members) await ok(call('POST', `/api/courses/${courseId}/enroll`, member.token));
  }
  for (const { roundId, deviceTime } of rounds) {
    for (const member of members) {
      await ok(call('PUT', `/api/admin/updateround/${roundId}`, teacher, { userId: member.id, deviceTime }));
    }
  }
  // Refused: a pass of nobody enrolled anywhere.
  await call('PUT', `/api/admin/updateround/${rounds[0]!.roundId}`, teacher, { userId: 'ffffffffffffffffffffffff' });
  await ok(
    call('POST', `/api/admin/rounds/${rounds[1]!.roundId}/attendance/${members[0]!.id}/void`, portal.adminToken, {
      reason: 'scanned by mistake',
    }),
  );
  await ok(call('DELETE', `/api/courses/${courses[0]}/enroll`, members[1]!.token));
  await ok(
    call('PUT', `/api/admin/updatecourses/${courses[0]}`, teacher, {
      courseTopic: 'Seeded course 0, renamed',
      courseDescription: 'Seeded and edited',
      maxPeople: 0,
    }),
  );
  const last = courses.length - 1;
  // The last course loses a round not yet held, then itself, after its rounds were scanned.
  const future = { roundStartTime: iso(24 * hour), roundEndTime: iso(25 * hour) };
  const futureRound = (await ok(call('POST', `/api/admin/courses/${courses[last]}/rounds`, teacher, future))).json()
    .round._id as string;
  await ok(call('DELETE', `/api/admin/courses/${courses[last]}/rounds/${futureRound}`, teacher));
  await ok(call('DELETE', `/api/admin/deletecourse/${courses[last]}`, teacher));
  await ok(call('POST', '/api/notifications/read-all', members[2]!.token));
  await ok(
    call('POST', '/api/contact', members[3]!.token, {
      name: 'Seed Member 3',
      email: 'seed3@example.com',
      subject: 'A question',
      message: 'When does the next course start?',
    }),
  );
  return {
    rounds: rounds.filter((round) => round.courseId !== courses[last]),
    members: members.map(({ id, token }) => ({ id, token })),
  };
}

/**
 * A steady stream of scans until stopped: each member is scanned, then the scan voided, over and
 * over, across the rounds, by `scanners` callers at once. Answers how many commands succeeded.
 */
export function scanSteadily(portal: CallablePortal, activity: Activity, scanners = 2) {
  const { call, partner } = portalCalls(() => portal);
  const teacher = partner();
  let running = true;
  let done = 0;
  const pairs = activity.rounds.flatMap((round) => activity.members.map((member) => ({ ...round, member })));
  const worker = async (offset: number) => {
    for (let n = offset; running; n += scanners) {
      const { roundId, deviceTime, member } = pairs[n % pairs.length]!;
      const scan = await call('PUT', `/api/admin/updateround/${roundId}`, teacher, { userId: member.id, deviceTime });
      const undo = await call('POST', `/api/admin/rounds/${roundId}/attendance/${member.id}/void`, portal.adminToken, {
        reason: 'steady stream',
      });
      done += Number(scan.statusCode === 200) + Number(undo.statusCode === 200);
    }
  };
  const workers = Array.from({ length: scanners }, (_, offset) => worker(offset));
  return {
    get done() {
      return done;
    },
    async stop() {
      running = false;
      await Promise.all(workers);
      return done;
    },
  };
}
