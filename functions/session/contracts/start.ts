import * as z from 'zod/v4';
import { CourseRefInput } from '../../course/contracts/catalog-tool.js';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { SessionStateSchema, TUTORING_STYLES } from '../session-model.js';
import { WRITE } from './session-tool.js';

export const contextFields = {
  course: CourseRefInput.optional().describe('Course the session is about, e.g. "sfu:CMPT 120"; grounds the tutor in its catalog entry'),
  topic: z.string().trim().min(1).max(200).optional().describe('What the student wants to work on, e.g. "recursion"'),
  tutoringStyle: z.enum(TUTORING_STYLES).optional().describe('Overrides the preference for this session: socratic, direct or balanced'),
};

export const input = z.strictObject({
  ...contextFields,
  // Seed 000 passes these inside `context`; both shapes are accepted, top-level fields win.
  context: z.strictObject(contextFields).optional().describe('The same fields nested, as in seed 000: { course, topic, tutoringStyle }'),
});

export const startContract = defineContract({
  ...WRITE,
  name: 'session_start',
  title: 'Start a tutoring session',
  description:
    'Creates a tutoring session, optionally about one course (its catalog entry grounds the tutor) and a topic. Use this before ' +
    'tn_session_ask. Returns the sessionId (a ULID), when the session expires without activity, and its state. ' +
    'Example: start a session on "sfu:CMPT 120" about "loops".',
  input,
  output: z.object({ sessionId: z.ulid(), expiresAt: z.iso.datetime(), state: SessionStateSchema }),
  responseTime: 'fast',
  idempotent: false,
  tags: ['tutoring', 'session'],
  examples: [
    { description: 'Start a session on an SFU course', input: { course: 'sfu:CMPT 120', topic: 'loops' }, expect: 'success' },
    { description: 'A course that is not in the catalog', input: { course: 'sfu:ZZZZ 999' }, expect: 'NOT_FOUND' },
    { description: 'The seed 000 shape, with the context nested', input: { context: { course: 'langara:CPSC 1150', topic: 'arrays' } }, expect: 'success' },
  ],
});
