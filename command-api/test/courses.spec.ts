// Over 250 lines: the course commands' HTTP contract (create, edit, rounds, status, image,
// delete) on one portal; each case is short, and together they are the contract.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { eventCount, multipart, png, type StartedCommandApi, withCommandApi } from './harness.ts';

describe.each(testDatabases())('courses, rounds and enrolment on $name', (database) => {
  let h: StartedCommandApi;
  withCommandApi(database, (started) => (h = started));

  // Sessions as sign-in issues them (the accounts themselves are tested elsewhere).
  const token = (sub: string, role: 'admin' | 'partner' | 'member') =>
    h.app.jwt.sign({ sub, role, username: sub, iatMs: Date.now() });
  const partner = () => token('aaaaaaaaaaaaaaaaaaaaaaa1', 'partner');
  const otherPartner = () => token('aaaaaaaaaaaaaaaaaaaaaaa2', 'partner');
  const admin = () => token('aaaaaaaaaaaaaaaaaaaaaaa3', 'admin');
  const member = (n: number) => token(`bbbbbbbbbbbbbbbbbbbb${String(n).padStart(4, '0')}`, 'member');
  const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object, language = 'en') =>
    h.app.inject({ method, url, payload, headers: { authorization: `Bearer ${auth}`, 'accept-language': language } });
  const course = {
    courseTopic: 'Thai cooking',
    courseDescription: 'Green and red curries',
    maxPeople: 3,
    status: 'public',
  };
  const createCourse = async (body: object = course, auth = partner()) => {
    const answer = await call('POST', '/api/admin/createcourse', auth, body);
    expect(answer.statusCode).toBe(201);
    return answer.json()._id as string;
  };

  it('creates on both paths for partners and admins, never for members, and checks every field', async () => {
    const first = await call('POST', '/api/admin/createcourse', partner(), course);
    expect(first.json()).toMatchObject({
      success: true,
      message: 'Course created successfully!',
      course: { _id: first.json()._id },
    });
    const second = await call('POST', '/api/admin/createcourses', admin(), { ...course, creator: 'someone-else' });
    expect(second.statusCode).toBe(201);
    const [created] = await h.store.readStream(`course-${second.json()._id}`);
    expect(created!.data).toMatchObject({ creator: 'aaaaaaaaaaaaaaaaaaaaaaa3', status: 'public' });

    const before = await eventCount(h.db);
    expect((await call('POST', '/api/admin/createcourse', member(1), course)).statusCode).toBe(403);
    const bad = await call('POST', '/api/admin/createcourse', partner(), {
      courseTopic: 'x'.repeat(101),
      courseDescription: '',
      maxPeople: -1,
      status: 'hidden',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      courseTopic: 'The topic can have at most 100 characters.',
      courseDescription: 'Please enter the course description.',
      maxPeople: 'Max participants must be a whole number, 0 or more (0 means unlimited).',
      status: 'Status must be public or private.',
    });
    const thai = await call('POST', '/api/admin/createcourse', partner(), {}, 'th');
    expect(thai.json().errors.courseTopic).toBe('กรุณากรอกหัวข้อหลักสูตร');
    expect(await eventCount(h.db)).toBe(before);
    // Private by default.
    const id = await createCourse({ courseTopic: 'T', courseDescription: 'D' });
    const [privateOne] = await h.store.readStream(`course-${id}`);
    expect(privateOne!.data).toMatchObject({ status: 'private', maxPeople: 0 });
  });

  it('lets only the creator or an admin change a course, its status, or delete it', async () => {
    const id = await createCourse();
    const text = { courseTopic: 'Thai cooking II', courseDescription: 'More curries', status: 'public', maxPeople: 5 };
    expect((await call('PUT', `/api/admin/updatecourses/${id}`, otherPartner(), text)).statusCode).toBe(403);
    expect((await call('PUT', `/api/admin/updatecourses/${id}`, partner(), text)).json()).toMatchObject({
      success: true,
      message: 'Course updated successfully!',
    });
    expect(
      (await call('PUT', `/api/admin/updatecourses/${id}`, partner(), { courseTopic: 'Only topic' })).json().errors,
    ).toEqual({
      courseDescription: 'Please enter the course description.',
    });
    // Without max participants, the text update keeps the number the course has.
    const keep = await call('PUT', `/api/admin/updatecourses/${id}`, partner(), {
      courseTopic: 'Thai cooking III',
      courseDescription: 'Still curries',
    });
    expect(keep.statusCode).toBe(200);
    expect((await h.store.readStream(`course-${id}`)).at(-1)!.data).toMatchObject({ maxPeople: 5 });
    expect((await call('PUT', `/api/admin/updatecourses/${id}`, partner(), { status: 'private' })).statusCode).toBe(
      200,
    );
    expect((await call('PUT', `/api/admin/course/${id}/status`, otherPartner(), { status: 'public' })).statusCode).toBe(
      403,
    );
    expect((await call('PUT', `/api/admin/course/${id}/status`, admin(), { status: 'public' })).statusCode).toBe(200);
    expect((await call('DELETE', `/api/admin/deletecourse/${id}`, otherPartner())).statusCode).toBe(403);
    expect((await call('DELETE', `/api/admin/deletecourse/${id}`, partner())).json().message).toBe(
      'The course has been deleted.',
    );
    expect((await call('DELETE', `/api/admin/deletecourse/${id}`, partner())).statusCode).toBe(404);
    const types = (await h.store.readStream(`course-${id}`)).map((event) => event.type);
    expect(types).toEqual([
      'CourseCreated',
      'CourseUpdated',
      'CourseUpdated',
      'CourseStatusChanged',
      'CourseStatusChanged',
      'CourseDeleted',
    ]);
  });

  it('schedules rounds numbered in time order, refuses overlaps and backwards times, reschedules and cancels', async () => {
    const id = await createCourse();
    const schedule = (start: string, end: string, auth = partner()) =>
      call('POST', `/api/admin/courses/${id}/rounds`, auth, { roundStartTime: start, roundEndTime: end });
    // Days from now at a given hour (UTC), so the rounds stay in the future whenever this runs.
    const at = (days: number, hours: number) =>
      new Date(
        Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + days, hours),
      ).toISOString();
    const late = await schedule(at(9, 9), at(9, 11));
    expect(late.statusCode).toBe(201);
    expect(late.json().round).toMatchObject({ roundNumber: 1, roundStartTime: at(9, 9) });
    const early = await schedule(at(8, 9), at(8, 11));
    expect(early.json().round.roundNumber).toBe(1);
    const overlap = await schedule(at(9, 10), at(9, 12));
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().message).toBe('This time overlaps another round of the course.');
    const backwards = await schedule(at(10, 11), at(10, 9));
    expect(backwards.json().errors).toEqual({ roundEndTime: 'The round must end after it starts.' });
    expect((await schedule(at(12, 9), at(12, 10), otherPartner())).statusCode).toBe(403);

    const roundId = late.json().round._id;
    const moved = await call('PUT', `/api/admin/courses/${id}/rounds/${roundId}`, partner(), {
      roundStartTime: at(7, 9),
      roundEndTime: at(7, 10),
    });
    expect(moved.json().round).toMatchObject({ _id: roundId, roundNumber: 1 });
    expect((await call('DELETE', `/api/admin/courses/${id}/rounds/${roundId}`, partner())).statusCode).toBe(200);
    expect((await call('DELETE', `/api/admin/courses/${id}/rounds/${roundId}`, partner())).statusCode).toBe(404);
  });

  it('keeps a round that has started as it was held: it cannot be cancelled or moved, in either language', async () => {
    const id = await createCourse();
    const now = Date.now();
    const times = (from: number, to: number) => ({
      roundStartTime: new Date(now + from).toISOString(),
      roundEndTime: new Date(now + to).toISOString(),
    });
    const hour = 3600_000;
    const held = (await call('POST', `/api/admin/courses/${id}/rounds`, partner(), times(-3 * hour, -2 * hour))).json()
      .round._id;
    const running = (await call('POST', `/api/admin/courses/${id}/rounds`, partner(), times(-hour, hour))).json().round
      ._id;
    const before = await eventCount(h.db);
    for (const roundId of [held, running]) {
      const cancel = await call('DELETE', `/api/admin/courses/${id}/rounds/${roundId}`, admin());
      expect(cancel.statusCode).toBe(409);
      expect(cancel.json().message).toBe(
        'This round has already started, so it cannot be cancelled or moved. To correct its attendance, void the wrong scans with a reason.',
      );
      const move = await call(
        'PUT',
        `/api/admin/courses/${id}/rounds/${roundId}`,
        partner(),
        times(5 * hour, 6 * hour),
        'th',
      );
      expect(move.statusCode).toBe(409);
      expect(move.json().message).toMatch(/^รอบเรียนนี้เริ่มแล้ว/);
    }
    expect(await eventCount(h.db)).toBe(before);
  });

  it('enrols members in public courses only, once each, and leaves', async () => {
    const privateId = await createCourse({ ...course, status: 'private' });
    expect((await call('POST', `/api/courses/${privateId}/enroll`, member(1))).json().message).toBe(
      'This course is not open for enrolment.',
    );
    const id = await createCourse();
    expect((await call('POST', `/api/courses/${id}/enroll`, member(1))).json()).toMatchObject({ success: true });
    const before = await eventCount(h.db);
    expect((await call('POST', `/api/courses/${id}/enroll`, member(1))).statusCode).toBe(200);
    expect(await eventCount(h.db)).toBe(before);
    expect((await call('POST', `/api/courses/${id}/enroll`, partner())).statusCode).toBe(403);
    expect((await call('DELETE', `/api/courses/${id}/enroll`, member(1))).statusCode).toBe(200);
    expect((await call('DELETE', `/api/courses/${id}/enroll`, member(1))).statusCode).toBe(409);
  });

  it('never goes beyond max participants when many members enrol at the same moment', async () => {
    const id = await createCourse({ ...course, maxPeople: 3 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) => call('POST', `/api/courses/${id}/enroll`, member(100 + n))),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
      expect(refused.json().message).toBe('This course is full.');
    }
    const enrolled = (await h.store.readStream(`course-${id}`)).filter((event) => event.type === 'MemberEnrolled');
    expect(enrolled).toHaveLength(3);
  });

  it('stores a course image under either field name, only for its managers, and refuses others', async () => {
    const id = await createCourse();
    const upload = async (content: Buffer, field: string, auth = partner(), language = 'en') => {
      const body = await multipart(field, content, 'course.png', 'image/png');
      return h.app.inject({
        method: 'PUT',
        url: `/api/admin/courses/${id}/uploadImage`,
        payload: body.payload,
        headers: { ...body.headers, authorization: `Bearer ${auth}`, 'accept-language': language },
      });
    };
    const created = await upload(await png(2400, 1200), 'courseImage');
    expect(created.statusCode).toBe(200);
    const { imageUrl } = created.json();
    expect(imageUrl).toMatch(new RegExp(`^/uploads/courses/${id}/[0-9a-f-]{36}\\.webp$`));
    const stored = await sharp(await readFile(join(h.uploadsDir, imageUrl.slice('/uploads/'.length)))).metadata();
    expect(stored).toMatchObject({ format: 'webp', width: 1280, height: 640 });
    const events = await h.store.readStream(`course-${id}`);
    expect(events.at(-1)).toMatchObject({ type: 'CourseImageChanged', data: { imageUrl } });

    // The update form's field name; the earlier image is removed once the new one is recorded.
    const replaced = await upload(await png(300, 200), 'profile', admin());
    expect(replaced.statusCode).toBe(200);
    expect(await readdir(join(h.uploadsDir, 'courses', id))).toEqual([replaced.json().imageUrl.split('/').at(-1)]);

    const before = await eventCount(h.db);
    expect((await upload(await png(10, 10), 'courseImage', otherPartner())).statusCode).toBe(403);
    expect((await upload(await png(10, 10), 'courseImage', member(1))).statusCode).toBe(403);
    const text = await upload(Buffer.from('%PDF-1.4 not an image'), 'courseImage');
    expect(text.statusCode).toBe(400);
    expect(text.json().errors).toEqual({ courseImage: 'Please choose a JPEG, PNG, WebP or GIF image.' });
    const large = await upload(Buffer.alloc(10 * 1024 * 1024 + 1, 1), 'courseImage', partner(), 'th');
    expect(large.statusCode).toBe(413);
    expect(large.json().errors).toEqual({ courseImage: 'ขนาดรูปภาพต้องไม่เกิน 10MB' });
    expect((await upload(await png(10, 10), 'photo')).statusCode).toBe(400);
    expect(await eventCount(h.db)).toBe(before);

    // Deleting the course removes its images.
    expect((await call('DELETE', `/api/admin/deletecourse/${id}`, partner())).statusCode).toBe(200);
    await expect(readdir(join(h.uploadsDir, 'courses', id))).rejects.toThrow();
    expect((await upload(await png(10, 10), 'courseImage')).statusCode).toBe(404);
  });

  it('accepts the old client-side write of counts, but never lets it change counts', async () => {
    const id = await createCourse();
    const before = await eventCount(h.db);
    const old = await call('PUT', `/api/admin/updatecourses/${id}`, partner(), { participate: 99, totalAttend: 99 });
    expect(old.statusCode).toBe(200);
    expect(old.json()).toMatchObject({ success: true });
    expect(await eventCount(h.db)).toBe(before);
  });
});
