import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
import { SessionEventSchema, CurrentSessionIdInput } from '../session-model.js';
import { EXAMPLE_SESSION_ID, READ } from './session-tool.js';

export const input = z.strictObject({
  sessionId: CurrentSessionIdInput,
  afterSeq: z.number().int().min(0).optional().describe('Start after this seq (e.g. the last one you have); default 0, the beginning'),
  ...PaginationInput,
});

export const historyContract = defineContract({
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
});
