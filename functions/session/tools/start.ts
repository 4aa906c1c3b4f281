import { ulid } from 'ulid';
import * as z from 'zod/v4';
import { loadCourse, CourseRefInput } from '../../course/course-lookup.js';
import { defineTool } from '../../shared/tools/define-tool.js';
import { ToolError } from '../../shared/tools/errors.js';
import { DEFAULT_PREFERENCES, getPreferences } from '../../user/preferences.js';
import { expiryAfter, itemsExpiryFor, SessionStateSchema, stateOf, TUTORING_STYLES, type CourseSnapshot, type SessionRecord } from '../session-model.js';
import { createSession } from '../session-store.js';
import { hasOperatorModel } from '../tutor/model-target.js';
import { WRITE } from './session-tool.js';

const contextFields = {
  course: CourseRefInput.optional().describe('Course the session is about, e.g. "sfu:CMPT 120"; grounds the tutor in its catalog entry'),
  topic: z.string().trim().min(1).max(200).optional().describe('What the student wants to work on, e.g. "recursion"'),
  tutoringStyle: z.enum(TUTORING_STYLES).optional().describe('Overrides the preference for this session: socratic, direct or balanced'),
};

const input = z.strictObject({
  ...contextFields,
  // Seed 000 passes these inside `context`; both shapes are accepted, top-level fields win.
  context: z.strictObject(contextFields).optional().describe('The same fields nested, as in seed 000: { course, topic, tutoringStyle }'),
});

export const startTool = defineTool({
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
  async handler(given, ctx) {
    const { context = {}, ...direct } = given;
    const args = { course: direct.course ?? context.course, topic: direct.topic ?? context.topic, tutoringStyle: direct.tutoringStyle ?? context.tutoringStyle };
    const now = ctx.now();
    if (ctx.principal.kind !== 'user' && !hasOperatorModel(ctx.services)) {
      throw new ToolError('UNAUTHORIZED', 'Anonymous sessions are not offered here: sign in (Authorization: Bearer <token>) to start a session.');
    }
    const preferences = ctx.principal.kind === 'user' ? await getPreferences(ctx.services.store, ctx.principal.userId) : DEFAULT_PREFERENCES;
    let course: CourseSnapshot | null = null;
    if (args.course) {
      const { view } = await loadCourse(ctx, args.course);
      course = { ref: view.ref, title: view.title, description: view.description, prerequisitesText: view.prerequisitesText };
    }
    const expiresAt = expiryAfter(now, ctx.services.config.tutor.retentionDays).toISOString();
    const record: SessionRecord = {
      sessionId: ulid(now.getTime()),
      ownerId: ctx.principal.kind === 'user' ? ctx.principal.userId : null,
      status: 'active',
      context: {
        course: course?.ref ?? null,
        courseTitle: course?.title ?? null,
        topic: args.topic ?? null,
        tutoringStyle: args.tutoringStyle ?? preferences.tutoringStyle,
        language: preferences.language,
      },
      course,
      createdAt: now.toISOString(),
      lastActivityAt: now.toISOString(),
      expiresAt,
      endedAt: null,
      lastSeq: 0,
      itemsExpireAt: itemsExpiryFor(expiresAt, ctx.services.config.tutor.retentionDays),
      summary: null,
    };
    await createSession(ctx.services.store, record);
    return {
      data: { sessionId: record.sessionId, expiresAt, state: stateOf(record) },
      hints: {
        confidence: [{ name: 'stored', value: 1 }, { name: 'course-grounded', value: course ? 1 : 0, weight: 0.5 }],
        nextActions: [
          { action: 'ask', priority: 'high', tool: 'tn_session_ask', description: 'send the student\'s first question', data: { sessionId: record.sessionId } },
        ],
        assumptions: [`Tutoring style ${record.context.tutoringStyle}${args.tutoringStyle ? ' (set for this session)' : ' (from preferences)'}`],
        validityPeriod: 'long',
      },
    };
  },
});
