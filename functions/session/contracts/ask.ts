import * as z from 'zod/v4';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { ClientEventIdInput, DeviceIdInput, CurrentSessionIdInput } from '../session-model.js';
import { EXAMPLE_SESSION_ID, WRITE } from './session-tool.js';

export const input = z.strictObject({
  sessionId: CurrentSessionIdInput,
  message: z.string().min(1).max(10_000).describe('The student\'s message to the tutor (1-10000 characters)'),
  clientEventId: optionalField(ClientEventIdInput),
  draft: z.boolean().default(false).describe('true stores the message as a pending draft without sending it; send it later with the same clientEventId and draft false'),
  deviceId: optionalField(DeviceIdInput),
});

export const output = z.object({
  sessionId: z.ulid().describe('The session asked in (the current one when the call omitted it)'),
  response: z.string().describe('The tutor\'s answer; empty for a draft'),
  eventsEmitted: z.array(z.ulid()).describe('eventIds this ask wrote to the log (question, answer; the draft first when it was one)'),
  status: z.enum(['answered', 'draft', 'replayed']).describe('"replayed": the clientEventId was answered before, nothing was charged again'),
  clientEventId: z.string().describe('The idempotency key used (generated when not given)'),
  questionSeq: z.number().int(),
  answerSeq: z.number().int().nullable(),
  model: z.object({ source: z.enum(['byok', 'operator']), provider: z.string(), model: z.string() }).nullable(),
  lookups: z.array(z.string()).describe('Catalog and transfer tools the tutor called while answering'),
});

export const askContract = defineContract({
  ...WRITE,
  name: 'session_ask',
  title: 'Ask the tutor',
  description:
    'Sends the student\'s message in a session and returns the tutor\'s answer; use it for every turn of the conversation. The answer is grounded in the session\'s course and streams as ' +
    'progress notifications when the call carries a progressToken. Pass a clientEventId so a retry never sends twice; draft: true ' +
    'stores the message without sending it. Each sent message uses one prompt of the daily quota. ' +
    'Example: ask "How do I write a for loop over a list?" in a CMPT 120 session.',
  input,
  output,
  responseTime: 'slow',
  idempotent: false,
  openWorld: true,
  tags: ['tutoring', 'session', 'streaming'],
  examples: [
    {
      description: 'Ask in a session that does not exist',
      input: { sessionId: EXAMPLE_SESSION_ID, message: 'What is a variable?', clientEventId: 'cli-0001' },
      expect: 'NOT_FOUND',
    },
    { description: 'An empty message is refused', input: { sessionId: EXAMPLE_SESSION_ID, message: '' }, expect: 'BAD_REQUEST' },
  ],
});
