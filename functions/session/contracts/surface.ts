import * as z from 'zod/v4';
import { definePrompt, defineResource, type AnyPromptContract, type AnyResourceContract } from '../../mcp/surface/surface-contract.js';

interface HistoryPage {
  sessionId: string;
  latestSeq: number;
  items: { seq: number; type: string; role: 'user' | 'assistant'; content: string; createdAt: string }[];
  nextCursor?: string;
}

/** Pages of tn_session_history read for one transcript: 2,000 events at most, newest sessions rarely reach it. */
const MAX_PAGES = 20;

export const transcriptResource = defineResource({
  name: 'session-transcript',
  domain: 'session',
  title: 'Session transcript',
  description: 'The transcript of one of your tutoring sessions (tn_session_history, every page): readable only by the session\'s owner.',
  uriTemplate: 'session://{sessionId}/transcript',
  params: z.strictObject({ sessionId: z.ulid().describe('Session id from tn_session_start or tn_session_resume') }),
  access: 'user',
  readsTools: ['session_history'],
  read: async ({ sessionId }, readTool) => {
    const events: HistoryPage['items'] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = (await readTool('session_history', { sessionId, limit: 100, ...(cursor ? { cursor } : {}) })) as HistoryPage;
      events.push(...result.items);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    // Drafts and cancellations stay in the JSON; the page shows what was said.
    const said = events.filter((e) => e.type === 'user_message' || e.type === 'assistant_message');
    const lines = said.map((e) => `**${e.role === 'user' ? 'Student' : 'Tutor'}** (${e.createdAt}): ${e.content}`);
    return {
      markdown: [`# Session ${sessionId}`, '', ...(lines.length ? lines : ['No messages yet.'])].join('\n\n'),
      json: { sessionId, events, complete: cursor === undefined },
    };
  },
});

export const studySessionPrompt = definePrompt({
  name: 'study-session',
  domain: 'session',
  title: 'Study session',
  description: 'Starts a tutoring session on a course and topic, grounded in the course\'s catalog entry, and keeps the conversation in it.',
  args: z.strictObject({
    course: z.string().min(3).max(64).describe('The course to study, e.g. "sfu:CMPT 225"'),
    topic: z.string().max(200).optional().describe('What to work on, e.g. "recursion"'),
  }),
  completions: { course: 'course' },
  usesTools: ['session_start', 'session_ask', 'session_history', 'course_get'],
  render: ({ course, topic }) =>
    [
      `I want to study ${course}${topic ? `, specifically ${topic}` : ''}.`,
      '',
      `Look the course up with tn_course_get { "course": "${course}" } so you know what it covers. Then start a session with`,
      `tn_session_start { "course": "${course}"${topic ? `, "topic": ${JSON.stringify(topic)}` : ''} } and send each of my questions with tn_session_ask`,
      '(the sessionId it returns), showing me the tutor\'s answers. Use tn_session_history to recap where we are if the conversation gets long.',
    ].join('\n'),
});

export const sessionResources: AnyResourceContract[] = [transcriptResource];
export const sessionPrompts: AnyPromptContract[] = [studySessionPrompt];
