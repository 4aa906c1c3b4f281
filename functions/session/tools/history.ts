import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { readEventsAfter } from '../event-log.js';
import { SessionEventSchema, CurrentSessionIdInput } from '../session-model.js';
import { openSessionFor } from '../session-store.js';
import { EXAMPLE_SESSION_ID, READ } from './session-tool.js';

const input = z.strictObject({
  sessionId: CurrentSessionIdInput,
  afterSeq: z.number().int().min(0).optional().describe('Start after this seq (e.g. the last one you have); default 0, the beginning'),
  ...PaginationInput,
});

export const historyTool = defineTool({
  ...READ,
  name: 'session_history',
  title: 'Read a session transcript',
  description:
    'Returns a session\'s events in seq order (user and assistant messages, drafts, cancellations, end), paginated. Use it to show the ' +
    'transcript or to catch up from a known seq (afterSeq). Each item has eventId, seq, type, createdAt, role, content and deviceId. ' +
    'Example: read the first 20 events of a session.',
  input,
  output: paginated(SessionEventSchema).extend({ sessionId: z.ulid(), latestSeq: z.number().int() }),
  tags: ['tutoring', 'session', 'sync'],
  examples: [{ description: 'History of a session that does not exist', input: { sessionId: EXAMPLE_SESSION_ID }, expect: 'NOT_FOUND' }],
  async handler(args, ctx) {
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
  },
});
