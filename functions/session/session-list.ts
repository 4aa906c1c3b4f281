import type { Page } from '../mcp/tools/pagination.js';
import type { ToolContext } from '../mcp/tools/tool-context.js';
import { loadCallerProfile } from './caller-profile.js';
import { summaryOf, type SessionSummary } from './session-model.js';
import { listOwnedSessions, type OwnedSessionPosition } from './session-list-store.js';
import { tutorAvailability, type TutorAvailability } from './tutor/model-target.js';

/**
 * The caller's open sessions, most recently active first, from the owner index: every device sees
 * every session. Anonymous sessions belong to no one, so without sign-in the list is empty; either
 * way it says whose model would answer, so a client can ask for sign-in or a key before a question
 * is typed rather than after.
 */
export async function listSessions(
  ctx: Pick<ToolContext, 'services' | 'principal' | 'now' | 'toolName'>,
  args: { limit: number; cursor?: string },
): Promise<Page<SessionSummary> & { tutor: TutorAvailability }> {
  const { principal, services } = ctx;
  if (principal.kind !== 'user') {
    // A cursor can only have come from a signed-in list: bound to no user, it fails verification.
    if (args.cursor) services.cursors.decode({ tool: ctx.toolName }, args.cursor);
    return { items: [], hasMore: false, tutor: tutorAvailability(services, principal, await loadCallerProfile(services, principal)) };
  }
  const scope = { tool: ctx.toolName, userId: principal.userId };
  const after = args.cursor ? services.cursors.decode<OwnedSessionPosition>(scope, args.cursor) : undefined;
  const [page, caller] = await Promise.all([
    listOwnedSessions(services.store, { userId: principal.userId, limit: args.limit, after, now: ctx.now() }),
    loadCallerProfile(services, principal),
  ]);
  const last = page.sessions.at(-1);
  return {
    items: page.sessions.map(summaryOf),
    ...(page.more && last ? { nextCursor: services.cursors.encode(scope, { lastActivityAt: last.lastActivityAt, sessionId: last.sessionId } satisfies OwnedSessionPosition) } : {}),
    hasMore: page.more,
    tutor: tutorAvailability(services, principal, caller),
  };
}
