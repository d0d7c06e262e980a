import { MemberEnrolled, courseStream } from '@portal/contracts/courses/course.events';
import { sampleMember } from '@portal/platform/testing/accounts';
import type { EventStore } from '@portal/platform/store/port';

/** An answer as fastify's inject gives it, and as a remote client can. */
export interface CallAnswer {
  statusCode: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any -- as light-my-request's
}

/**
 * What the calls need of a portal: a way to send a request (in-process, or over the network to a
 * running shape), the session signer, the admin's session, and the log (to backdate an enrolment).
 */
export interface CallablePortal {
  app: {
    inject(request: {
      method: string;
      url: string;
      payload?: object;
      headers?: Record<string, string>;
    }): Promise<CallAnswer>;
    jwt: { sign(payload: object): string };
  };
  adminToken: string;
  store: Pick<EventStore, 'append'>;
}

/**
 * Calls to a test portal as the console makes them: a Bearer token, English, and the position of
 * the caller's last write, so every query sees what the test just did (read-your-writes). Takes
 * the portal lazily, as tests open it in `beforeAll`.
 */
export function portalCalls(portalOf: () => CallablePortal) {
  let lastPosition = 0;
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) => {
    const answer = await portalOf().app.inject({
      method,
      url,
      payload,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', 'x-min-position': String(lastPosition) },
    });
    const json = String(answer.headers['content-type'] ?? '').includes('json');
    const position = json ? answer.json()?.position : undefined;
    if (typeof position === 'number' && position > lastPosition) lastPosition = position;
    return answer;
  };
  /** A partner's session, signed the way the portal signs them. */
  const partner = (id = 'cccccccccccccccccccccc09') =>
    portalOf().app.jwt.sign({ sub: id, role: 'partner', username: 'p', iatMs: Date.now() });
  /** A member who registered, was approved by the admin and signed in. */
  async function approvedMember(fullName: string, overrides: Record<string, unknown> = {}) {
    const person = sampleMember({ fullName, ...overrides });
    const { _id } = (await call('POST', '/api/members/register', '', person)).json();
    await call('PUT', `/api/admin/registration/${_id}/status`, portalOf().adminToken, { status: 'approved' });
    const token = (
      await call('POST', '/api/login', '', { username: person.username, password: person.password })
    ).json().partner.token as string;
    return { id: _id as string, token, person };
  }
  /**
   * A member enrolled since a moment in the past, as the log would hold it had they enrolled then
   * (the API enrols at the server's time): for stories about rounds held after someone enrolled.
   */
  async function enrolledSince(courseId: string, memberId: string, enrolledAt: string) {
    const { position } = await portalOf().store.append(
      courseStream(courseId),
      [MemberEnrolled.create({ memberId, enrolledAt })],
      { expectedRevision: 'any' },
    );
    if (position > lastPosition) lastPosition = position;
  }
  /**
   * A public course without a limit, created by `token`, with rounds from and to the given offsets
   * (ms from now); answers its id and the rounds' ids in the order given.
   */
  async function courseWithRounds(token: string, rounds: [from: number, to: number][], topic = 'A course') {
    const created = await call('POST', '/api/admin/createcourse', token, {
      courseTopic: topic,
      courseDescription: `${topic}, for testing`,
      maxPeople: 0,
      status: 'public',
    });
    const id = created.json()._id as string;
    const roundIds: string[] = [];
    for (const [from, to] of rounds) {
      const round = await call('POST', `/api/admin/courses/${id}/rounds`, token, {
        roundStartTime: new Date(Date.now() + from).toISOString(),
        roundEndTime: new Date(Date.now() + to).toISOString(),
      });
      roundIds.push(round.json().round._id as string);
    }
    return { id, rounds: roundIds };
  }
  return { call, partner, approvedMember, enrolledSince, courseWithRounds };
}
