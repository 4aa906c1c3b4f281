import { ulid } from 'ulid';
import { getContract } from '../../course/contracts/get.js';
import { runContractFor } from '../../mcp/tools/contract-runner.js';
import { bindTool } from '../../mcp/tools/define-tool.js';
import type { ToolContext } from '../../mcp/tools/tool-context.js';
import { ToolError } from '../../mcp/tools/errors.js';
import { DEFAULT_PREFERENCES, getPreferences } from '../../user/preferences.js';
import { expiryAfter, itemsExpiryFor, stateOf, type CourseSnapshot, type SessionRecord } from '../session-model.js';
import { createSession } from '../session-store.js';
import { hasOperatorModel } from '../tutor/model-target.js';
import { startContract } from '../contracts/start.js';

export const startTool = bindTool(startContract, async (given, ctx) => {
  const { context = {}, ...direct } = given;
  const args = { course: direct.course ?? context.course, topic: direct.topic ?? context.topic, tutoringStyle: direct.tutoringStyle ?? context.tutoringStyle };
  const now = ctx.now();
  if (ctx.principal.kind !== 'user' && !hasOperatorModel(ctx.services)) {
    throw new ToolError('UNAUTHORIZED', 'Anonymous sessions are not offered here: sign in (Authorization: Bearer <token>) to start a session.');
  }
  const preferences = ctx.principal.kind === 'user' ? await getPreferences(ctx.services.store, ctx.principal.userId) : DEFAULT_PREFERENCES;
  let course: CourseSnapshot | null = null;
  if (args.course) course = await courseSnapshot(ctx, args.course);
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
});

/** The course as the catalog tool sees it (run by contract: the course domain's code stays there). */
async function courseSnapshot(ctx: ToolContext, ref: string): Promise<CourseSnapshot> {
  const got = await runContractFor(ctx, getContract, { course: ref });
  if (!got) throw new Error('this process cannot look up courses (no contract runner)');
  if (!got.ok) throw new ToolError(got.error.code, got.error.message, got.error.details, got.instruction);
  const view = got.data as Pick<CourseSnapshot, 'ref' | 'title' | 'description' | 'prerequisitesText'>;
  return { ref: view.ref, title: view.title, description: view.description, prerequisitesText: view.prerequisitesText };
}
