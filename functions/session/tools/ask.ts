import { bindTool } from '../../mcp/tools/define-tool.js';
import { askTutor } from '../ask.js';
import { createLanguageModel } from '../tutor/language-model.js';
import { sessionIdFor } from '../session-store.js';
import { askContract } from '../contracts/ask.js';

export const askTool = bindTool(askContract, async (args, ctx) => {
  const sessionId = await sessionIdFor(ctx.services.store, ctx.principal, args.sessionId, ctx.now());
  const outcome = await askTutor(ctx, createLanguageModel, {
    sessionId,
    message: args.message,
    clientEventId: args.clientEventId,
    draft: args.draft,
    deviceId: args.deviceId ?? null,
  });
  const confidence = [
    { name: 'answered', value: outcome.status === 'draft' ? 0 : 1 },
    { name: 'catalog-grounded', value: outcome.lookups.length ? 1 : 0.6, weight: 0.5 },
  ];
  return {
    data: { sessionId, ...outcome },
    hints: {
      confidence,
      nextActions:
        outcome.status === 'draft'
          ? [{ action: 'send-draft', priority: 'medium', tool: 'tn_session_ask', description: 'send the draft', data: { sessionId, clientEventId: outcome.clientEventId, draft: false } }]
          : [{ action: 'continue', priority: 'medium', tool: 'tn_session_ask', description: 'ask a follow-up question', data: { sessionId } }],
      assumptions: outcome.status === 'replayed' ? ['This clientEventId was answered before; the first answer is returned and nothing was charged'] : [],
      validityPeriod: 'indefinite',
    },
    instruction: outcome.status === 'draft' ? 'The message is saved as a draft and was not sent to the tutor.' : 'Show the tutor\'s response to the student as written.',
  };
});
