import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { catalog: 'shared' });
});
afterAll(async () => {
  await server?.close();
});

const resolve = (input: Record<string, unknown>) =>
  server.rest('tn_transfer_resolve', { sourceInstitution: 'langara', targetInstitution: 'sfu', ...input }, null);

describe('transfer tools on the shipped BC Transfer Guide data', () => {
  it('resolves a bundle and its overlapping single-course rule, and plans the most credit', async () => {
    const { status, body } = await resolve({ sourceCourses: ['CPSC 1160', 'CPSC 1181'], asOfDate: '2023-01-01' });
    expect(status).toBe(200);
    const bundle = body.exactMatches.find((m: any) => m.sourceCourses.length === 2);
    expect(bundle.targets.map((t: any) => t.text)).toEqual(expect.arrayContaining(['SFU CMPT 125 (3)']));
    expect(bundle.targetKinds).toEqual(expect.arrayContaining(['course', 'generic']));
    const single = body.exactMatches.find((m: any) => m.sourceCourses.length === 1 && m.usedCourses[0] === 'langara:CPSC 1181');
    expect(single.targets.some((t: any) => t.code === 'CMPT 125')).toBe(true);
    expect(body.plan).toMatchObject({ ruleIds: [bundle.ruleId], totalCredits: 6, optimal: true });
    expect(bundle.evidence[0].url).toContain('bctransferguide.ca');
    expect(bundle.confidence).toBeGreaterThan(0);
    expect(bundle.confidence).toBeLessThan(1);
  });

  it('never depends on the order of the courses', async () => {
    const a = await resolve({ sourceCourses: ['CPSC 1160', 'CPSC 1181', 'MATH 1171'], asOfDate: '2023-01-01' });
    const b = await resolve({ sourceCourses: ['MATH 1171', 'CPSC 1181', 'cpsc1160'], asOfDate: '2023-01-01' });
    // roundTrips is how this call read the store (the second may be served from memory), not the answer.
    const { normalizedCourses: _a, roundTrips: _ra, ...restA } = a.body;
    const { normalizedCourses: _b, roundTrips: _rb, ...restB } = b.body;
    expect(restB).toEqual(restA);
  });

  it('names the missing courses of a partial match, with lower confidence, and reports near misses', async () => {
    const { body } = await resolve({ sourceCourses: ['CPSC1160', 'CPSC 1999'] });
    const partial = body.partialMatches.find((m: any) => m.missingCourses.includes('langara:CPSC 1181'));
    expect(partial.usedCourses).toEqual(['langara:CPSC 1160']);
    expect(partial.confidence).toBeLessThan(0.6);
    expect(body.nearMisses).toEqual([expect.objectContaining({ course: 'langara:CPSC 1999', reason: 'no-rule' })]);
    expect(body.normalizedCourses).toEqual([{ input: 'CPSC1160', code: 'langara:CPSC 1160' }]);
  });

  it('filters by date: a rule that ended is reported as not in force', async () => {
    const old = await resolve({ sourceCourses: ['CPSC 1160'], asOfDate: '2010-06-01' });
    expect(old.body.exactMatches.some((m: any) => m.targets.some((t: any) => t.code === 'CMPT 212'))).toBe(true);
  });

  it('takes asOfDate as an RFC 3339 date-time: the calendar date at that instant in Vancouver', async () => {
    const courses = { sourceCourses: ['CPSC 1160', 'CPSC 1181'] };
    const plainDate = await resolve({ ...courses, asOfDate: '2023-02-28' });
    for (const instant of ['2023-03-01T00:00:00Z', '2023-02-28T23:30:00-08:00', '2023-03-01T03:00:00+05:00']) {
      const { status, body } = await resolve({ ...courses, asOfDate: instant });
      expect(status, instant).toBe(200);
      expect(body.asOfDate, instant).toBe('2023-02-28');
      expect(body.exactMatches, instant).toEqual(plainDate.body.exactMatches);
    }
    expect((await resolve({ ...courses, asOfDate: '2023-03-01T00:00:00-08:00' })).body.asOfDate).toBe('2023-03-01');
    const search = await server.rest('tn_transfer_search', { sourceInstitution: 'langara', targetInstitution: 'sfu', course: 'CPSC 1150', asOfDate: '2023-01-01T12:00:00Z' }, null);
    expect(search.status).toBe(200);
    const equivalents = await server.rest('tn_course_equivalent_elsewhere', { course: 'langara:CPSC 1150', asOfDate: '2023-01-01T12:00:00+01:00' }, null);
    expect(equivalents.status).toBe(200);
  });

  it('refuses a date-time without an offset or an impossible date, naming asOfDate', async () => {
    for (const asOfDate of ['2023-03-01T00:00:00', '2023-02-29', '2023-03-01T25:00:00Z']) {
      const { status, body } = await resolve({ sourceCourses: ['CPSC 1160'], asOfDate });
      expect(status, asOfDate).toBe(400);
      expect(body.details.fields.map((f: any) => f.field), asOfDate).toEqual(['asOfDate']);
    }
  });

  it('answers the same whatever the spelling and order of the courses', async () => {
    const a = await resolve({ sourceCourses: ['lang:cpsc1160', 'HIST 1130', 'langara:hist1115'], asOfDate: '2023-01-01' });
    const b = await resolve({ sourceCourses: ['LANG:HIST 1115', 'LANG:CPSC 1160', 'hist  1130'], asOfDate: '2023-01-01' });
    const { normalizedCourses: _a, roundTrips: _ra, ...restA } = a.body;
    const { normalizedCourses: _b, roundTrips: _rb, ...restB } = b.body;
    expect(restB).toEqual(restA);
    expect(a.body.plan.rules.flatMap((r: any) => r.consumes).sort()).toEqual(['HIST 1115', 'HIST 1130']);
    expect(a.body.partialMatches.some((m: any) => m.missingCourses.includes('langara:CPSC 1181'))).toBe(true);
  });

  it('takes what the caller knows about the student: a prior-credit condition then holds', async () => {
    const unknown = await resolve({ sourceCourses: ['POLI 1250'], asOfDate: '2010-01-01' });
    expect(unknown.body.conditionalMatches).toEqual([expect.objectContaining({ conditions: [expect.objectContaining({ type: 'prior-credit', status: 'unknown' })] })]);
    expect(unknown.body.plan.ruleIds).not.toContain(unknown.body.conditionalMatches[0].ruleId);
    const known = await resolve({ sourceCourses: ['POLI 1250'], asOfDate: '2010-01-01', completedAtTarget: ['SFU POL 231'] });
    expect(known.body.conditionalMatches).toEqual([]);
    expect(known.body.plan.ruleIds).toEqual([unknown.body.conditionalMatches[0].ruleId]);
    const refused = await resolve({ sourceCourses: ['POLI 1250'], grades: { 'POLI 1250': 'excellent' } });
    expect(refused.status).toBe(400);
  });

  it('explains the plan to the agent in _meta: what was chosen, what was left out and why', async () => {
    const client = await connectClient(server.url, { token: null });
    try {
      const result = await client.callTool({ name: 'tn_transfer_resolve', arguments: { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: ['HIST 1115', 'HIST 1130'], asOfDate: '2023-01-01' } });
      const reasoning = (result._meta as any).agentHints.reasoning as string;
      expect(reasoning).toMatch(/^The plan transfers 6 credits, the most possible/);
      expect(reasoning).toContain('Chose HIST 1115 + HIST 1130');
      expect(reasoning).toMatch(/Left out HIST 11[13][05] → SFU HIST 225 \(3\), B-Hum: HIST 225 is already awarded by/);
    } finally {
      await client.close();
    }
  });

  it('searches a pair by subject and course, and pages with cursors', async () => {
    const first = await server.rest('tn_transfer_search', { sourceInstitution: 'LANG', targetInstitution: 'SFU', subject: 'CPSC', limit: 5 }, null);
    expect(first.body.items).toHaveLength(5);
    expect(first.body.items.every((r: any) => r.sourceCourses[0].startsWith('langara:CPSC'))).toBe(true);
    const next = await server.rest('tn_transfer_search', { sourceInstitution: 'LANG', targetInstitution: 'SFU', subject: 'CPSC', limit: 5, cursor: first.body.nextCursor }, null);
    expect(next.body.items[0].ruleId).not.toBe(first.body.items[0].ruleId);
    const one = await server.rest('tn_transfer_search', { sourceInstitution: 'langara', targetInstitution: 'sfu', course: 'CPSC 1150', asOfDate: '2023-01-01' }, null);
    expect(one.body.items.length).toBeGreaterThan(0);
    expect(one.body.items.every((r: any) => r.sourceCourses.includes('langara:CPSC 1150'))).toBe(true);
  });

  it('looks the other way: which sending courses earn a receiving course, from one sender or every sender', async () => {
    const any = await server.rest('tn_transfer_search', { targetInstitution: 'sfu', targetCourse: 'sfu:CMPT 125', limit: 100 }, null);
    expect(any.status).toBe(200);
    expect(any.body.items.length).toBeGreaterThan(0);
    expect(any.body.items.every((r: any) => r.targets.some((t: string) => /CMPT 125/.test(t)))).toBe(true);
    const senders = new Set(any.body.items.flatMap((r: any) => r.sourceCourses.map((c: string) => c.split(':')[0])));
    expect(senders.has('langara')).toBe(true);
    const fromLangara = await server.rest('tn_transfer_search', { sourceInstitution: 'langara', targetInstitution: 'sfu', targetCourse: 'CMPT 125', subject: 'CPSC', asOfDate: '2023-01-01' }, null);
    expect(fromLangara.body.items.length).toBeGreaterThan(0);
    expect(fromLangara.body.items.every((r: any) => r.sourceCourses.some((c: string) => c.startsWith('langara:CPSC')))).toBe(true);
    const neither = await server.rest('tn_transfer_search', { targetInstitution: 'sfu' }, null);
    expect(neither.status).toBe(400);
    expect(neither.body.details.fields[0].field).toBe('sourceInstitution');
  });

  it('compares receivers for one course set, ranked by planned credit, with what is lost where', async () => {
    const courses = ['CPSC 1150', 'MATH 1171', 'ENGL 1127', 'HIST 1115'];
    const { status, body } = await server.rest('tn_transfer_compare', { sourceInstitution: 'langara', sourceCourses: courses, asOfDate: '2023-11-01' }, null);
    expect(status).toBe(200);
    expect(body.receivers.length).toBeGreaterThan(5);
    // Ranked on one scale: UVic's units count double (1.5 units is a one-term course).
    const credits = body.receivers.map((r: any) => r.normalizedCredits);
    expect(credits).toEqual([...credits].sort((a, b) => b - a));
    for (const receiver of body.receivers) expect(receiver.normalizedCredits).toBeCloseTo(receiver.plannedCredits * receiver.creditScale.factor, 6);
    for (const receiver of body.receivers) {
      expect([...receiver.coursesTransferred, ...receiver.coursesLost].sort()).toEqual(courses.map((c) => `langara:${c}`).sort());
      // Each receiver's entry is what tn_transfer_resolve plans there.
    }
    const sfu = body.receivers.find((r: any) => r.institution === 'sfu');
    const resolved = await server.rest('tn_transfer_resolve', { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: courses, asOfDate: '2023-11-01' }, null);
    expect(sfu.plannedCredits).toBe(resolved.body.plan.totalCredits);
    expect(sfu.ruleIds).toEqual(resolved.body.plan.ruleIds);
    const only = await server.rest('tn_transfer_compare', { sourceInstitution: 'LANG', sourceCourses: courses, receivers: ['SFU', 'ubcv'], asOfDate: '2023-11-01' }, null);
    expect(only.body.receivers.map((r: any) => r.institution).sort()).toEqual(['sfu', 'ubc']);
  });

  it('shows a rule in full with its history', async () => {
    const { body } = await resolve({ sourceCourses: ['CPSC 1181'], asOfDate: '2023-01-01' });
    const ruleId = body.exactMatches[0].ruleId;
    const details = await server.rest('tn_transfer_details', { ruleId }, null);
    expect(details.body.rule).toMatchObject({ ruleId, senderInstitution: 'langara', receiverInstitution: 'sfu' });
    expect(details.body.rule.rawDetail).toContain('SFU CMPT 125');
    expect(details.body.history.length).toBeGreaterThan(0);
    expect(details.body.history.every((h: any) => h.ruleId !== ruleId)).toBe(true);
    expect((await server.rest('tn_transfer_details', { ruleId: 'bctg-nope0000' }, null)).status).toBe(404);
  });

  it('resolves the API-format data too (Alexander College to UBC Vancouver)', async () => {
    const { body } = await server.rest('tn_transfer_resolve', { sourceInstitution: 'ALEX', targetInstitution: 'UBCV', sourceCourses: ['ANTH 101', 'ENGL 100'] }, null);
    expect(body.exactMatches.length).toBeGreaterThan(0);
    expect(body.exactMatches[0].confidenceFactors.provenance).toBeGreaterThan(0.9);
  });
});
