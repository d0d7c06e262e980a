/**
 * What the scan benchmarks set up over HTTP before they scan: an approved partner, approved
 * members, and courses of one open round each, every member enrolled in every course.
 */
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: number; body: Record<string, any> };
export type Call = (method: string, path: string, body?: unknown, token?: string) => Promise<Answer>;

export interface ScanSetup {
  partner: { id: string; token: string };
  members: { id: string; token: string }[];
  rounds: string[];
}

export async function setUpScanning(
  call: Call,
  admin: { username: string; password: string },
  counts: { rounds: number; members: number; roundOpenForMs: number },
): Promise<ScanSetup> {
  const adminToken = (await call('POST', '/api/login', admin)).body.partner.token as string;
  const approved = async (path: string, person: { username: string; password: string }) => {
    const { _id } = (await call('POST', path, person)).body;
    await call('PUT', `/api/admin/registration/${_id}/status`, { status: 'approved' }, adminToken);
    return { id: _id as string, token: (await call('POST', '/api/login', person)).body.partner.token as string };
  };
  const partner = await approved('/api/partners/register', samplePartner());
  const members: ScanSetup['members'] = [];
  for (let i = 0; i < counts.members; i++) members.push(await approved('/api/members/register', sampleMember()));
  const rounds: string[] = [];
  for (let r = 0; r < counts.rounds; r++) {
    const course = (
      await call(
        'POST',
        '/api/admin/createcourse',
        { courseTopic: `Bench ${r}`, courseDescription: 'Load', status: 'public', maxPeople: 0 },
        partner.token,
      )
    ).body._id as string;
    const round = await call(
      'POST',
      `/api/admin/courses/${course}/rounds`,
      {
        roundStartTime: new Date(Date.now() - 3600_000).toISOString(),
        roundEndTime: new Date(Date.now() + counts.roundOpenForMs).toISOString(),
      },
      partner.token,
    );
    rounds.push(round.body.round._id as string);
    for (const member of members) await call('POST', `/api/courses/${course}/enroll`, {}, member.token);
  }
  return { partner, members, rounds };
}
