import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
import { SessionSummarySchema } from '../session-model.js';
import { READ } from './session-tool.js';

export const TutorAvailabilitySchema = z.object({
  answeredBy: z
    .enum(['byok', 'operator'])
    .nullable()
    .describe("Whose model answers the caller's questions now: their own provider key (byok), this server's default model (operator), or none (null)"),
  needs: z
    .enum(['sign-in', 'provider-key', 'default-key'])
    .nullable()
    .describe('What is missing when answeredBy is null: signing in, a provider key (tn_user_byok_add), or a default among several keys (tn_user_preferences_set)'),
});

export const listContract = defineContract({
  ...READ,
  name: 'session_list',
  title: 'List your sessions',
  description:
    "Lists the signed-in user's open tutoring sessions from every device, latest activity first. Use it to pick one to resume. " +
    'Returns pages of { sessionId, status, context, preview, lastActivityAt } and tutor (whose model answers). Example: the phone\'s sessions.',
  input: z.strictObject({ ...PaginationInput }),
  output: paginated(SessionSummarySchema).extend({ tutor: TutorAvailabilitySchema }),
  tags: ['tutoring', 'session', 'sync'],
  examples: [
    { description: "A new user's sessions: none yet", input: { limit: 20 }, expect: 'success' },
    { description: 'A tampered cursor is refused', input: { cursor: 'not-a-cursor' }, expect: 'BAD_REQUEST' },
  ],
});
