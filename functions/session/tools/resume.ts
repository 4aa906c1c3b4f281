import { bindTool } from '../../mcp/tools/define-tool.js';
import { advanceDeviceCursor } from '../device-cursor-store.js';
import { readLatestEvents } from '../event-log-store.js';
import { stateOf } from '../session-model.js';
import { listPendingDrafts, openSessionFor } from '../session-store.js';
import { resumeContract } from '../contracts/resume.js';

export const resumeTool = bindTool(resumeContract, async (args, ctx) => {
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
});
