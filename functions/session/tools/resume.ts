import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { advanceDeviceCursor } from '../device-cursors.js';
import { readLatestEvents } from '../event-log.js';
import { DeviceIdInput, PendingDraftSchema, SessionEventSchema, CurrentSessionIdInput, SessionStateSchema, stateOf } from '../session-model.js';
import { listPendingDrafts, openSessionFor } from '../session-store.js';
import { EXAMPLE_SESSION_ID, READ } from './session-tool.js';

export const resumeTool = defineTool({
  ...READ,
  name: 'session_resume',
  title: 'Resume a session',
  description:
    'Reconnects to an existing session from any device; use it when a client opens a session it did not just create. Returns its state (active or ended, course, style, expiry), the latest seq, ' +
    'pending drafts and the most recent events, so the conversation can continue where it stopped. Example: the student reopens the ' +
    'web app and continues the session started in the CLI.',
  input: z.strictObject({
    sessionId: CurrentSessionIdInput,
    recent: z.number().int().min(0).max(100).default(20).describe('How many of the latest events to return (0-100, default 20)'),
    deviceId: DeviceIdInput.optional().describe('When given, this device counts as caught up to the latest seq (see tn_session_sync_status)'),
  }),
  output: z.object({
    state: SessionStateSchema,
    latestSeq: z.number().int(),
    pendingDrafts: z.array(PendingDraftSchema),
    recentEvents: z.array(SessionEventSchema),
  }),
  tags: ['tutoring', 'session', 'sync'],
  examples: [{ description: 'Resume a session that does not exist', input: { sessionId: EXAMPLE_SESSION_ID }, expect: 'NOT_FOUND' }],
  async handler(args, ctx) {
    const session = await openSessionFor(ctx, args.sessionId);
    const { sessionId } = session;
    const store = ctx.services.store;
    const [pendingDrafts, recentEvents] = await Promise.all([
      listPendingDrafts(store, sessionId),
      args.recent ? readLatestEvents(store, sessionId, args.recent, session.lastSeq) : Promise.resolve([]),
    ]);
    const latestSeq = Math.max(session.lastSeq, recentEvents.at(-1)?.seq ?? 0);
    if (args.deviceId && latestSeq > 0 && recentEvents.length) {
      await advanceDeviceCursor(store, { sessionId, deviceId: args.deviceId, seq: latestSeq, now: ctx.now(), ttlAt: session.itemsExpireAt });
    }
    return {
      data: { state: { ...stateOf(session), latestSeq }, latestSeq, pendingDrafts, recentEvents },
      hints: {
        confidence: [{ name: 'read-consistent', value: 1 }],
        nextActions:
          session.status === 'active'
            ? [
                ...(pendingDrafts.length
                  ? [{ action: 'send-or-cancel-drafts', priority: 'medium' as const, tool: 'tn_session_ask', description: 'send a pending draft (same clientEventId, draft false) or cancel it with tn_session_cancel_pending' }]
                  : []),
                { action: 'continue', priority: 'high' as const, tool: 'tn_session_ask', description: 'continue the conversation', data: { sessionId } },
              ]
            : [{ action: 'start-new', priority: 'high' as const, tool: 'tn_session_start', description: 'this session has ended; start a new one' }],
        validityPeriod: 'immediate',
      },
    };
  },
});
