import { bindTool } from '../../mcp/tools/define-tool.js';
import { advanceDeviceCursor, readDeviceCursor } from '../device-cursor-store.js';
import { readEventsAfter } from '../event-log-store.js';
import { listPendingDrafts, openSessionFor } from '../session-store.js';
import { syncStatusContract } from '../contracts/sync-status.js';

const MAX_UNSEEN = 50;

export const syncStatusTool = bindTool(syncStatusContract, async (args, ctx) => {
  const session = await openSessionFor(ctx, args.sessionId);
  const { sessionId } = session;
  const store = ctx.services.store;
  const lastSeenSeq = args.lastSeenSeq ?? (await readDeviceCursor(store, sessionId, args.deviceId));
  const [page, pendingDrafts] = await Promise.all([
    lastSeenSeq < session.lastSeq ? readEventsAfter(store, sessionId, lastSeenSeq, MAX_UNSEEN) : Promise.resolve({ events: [], hasMore: false }),
    listPendingDrafts(store, sessionId),
  ]);
  const delivered = page.events.at(-1)?.seq;
  if (delivered !== undefined) {
    await advanceDeviceCursor(store, { sessionId, deviceId: args.deviceId, seq: delivered, now: ctx.now(), ttlAt: session.itemsExpireAt });
  }
  const unseenCount = Math.max(0, session.lastSeq - lastSeenSeq);
  return {
    data: {
      sessionId,
      status: session.status,
      latestSeq: session.lastSeq,
      lastSeenSeq,
      inSync: unseenCount === 0,
      unseenCount,
      unseen: page.events,
      fromOtherDevices: page.events.filter((e) => e.deviceId !== args.deviceId).map((e) => e.eventId),
      pendingDrafts,
      hasMoreUnseen: page.hasMore,
      pollAfterSeconds: session.status === 'ended' ? 300 : unseenCount ? 1 : 5,
    },
    hints: { confidence: [{ name: 'read-consistent', value: 1 }], validityPeriod: 'immediate' },
  };
});
