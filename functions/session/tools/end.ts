import * as z from 'zod/v4';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { defineTool } from '../../shared/tools/define-tool.js';
import { endSession } from '../drafts.js';
import { DeviceIdInput, CurrentSessionIdInput } from '../session-model.js';
import { openSessionFor } from '../session-store.js';
import { EXAMPLE_SESSION_ID, WRITE } from './session-tool.js';

export const endTool = defineTool({
  ...WRITE,
  name: 'session_end',
  title: 'End a tutoring session',
  description:
    'Closes a session gracefully; use it when the student is done. Pending drafts are cancelled and a session_ended event closes the ' +
    'log; later asks are refused. Returns the end time and latest seq; the transcript stays readable until the session expires. ' +
    'Calling it again is harmless. Example: end the session when the student says goodbye.',
  input: z.strictObject({
    sessionId: CurrentSessionIdInput,
    reason: z.string().trim().max(200).optional().describe('Why the session ended, e.g. "finished the exercise"'),
    deviceId: optionalField(DeviceIdInput),
  }),
  output: z.object({
    sessionId: z.ulid(),
    status: z.literal('ended'),
    endedAt: z.iso.datetime(),
    latestSeq: z.number().int(),
    cancelledDrafts: z.array(z.string()).describe('clientEventIds of drafts cancelled by ending'),
    alreadyEnded: z.boolean(),
  }),
  responseTime: 'fast',
  idempotent: true,
  tags: ['tutoring', 'session'],
  examples: [{ description: 'End a session that does not exist', input: { sessionId: EXAMPLE_SESSION_ID }, expect: 'NOT_FOUND' }],
  async handler(args, ctx) {
    const { sessionId } = await openSessionFor(ctx, args.sessionId);
    const store = ctx.services.store;
    const { session, events } = await endSession(
      { store, now: ctx.now, retentionDays: ctx.services.config.tutor.retentionDays },
      { sessionId, deviceId: args.deviceId ?? null, reason: args.reason },
    );
    return {
      data: {
        sessionId: session.sessionId,
        status: 'ended' as const,
        endedAt: session.endedAt!,
        latestSeq: session.lastSeq,
        cancelledDrafts: events.filter((e) => e.type === 'draft_cancelled').map((e) => e.clientEventId!),
        alreadyEnded: events.length === 0,
      },
      hints: {
        confidence: [{ name: 'ended', value: 1 }],
        nextActions: [{ action: 'export', priority: 'low', tool: 'tn_session_export', description: 'keep a copy of the transcript', data: { sessionId: session.sessionId } }],
        validityPeriod: 'indefinite',
      },
    };
  },
});
