import * as z from 'zod/v4';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { DeviceIdInput, CurrentSessionIdInput } from '../session-model.js';
import { EXAMPLE_SESSION_ID, WRITE } from './session-tool.js';

export const endContract = defineContract({
  ...WRITE,
  name: 'session_end',
  title: 'End a tutoring session',
  description:
    'Closes a session gracefully; use it when the student is done. Pending drafts are cancelled and a session_ended event closes the ' +
    'log; later asks are refused. Returns the end time and latest seq; the transcript stays readable until the session expires. ' +
    'Calling it again is harmless. Example: end the session when the student says goodbye.',
  input: z.strictObject({
    sessionId: CurrentSessionIdInput,
    reason: z.string().trim().max(200).optional().describe('Why the session ended, e.g. "finished the exercise"'),
    deviceId: optionalField(DeviceIdInput),
  }),
  output: z.object({
    sessionId: z.ulid(),
    status: z.literal('ended'),
    endedAt: z.iso.datetime(),
    latestSeq: z.number().int(),
    cancelledDrafts: z.array(z.string()).describe('clientEventIds of drafts cancelled by ending'),
    alreadyEnded: z.boolean(),
  }),
  responseTime: 'fast',
  idempotent: true,
  tags: ['tutoring', 'session'],
  examples: [{ description: 'End a session that does not exist', input: { sessionId: EXAMPLE_SESSION_ID }, expect: 'NOT_FOUND' }],
});
