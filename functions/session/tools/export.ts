import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { readAllEvents } from '../event-log.js';
import { CurrentSessionIdInput } from '../session-model.js';
import { openSessionFor } from '../session-store.js';
import { buildSnapshot, SessionSnapshotSchema } from '../snapshot.js';
import { EXAMPLE_SESSION_ID, READ } from './session-tool.js';

export const exportTool = defineTool({
  ...READ,
  responseTime: 'medium',
  name: 'session_export',
  title: 'Export a session snapshot',
  description:
    'Returns a portable snapshot of a session; use it to hand a session to the web app or keep an archive. It holds the schema version, session state and course, every event ' +
    'in seq order, exportedAt and a sha256 checksum over the canonical JSON. tn_session_import verifies and restores it. ' +
    'Example: export the session the student ran in the CLI to open it in the web app.',
  input: z.strictObject({ sessionId: CurrentSessionIdInput }),
  output: SessionSnapshotSchema,
  tags: ['tutoring', 'session', 'sync', 'export'],
  examples: [{ description: 'Export a session that does not exist', input: { sessionId: EXAMPLE_SESSION_ID }, expect: 'NOT_FOUND' }],
  async handler(args, ctx) {
    const session = await openSessionFor(ctx, args.sessionId);
    const { sessionId } = session;
    const store = ctx.services.store;
    const events = await readAllEvents(store, sessionId);
    // Seqs are gap-free, so the events read are 1..n even if some were appended after META was read;
    // anything else is a read that must not be passed off as a complete snapshot.
    if (events.length < session.lastSeq || events.some((event, index) => event.seq !== index + 1)) {
      throw new Error(`export of ${sessionId} read ${events.length} events for lastSeq ${session.lastSeq}`);
    }
    const snapshot = buildSnapshot({ ...session, lastSeq: events.length }, events, ctx.now());
    return {
      data: snapshot,
      hints: {
        confidence: [{ name: 'complete', value: 1 }],
        nextActions: [{ action: 'import', priority: 'low', tool: 'tn_session_import', description: 'restore this snapshot elsewhere' }],
        validityPeriod: 'immediate',
      },
    };
  },
});
