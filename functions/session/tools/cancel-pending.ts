import { bindTool } from '../../mcp/tools/define-tool.js';
import { cancelPendingDrafts } from '../drafts.js';
import { openSessionFor } from '../session-store.js';
import { cancelPendingContract } from '../contracts/cancel-pending.js';

export const cancelPendingTool = bindTool(cancelPendingContract, async (args, ctx) => {
  const { sessionId } = await openSessionFor(ctx, args.sessionId);
  const store = ctx.services.store;
  const result = await cancelPendingDrafts(
    { store, now: ctx.now, retentionDays: ctx.services.config.tutor.retentionDays },
    { sessionId, clientEventIds: args.clientEventIds, deviceId: args.deviceId ?? null },
  );
  return {
    data: { cancelled: result.cancelled, notPending: result.notPending, eventsEmitted: result.events.map((e) => e.eventId) },
    hints: {
      confidence: [{ name: 'cancelled-atomically', value: 1 }],
      warnings: result.notPending.length
        ? [{ type: 'conflict' as const, severity: 'low' as const, message: `Not pending (already sent or cancelled): ${result.notPending.join(', ')}` }]
        : [],
      validityPeriod: 'indefinite',
    },
  };
});
