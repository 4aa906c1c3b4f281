import { bindTool } from '../../mcp/tools/define-tool.js';
import { readEventsAfter } from '../event-log-store.js';
import { openSessionFor } from '../session-store.js';
import { historyContract } from '../contracts/history.js';

export const historyTool = bindTool(historyContract, async (args, ctx) => {
  const session = await openSessionFor(ctx, args.sessionId);
  const { sessionId } = session;
  const store = ctx.services.store;
  const scope = { tool: ctx.toolName, userId: session.ownerId ?? undefined, query: sessionId };
  const after = args.cursor ? ctx.services.cursors.decode<{ seq: number }>(scope, args.cursor).seq : (args.afterSeq ?? 0);
  const page = after < session.lastSeq ? await readEventsAfter(store, sessionId, after, args.limit) : { events: [], hasMore: false };
  const last = page.events.at(-1)?.seq;
  return {
    data: {
      items: page.events,
      ...(page.hasMore && last !== undefined ? { nextCursor: ctx.services.cursors.encode(scope, { seq: last }) } : {}),
      totalCount: session.lastSeq,
      hasMore: page.hasMore,
      sessionId,
      latestSeq: session.lastSeq,
    },
    hints: { confidence: [{ name: 'read-consistent', value: 1 }], validityPeriod: 'immediate' },
  };
});
