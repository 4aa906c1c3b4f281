import * as z from 'zod/v4';
import { describe, expect, it } from 'vitest';
import { ALL_CONTRACTS, ALL_SURFACE } from '../../functions/all-contracts.js';
import { SearchIndex } from '../../functions/catalog/catalog-index.js';
import { codePrefix } from '../../functions/course/course-completion.js';
import type { CourseView } from '../../functions/catalog/course-view.js';
import { surfaceBreakingChanges, surfaceEntries, surfaceProblems } from '../../functions/mcp/contract/surface-entries.js';
import { MAX_RESOURCE_LINKS, resourceLinksIn } from '../../functions/mcp/surface/resource-links.js';
import { definePrompt, expandTemplate, matchTemplate } from '../../functions/mcp/surface/surface-contract.js';

const TOOL_NAMES = new Set(ALL_CONTRACTS.map((contract) => contract.name));

describe('resource and prompt contracts', () => {
  it('every resource and prompt keeps the rules against the tools it is served with', () => {
    expect(surfaceProblems(ALL_SURFACE, TOOL_NAMES)).toEqual([]);
  });

  it('flags a prompt whose text sends the model to a tool it does not list, or to one that does not exist', () => {
    const prompt = definePrompt({
      name: 'bad-prompt',
      domain: 'course',
      title: 'Bad',
      description: 'A prompt that names a tool it does not declare, for the test.',
      args: z.strictObject({ course: z.string().describe('A course') }),
      completions: { course: 'course' },
      usesTools: ['course_nothing'],
      render: ({ course }) => `Use tn_course_get on ${course}.`,
    });
    expect(surfaceProblems({ resources: [], prompts: [prompt] }, TOOL_NAMES)).toEqual([
      'prompt bad-prompt: no tool course_nothing',
      'prompt bad-prompt: names tn_course_get but does not list it in usesTools',
    ]);
  });

  it('treats a removed prompt, a newly required argument and a moved resource as breaking', () => {
    const before = surfaceEntries(ALL_SURFACE, 'tn_');
    expect(surfaceBreakingChanges(before, before)).toEqual([]);
    const after = structuredClone(before);
    after.prompts = after.prompts.filter((p) => p.name !== 'can-i-take');
    after.prompts.find((p) => p.name === 'study-session')!.arguments.required!.push('topic');
    after.resources.find((r) => r.name === 'course')!.uriTemplate = 'course://{code}';
    expect(surfaceBreakingChanges(before, after)).toEqual([
      'resource course: URI template changed',
      'prompt can-i-take: removed or renamed',
      'prompt study-session: argument "topic" is newly required',
    ]);
  });
});

describe('URI templates', () => {
  it('expand and match with percent-encoding, and refuse what does not fit', () => {
    const uri = expandTemplate('course://{institution}/{code}', { institution: 'sfu', code: 'CMPT 225' });
    expect(uri).toBe('course://sfu/CMPT%20225');
    expect(matchTemplate('course://{institution}/{code}', uri)).toEqual({ institution: 'sfu', code: 'CMPT 225' });
    expect(matchTemplate('course://{institution}/{code}', 'course://sfu/CMPT/225')).toBeUndefined();
    expect(matchTemplate('session://{sessionId}/transcript', 'session://x/y')).toBeUndefined();
    expect(matchTemplate('course://{institution}/{code}', 'course://sfu/%E0%A4%A')).toBeUndefined();
    expect(matchTemplate('catalog://institutions', 'catalog://institutions')).toEqual({});
  });
});

describe('completion by prefix', () => {
  const course = (ref: string): CourseView => {
    const [institution, code] = ref.split(':') as [string, string];
    const [subject, number] = code.split(' ') as [string, string];
    return { ref, institution, code, subject, number, level: 1, title: null, description: null, credits: null, prerequisitesText: null, corequisitesText: null, notes: null, designation: null, attributes: [], deliveryMethod: null, degreeLevel: null, hours: null, sources: [] };
  };
  const index = SearchIndex.build(['sfu:CMPT 120', 'sfu:CMPT 225', 'sfu:CMPT 201', 'sfu:CMPT 307', 'sfu:MATH 232', 'ubc:CPSC 221'].map(course));

  it('finds references starting with what was typed, in order, with the total', () => {
    expect(index.refsStartingWith('sfu:CMPT 2', 10)).toEqual({ refs: ['sfu:CMPT 201', 'sfu:CMPT 225'], total: 2 });
    expect(index.refsStartingWith('sfu:CMPT', 1)).toEqual({ refs: ['sfu:CMPT 120'], total: 4 });
    expect(index.refsStartingWith('sfu:ZZZ', 10)).toEqual({ refs: [], total: 0 });
  });

  it('reads loosely typed codes the way the index writes them', () => {
    expect(codePrefix('cmpt2')).toBe('CMPT 2');
    expect(codePrefix('  cmpt   22')).toBe('CMPT 22');
    expect(codePrefix('cmp')).toBe('CMP');
  });
});

describe('resource links in tool results', () => {
  it('links named courses and rules once each, at most ten, only for resources served', () => {
    const data = { items: Array.from({ length: 30 }, (_, i) => ({ ref: `sfu:CMPT ${100 + i}`, ruleId: 'bctg-abc123' })), course: 'sfu:CMPT 100' };
    const links = resourceLinksIn(data, ALL_SURFACE);
    expect(links).toHaveLength(MAX_RESOURCE_LINKS);
    expect(links.slice(0, 2).map((l) => l.uri)).toEqual(['course://sfu/CMPT%20100', 'transfer-rule://bctg-abc123']);
    expect(new Set(links.map((l) => l.uri)).size).toBe(links.length);
    expect(resourceLinksIn(data, { resources: ALL_SURFACE.resources.filter((r) => r.name === 'course'), prompts: [] }).every((l) => l.uri.startsWith('course://'))).toBe(true);
    expect(resourceLinksIn(data, { resources: [], prompts: [] })).toEqual([]);
    expect(resourceLinksIn({ ref: 'not a course' }, ALL_SURFACE)).toEqual([]);
  });
});
