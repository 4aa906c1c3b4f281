import type { ModelMessage } from 'ai';
import type { SessionEvent, SessionRecord, TutoringStyle } from '../session-model.js';

/** Rough but provider-neutral: ~4 characters per token for English prose. */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

export interface PromptBudget {
  /** Tokens the recent turns may take; older turns are folded into the running summary. */
  historyTokens: number;
  /** Tokens the running summary may take; its oldest lines go first. */
  summaryTokens: number;
}

export const DEFAULT_BUDGET: PromptBudget = { historyTokens: 6000, summaryTokens: 1200 };

const STYLE_GUIDANCE: Record<TutoringStyle, string> = {
  socratic:
    'Teach Socratically: start with a guiding question or a hint that lets the student take the next step themselves; ' +
    'give the full solution only when they ask for it or are stuck after hints.',
  direct: 'Explain directly: give a clear, correct explanation with a short worked example, then check understanding with one question.',
  balanced: 'Balance the two: a brief explanation of the key idea, then a hint or question that lets the student apply it.',
};

const LENGTH_GUIDANCE = {
  brief: 'Keep answers short: a few sentences.',
  standard: 'Keep answers focused: a few short paragraphs at most.',
  detailed: 'Answers may be detailed, with examples, but stay on the question.',
} as const;

export interface TutorPrompt {
  instructions: string;
  messages: ModelMessage[];
  /** The summary after folding in turns that left the window; store it when the turn succeeds. */
  summary: { text: string; throughSeq: number } | null;
}

/**
 * The grounded prompt for one turn: course facts and teaching style in the instructions, then as many
 * recent turns as the budget allows, earlier turns condensed into an extractive running summary (no
 * extra model call, so a turn costs exactly one prompt of quota and cannot fail halfway).
 */
export function buildTutorPrompt(args: {
  session: SessionRecord;
  /** user and assistant messages before the question, ascending */
  history: SessionEvent[];
  question: string;
  responseLength: keyof typeof LENGTH_GUIDANCE;
  maxToolCalls: number;
  budget?: PromptBudget;
}): TutorPrompt {
  const budget = args.budget ?? DEFAULT_BUDGET;
  const turns = args.history.filter((event) => event.type === 'user_message' || event.type === 'assistant_message');

  let used = 0;
  let firstKept = turns.length;
  while (firstKept > 0) {
    const cost = estimateTokens(turns[firstKept - 1]!.content);
    if (used + cost > budget.historyTokens) break;
    used += cost;
    firstKept--;
  }
  const kept = turns.slice(firstKept);
  const folded = turns.slice(0, firstKept).filter((event) => event.seq > (args.session.summary?.throughSeq ?? 0));
  const summary = foldIntoSummary(args.session.summary, folded, budget.summaryTokens);

  return {
    instructions: instructionsFor(args.session, summary?.text, args.responseLength, args.maxToolCalls),
    messages: [
      ...kept.map((event): ModelMessage => ({ role: event.role, content: event.content })),
      { role: 'user', content: args.question },
    ],
    summary,
  };
}

function foldIntoSummary(
  previous: SessionRecord['summary'],
  folded: SessionEvent[],
  maxTokens: number,
): { text: string; throughSeq: number } | null {
  if (!folded.length) return previous;
  const lines = previous ? previous.text.split('\n') : [];
  for (const event of folded) {
    const gist = firstSentence(event.content, 200);
    lines.push(event.role === 'user' ? `- The student asked: ${gist}` : `- The tutor explained: ${gist}`);
  }
  while (lines.length > 1 && estimateTokens(lines.join('\n')) > maxTokens) lines.shift();
  return { text: lines.join('\n'), throughSeq: folded.at(-1)!.seq };
}

function firstSentence(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.?!](\s|$)/);
  const sentence = end > 0 ? flat.slice(0, end + 1) : flat;
  return sentence.length > maxChars ? `${sentence.slice(0, maxChars - 1)}…` : sentence;
}

function instructionsFor(session: SessionRecord, summary: string | undefined, responseLength: keyof typeof LENGTH_GUIDANCE, maxToolCalls: number): string {
  const { context, course } = session;
  const lines = ['You are Tutor Nexus, a patient tutor for a university student in British Columbia.'];
  if (course) {
    lines.push('', `Course: ${course.ref}${course.title ? ` — ${course.title}` : ''}`);
    if (course.description) lines.push(`Description: ${course.description}`);
    if (course.prerequisitesText) lines.push(`Prerequisites: ${course.prerequisitesText}`);
    lines.push('Keep to this course\'s level and scope; say so when a question goes beyond it.');
  }
  if (context.topic) lines.push(`Topic of this session: ${context.topic}`);
  lines.push('', STYLE_GUIDANCE[context.tutoringStyle], LENGTH_GUIDANCE[responseLength], `Answer in the language with BCP 47 tag "${context.language}".`);
  if (maxToolCalls > 0) {
    lines.push(
      '',
      `You may look up the course catalog and transfer-credit rules with the tools provided (at most ${maxToolCalls} lookups per answer). ` +
        'Use them for facts about courses, prerequisites or transfer credit instead of guessing; never invent course facts.',
    );
  }
  if (summary) lines.push('', 'Earlier in this session (summary of turns no longer shown):', summary);
  return lines.join('\n');
}
