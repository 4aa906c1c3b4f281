import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 29 end to end: the tools over HTTP on the shared table the sample catalog (Langara's catalogue included) was loaded into.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { catalog: 'shared' });
});
afterAll(async () => {
  await server?.close();
});

const resolve = (input: Record<string, unknown>) => server.rest('tn_transfer_resolve', { sourceInstitution: 'langara', targetInstitution: 'sfu', ...input }, null);

describe('institutions as people type them', () => {
  it('takes full names, aliases and BC Transfer Guide codes', async () => {
    const codes = await resolve({ sourceInstitution: 'LANG', targetInstitution: 'SFU', sourceCourses: ['CPSC 1150'], asOfDate: '2023-11-01' });
    for (const [from, to] of [['Langara College', 'Simon Fraser University'], ['langara  college.', 'simon fraser'], ['Langara', 'SFU']]) {
      const { status, body } = await resolve({ sourceInstitution: from, targetInstitution: to, sourceCourses: ['CPSC 1150'], asOfDate: '2023-11-01' });
      expect(status, `${from} → ${to}`).toBe(200);
      expect(body.plan, `${from} → ${to}`).toEqual(codes.body.plan);
    }
    const okanagan = await resolve({ targetInstitution: 'University of British Columbia - Okanagan', sourceCourses: ['CPSC 1150'] });
    expect(okanagan.status).toBe(200);
    expect(okanagan.body.targetInstitution).toBe('ubco');
    // A receiver only the data names (College of the Rockies) resolves by code and by name.
    expect((await resolve({ targetInstitution: 'College of the Rockies', sourceCourses: ['FMGT 2293'], asOfDate: '2023-11-01' })).status).toBe(200);
  });

  it('answers NOT_FOUND naming the known institutions for a name it does not know, never "0 credits"', async () => {
    const { status, body } = await resolve({ targetInstitution: 'Hogwarts School', sourceCourses: ['CPSC 1150'] });
    expect(status).toBe(404);
    expect(body.code).toBe('NOT_FOUND');
    expect(body.message).toContain('Hogwarts School');
    expect(body.message).toMatch(/langara \(Langara College, LANG\)/);
    expect(body.details.fields).toEqual([{ field: 'targetInstitution', message: 'unknown institution' }]);
  });

  it('says when a sender has no rules loaded, and which senders do', async () => {
    const { status, body } = await server.rest('tn_transfer_resolve', { sourceInstitution: 'Douglas College', targetInstitution: 'sfu', sourceCourses: ['ENGL 1130'] }, null);
    expect(status).toBe(404);
    expect(body.message).toMatch(/No transfer rules are loaded for Douglas College as a sending institution/);
    expect(body.message).toMatch(/alexander \(Alexander College\)/);
    expect(body.message).toMatch(/langara \(Langara College\)/);
    const compare = await server.rest('tn_transfer_compare', { sourceInstitution: 'DOUG', sourceCourses: ['ENGL 1130'] }, null);
    expect(compare.status).toBe(404);
    const pair = await server.rest('tn_transfer_resolve', { sourceInstitution: 'alexander', targetInstitution: 'BCIT', sourceCourses: ['ENGL 100'] }, null);
    expect(pair.status).toBe(404);
    expect(pair.body.message).toMatch(/No transfer rules from Alexander College to British Columbia Institute of Technology are loaded/);
  });
});

describe('the wording of a row limits the plan', () => {
  it('plans one of two courses the row says earn credit only once, and explains why', async () => {
    const { body } = await resolve({ sourceCourses: ['ENGL 1127', 'ENGL 1128'], asOfDate: '2023-11-01' });
    expect(body.plan.totalCredits).toBe(3);
    expect(body.plan.constraints).toEqual([expect.objectContaining({ type: 'one-of', side: 'sending', courses: ['ENGL 1127', 'ENGL 1128'], limitedPlan: true })]);
  });

  it('applies the award a condition gives once the student says it holds', async () => {
    const held = await resolve({ sourceCourses: ['CPSC 1150'], asOfDate: '2002-01-01', completedAtTarget: ['SFU CMPT 102'] });
    expect(held.body.plan.rules).toEqual([expect.objectContaining({ credits: 2, basis: 'conditional', awards: ['SFU CMPT 104 (2)'] })]);
    expect(held.body.exactMatches[0].award).toMatchObject({ basis: 'conditional', credits: 2, targets: [expect.objectContaining({ code: 'CMPT 104' })] });
    const aa = await server.rest('tn_transfer_resolve', { sourceInstitution: 'alexander', targetInstitution: 'ucw', sourceCourses: ['COMM 281'], program: 'Associate of Arts', asOfDate: '2025-06-01' }, null);
    expect(aa.body.plan.rules).toEqual([expect.objectContaining({ awards: ['BUSI 2XX'] })]);
  });

  it('flags a PDF row awarding far more than the course is worth in the catalogue, and leaves it out', async () => {
    const { body } = await resolve({ targetInstitution: 'capilano', sourceCourses: ['EDAS 1111'], asOfDate: '2023-11-01' });
    expect(body.exactMatches[0].warnings[0]).toMatch(/awards 6 credits for 3 credits sent \(sending credits from its catalogue or other rows\)/);
    expect(body.plan.totalCredits).toBe(0);
  });
});

describe('per-course completion dates', () => {
  it('resolves each course against the agreement in force when it was completed', async () => {
    const today = await resolve({ sourceCourses: ['POLI 1250'], asOfDate: '2025-01-01' });
    expect(today.body.exactMatches.map((m: any) => m.targets[0].text)).toEqual(['SFU POL 2XX (3)']);
    const then = await resolve({ sourceCourses: ['POLI 1250'], asOfDate: '2025-01-01', completedOn: { 'poli1250': '2010-12' } });
    expect(then.body.exactMatches.map((m: any) => m.targets[0].code)).toEqual(['POL 231']);
    expect(then.body.exactMatches[0].checkedOn).toBe('2010-12-31');
  });

  it('refuses a completion date that is not a date, or for a course not given, naming the entry', async () => {
    for (const completedOn of [{ 'POLI 1250': '2010-13' }, { 'POLI 1250': '2010-02-30' }, { 'CPSC 1150': '2010-12' }]) {
      const { status, body } = await resolve({ sourceCourses: ['POLI 1250'], completedOn });
      expect(status, JSON.stringify(completedOn)).toBe(400);
      expect(body.details.fields[0].field, JSON.stringify(completedOn)).toMatch(/^completedOn\./);
    }
  });
});

describe('compare and reverse lookup', () => {
  it('ranks receivers on one credit scale and says the rule per receiver', async () => {
    const courses = ['CPSC 1150', 'MATH 1171', 'ENGL 1127', 'PSYC 1115'];
    const { body } = await server.rest('tn_transfer_compare', { sourceInstitution: 'Langara College', sourceCourses: courses, asOfDate: '2023-11-01', completedOn: { 'CPSC 1150': '2023-04' } }, null);
    const uvic = body.receivers.find((r: any) => r.institution === 'uvic');
    expect(uvic.creditScale).toMatchObject({ factor: 2, unit: 'units' });
    expect(uvic.normalizedCredits).toBe(uvic.plannedCredits * 2);
    const sfu = body.receivers.find((r: any) => r.institution === 'sfu');
    // All four transfer to both: 6 units at UVic are SFU's 12 credits, so neither ranks above the other on credit.
    expect(uvic.coursesTransferred).toHaveLength(4);
    expect(uvic.normalizedCredits).toBe(sfu.normalizedCredits);
    const ranked = body.receivers.map((r: any) => r.normalizedCredits);
    expect(ranked).toEqual([...ranked].sort((a: number, b: number) => b - a));
  });

  it('finds a receiving course awarded as an alternative, an exemption or under a condition, and generic credit', async () => {
    const econ = await server.rest('tn_transfer_search', { targetInstitution: 'sfu', targetCourse: 'ECON 233' }, null);
    expect(econ.status).toBe(200);
    const stat = econ.body.items.find((r: any) => r.sourceCourses.join('+') === 'langara:STAT 1181+langara:STAT 1182');
    expect(stat.awardedAs).toEqual(['alternative']);
    const exempt = await server.rest('tn_transfer_search', { targetInstitution: 'sfu', targetCourse: 'CMPT 127', sourceInstitution: 'langara' }, null);
    expect(exempt.body.items.some((r: any) => r.awardedAs.includes('exemption'))).toBe(true);
    const generic = await server.rest('tn_transfer_search', { targetInstitution: 'sfu', targetCourse: 'asc 2xx' }, null);
    expect(generic.status).toBe(200);
    expect(generic.body.items.length).toBeGreaterThan(0);
    expect(generic.body.items.every((r: any) => r.awardedAs.includes('generic'))).toBe(true);
    const conditional = await server.rest('tn_transfer_search', { targetInstitution: 'sfu', targetCourse: 'CMPT 104' }, null);
    expect(conditional.body.items.some((r: any) => r.awardedAs.includes('conditional'))).toBe(true);
    const bad = await server.rest('tn_transfer_search', { targetInstitution: 'sfu', targetCourse: 'not a course' }, null);
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields[0].field).toBe('targetCourse');
  });
});
