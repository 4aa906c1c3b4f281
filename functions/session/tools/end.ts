import { bindTool } from '../../mcp/tools/define-tool.js';
import { endSession } from '../drafts.js';
import { openSessionFor } from '../session-store.js';
import { endContract } from '../contracts/end.js';

export const endTool = bindTool(endContract, async (args, ctx) => {
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
});
