import { bindTool } from '../../mcp/tools/define-tool.js';
import { listSessions } from '../session-list.js';
import { listContract } from '../contracts/list.js';

export const listTool = bindTool(listContract, async (args, ctx) => {
  const page = await listSessions(ctx, args);
  const first = page.items[0];
  return {
    data: page,
    hints: {
      confidence: [{ name: 'owner-index', value: 1 }],
      nextActions: [
        ...(first ? [{ action: 'resume', priority: 'medium' as const, tool: 'tn_session_resume', description: 'continue the most recent session', data: { sessionId: first.sessionId } }] : []),
        ...(page.tutor.needs === 'provider-key'
          ? [{ action: 'add-key', priority: 'high' as const, tool: 'tn_user_byok_add', description: 'add a provider key so the tutor can answer' }]
          : []),
      ],
      assumptions: ctx.principal.kind === 'user' ? [] : ['Without sign-in no session is listed: anonymous sessions belong to no one and are opened by id only'],
      validityPeriod: 'short',
    },
  };
});
