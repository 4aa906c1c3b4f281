import { bindTool } from '../../mcp/tools/define-tool.js';
import { readAllEvents } from '../event-log-store.js';
import { openSessionFor } from '../session-store.js';
import { ownerProofFor } from '../owner-proof.js';
import { buildSnapshot } from '../snapshot.js';
import { exportContract } from '../contracts/export.js';

export const exportTool = bindTool(exportContract, async (args, ctx) => {
  const session = await openSessionFor(ctx, args.sessionId);
  const { sessionId } = session;
  const store = ctx.services.store;
  const events = await readAllEvents(store, sessionId);
  // Seqs are gap-free, so the events read are 1..n even if some were appended after META was read;
  // anything else is a read that must not be passed off as a complete snapshot.
  if (events.length < session.lastSeq || events.some((event, index) => event.seq !== index + 1)) {
    throw new Error(`export of ${sessionId} read ${events.length} events for lastSeq ${session.lastSeq}`);
  }
  // Its owner's export carries the proof that lets the owner restore it under the same id.
  const owner = ctx.principal.kind === 'user' && session.ownerId === ctx.principal.userId ? session.ownerId : undefined;
  const snapshot = buildSnapshot({ ...session, lastSeq: events.length }, events, ctx.now(), owner && ownerProofFor(ctx.services.cursors, owner, sessionId));
  return {
    data: snapshot,
    hints: {
      confidence: [{ name: 'complete', value: 1 }],
      nextActions: [{ action: 'import', priority: 'low', tool: 'tn_session_import', description: 'restore this snapshot elsewhere' }],
      validityPeriod: 'immediate',
    },
  };
});
