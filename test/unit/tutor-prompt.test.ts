import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionRecord, TutoringStyle } from '../../functions/session/session-model.js';
import { buildTutorPrompt, DEFAULT_BUDGET, estimateTokens, type PromptBudget } from '../../functions/session/tutor/tutor-prompt.js';

function session(overrides: Partial<SessionRecord> = {}, style: TutoringStyle = 'socratic'): SessionRecord {
  return {
    sessionId: '01JD0000000000000000000001',
    ownerId: 'alice',
    status: 'active',
    context: { course: 'sfu:CMPT 120', courseTitle: 'Intro to CS', topic: 'loops', tutoringStyle: style, language: 'en' },
    course: {
      ref: 'sfu:CMPT 120',
      title: 'Introduction to Computing Science and Programming I',
      description: 'An elementary introduction to computing science.',
      prerequisitesText: 'BC Math 12 or equivalent is recommended.',
    },
    createdAt: '2026-11-22T10:00:00.000Z',
    lastActivityAt: '2026-11-22T10:00:00.000Z',
    expiresAt: '2026-12-22T10:00:00.000Z',
    endedAt: null,
    lastSeq: 0,
    itemsExpireAt: '2026-12-22T10:00:00.000Z',
    summary: null,
    ...overrides,
  };
}

/** Alternating user/assistant turns, seq 1..n, each `chars` long (so each costs chars/4 tokens). */
function turns(n: number, chars = 40, firstSeq = 1): SessionEvent[] {
  return Array.from({ length: n }, (_, i) => {
    const seq = firstSeq + i;
    const user = seq % 2 === 1;
    const label = `${user ? 'Q' : 'A'}${seq}:`; // no sentence end, so the summary keeps the whole turn
    return {
      eventId: `01JD00000000000000000000${String(seq % 100).padStart(2, '0')}`,
      seq,
      type: user ? 'user_message' : 'assistant_message',
      createdAt: '2026-11-22T10:00:00.000Z',
      role: user ? 'user' : 'assistant',
      content: `${label} ${'x'.repeat(Math.max(0, chars - label.length - 1))}`,
      deviceId: null,
      clientEventId: `c${Math.ceil(seq / 2)}`,
      refersTo: null,
    } satisfies SessionEvent;
  });
}

const build = (args: { history: SessionEvent[]; session?: SessionRecord; budget?: PromptBudget; maxToolCalls?: number; responseLength?: 'brief' | 'standard' | 'detailed' }) =>
  buildTutorPrompt({
    session: args.session ?? session(),
    history: args.history,
    question: 'What is a loop invariant?',
    responseLength: args.responseLength ?? 'standard',
    maxToolCalls: args.maxToolCalls ?? 4,
    budget: args.budget,
  });

const contentsOf = (messages: { content: unknown }[]) => messages.map((m) => m.content);

describe('estimateTokens', () => {
  it('is ceil(chars / 4)', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abc')).toBe(1);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('x'.repeat(400))).toBe(100);
  });
});

describe('buildTutorPrompt: history window', () => {
  it('keeps every turn when they fit, in order, and ends with the question', () => {
    const history = turns(4);
    const prompt = build({ history });
    expect(prompt.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(contentsOf(prompt.messages)).toEqual([...history.map((e) => e.content), 'What is a loop invariant?']);
    expect(prompt.summary).toBeNull();
  });

  it('ends with the question even with no history', () => {
    const prompt = build({ history: [] });
    expect(prompt.messages).toEqual([{ role: 'user', content: 'What is a loop invariant?' }]);
    expect(prompt.summary).toBeNull();
  });

  it('keeps the most recent turns within historyTokens (10 tokens each, budget 35 keeps 3)', () => {
    const history = turns(6, 40);
    expect(history.every((e) => estimateTokens(e.content) === 10)).toBe(true);
    const prompt = build({ history, budget: { historyTokens: 35, summaryTokens: 1000 } });
    expect(contentsOf(prompt.messages.slice(0, -1))).toEqual(history.slice(3).map((e) => e.content));
    expect(prompt.messages.at(-1)).toEqual({ role: 'user', content: 'What is a loop invariant?' });
  });

  it('a budget of exactly the cost of n turns keeps n turns', () => {
    const history = turns(6, 40);
    expect(build({ history, budget: { historyTokens: 40, summaryTokens: 1000 } }).messages).toHaveLength(5);
    expect(build({ history, budget: { historyTokens: 39, summaryTokens: 1000 } }).messages).toHaveLength(4);
  });

  it('keeps a contiguous suffix: a large turn stops the window even if older small turns would fit', () => {
    const history = turns(4, 40);
    history[2] = { ...history[2]!, content: `Q3: ${'y'.repeat(400)}` };
    const prompt = build({ history, budget: { historyTokens: 50, summaryTokens: 1000 } });
    expect(contentsOf(prompt.messages.slice(0, -1))).toEqual([history[3]!.content]);
    expect(prompt.summary!.throughSeq).toBe(3);
  });

  it('leaves drafts, cancellations and the end marker out of the messages and the summary', () => {
    const history = turns(2);
    const noise: SessionEvent[] = [
      { ...history[0]!, seq: 3, eventId: '01JD0000000000000000000003', type: 'draft', content: 'DRAFT TEXT' },
      { ...history[0]!, seq: 4, eventId: '01JD0000000000000000000004', type: 'draft_cancelled', content: 'CANCELLED TEXT' },
    ];
    const prompt = build({ history: [...history, ...noise] });
    expect(JSON.stringify(prompt.messages)).not.toMatch(/DRAFT TEXT|CANCELLED TEXT/);
    const tight = build({ history: [...noise, ...turns(2, 40, 5)], budget: { historyTokens: 10, summaryTokens: 1000 } });
    expect(tight.summary?.text ?? '').not.toMatch(/DRAFT TEXT|CANCELLED TEXT/);
  });

  it('uses the default budget when none is given', () => {
    expect(DEFAULT_BUDGET).toEqual({ historyTokens: 6000, summaryTokens: 1200 });
    const history = turns(10, 4000); // 1000 tokens each: 6 fit
    const prompt = build({ history });
    expect(prompt.messages).toHaveLength(7);
    expect(prompt.summary!.throughSeq).toBe(4);
  });
});

describe('buildTutorPrompt: running summary', () => {
  it('folds older turns into summary lines with the first sentence of each', () => {
    const history = turns(6, 40);
    history[0] = { ...history[0]!, content: 'How do for loops work? I am confused about range.' };
    history[1] = { ...history[1]!, content: 'A for loop repeats a block.\nIt runs once per item.' };
    const prompt = build({ history, budget: { historyTokens: 20, summaryTokens: 1000 } });
    expect(prompt.messages).toHaveLength(3);
    expect(prompt.summary).toEqual({
      text: [
        '- The student asked: How do for loops work?',
        '- The tutor explained: A for loop repeats a block.',
        `- The student asked: ${history[2]!.content}`,
        `- The tutor explained: ${history[3]!.content}`,
      ].join('\n'),
      throughSeq: 4,
    });
    for (const line of prompt.summary!.text.split('\n')) expect(line).toMatch(/^- The (student asked|tutor explained): /);
  });

  it('puts the summary in the instructions under a heading', () => {
    const prompt = build({ history: turns(6, 40), budget: { historyTokens: 20, summaryTokens: 1000 } });
    expect(prompt.instructions).toContain(`Earlier in this session (summary of turns no longer shown):\n${prompt.summary!.text}`);
    expect(build({ history: turns(2) }).instructions).not.toContain('Earlier in this session');
  });

  it('shortens a long first sentence to 200 characters with an ellipsis', () => {
    const history = [...turns(1, 40), ...turns(1, 40, 2)];
    history[0] = { ...history[0]!, content: 'z'.repeat(500) };
    const prompt = build({ history, budget: { historyTokens: 10, summaryTokens: 1000 } });
    const line = prompt.summary!.text.split('\n')[0]!;
    expect(line).toBe(`- The student asked: ${'z'.repeat(199)}…`);
  });

  it('respects summaryTokens by dropping the oldest lines first', () => {
    const history = turns(12, 40); // each line is "- The student asked: Q1: xxx…" (61-63 chars)
    const prompt = build({ history, budget: { historyTokens: 10, summaryTokens: 50 } });
    const lines = prompt.summary!.text.split('\n');
    expect(estimateTokens(prompt.summary!.text)).toBeLessThanOrEqual(50);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(11);
    // The newest folded turn (seq 11) survives; the oldest (seq 1) is gone.
    expect(lines.at(-1)).toContain('Q11:');
    expect(prompt.summary!.text).not.toContain('Q1:');
    // What is kept is a suffix of the full summary.
    const full = build({ history, budget: { historyTokens: 10, summaryTokens: 100_000 } }).summary!.text.split('\n');
    expect(full).toHaveLength(11);
    expect(full.slice(-lines.length)).toEqual(lines);
    expect(full.slice(-(lines.length + 1)).join('\n').length / 4).toBeGreaterThan(50);
  });

  it('throughSeq is the seq of the last folded turn', () => {
    const history = turns(7, 40);
    const prompt = build({ history, budget: { historyTokens: 30, summaryTokens: 1000 } });
    expect(prompt.messages.slice(0, -1).map((m) => m.content)).toEqual(history.slice(4).map((e) => e.content));
    expect(prompt.summary!.throughSeq).toBe(4);
  });

  it('extends an existing summary only with turns after its throughSeq', () => {
    const previous = { text: '- The student asked: PREVIOUS LINE.', throughSeq: 4 };
    const history = turns(10, 40); // seqs 1..10; 1..4 are already in the summary
    const prompt = build({ session: session({ summary: previous }), history, budget: { historyTokens: 20, summaryTokens: 1000 } });
    expect(prompt.summary!.throughSeq).toBe(8);
    const lines = prompt.summary!.text.split('\n');
    expect(lines[0]).toBe(previous.text);
    expect(lines.slice(1).map((l) => /[QA](\d+):/.exec(l)?.[1])).toEqual(['5', '6', '7', '8']);
    expect(prompt.summary!.text).not.toMatch(/Q1:|A2:|Q3:|A4:/);
  });

  it('returns the previous summary object unchanged when nothing new was folded', () => {
    const previous = { text: '- The tutor explained: OLD.', throughSeq: 2 };
    const history = turns(4, 40, 3);
    const prompt = build({ session: session({ summary: previous }), history });
    expect(prompt.summary).toBe(previous);
    expect(prompt.instructions).toContain('- The tutor explained: OLD.');
  });

  it('trims an extended summary from its oldest (previous) lines', () => {
    const previous = { text: ['- The student asked: OLDEST.', '- The tutor explained: OLDER.'].join('\n'), throughSeq: 2 };
    const history = turns(8, 40, 3);
    const prompt = build({ session: session({ summary: previous }), history, budget: { historyTokens: 10, summaryTokens: 60 } });
    expect(prompt.summary!.text).not.toContain('OLDEST.');
    expect(prompt.summary!.text.split('\n').at(-1)).toContain('Q9:');
    expect(prompt.summary!.throughSeq).toBe(9);
  });
});

describe('buildTutorPrompt: instructions', () => {
  it('carries the course ref, title, description and prerequisites, and the topic', () => {
    const { instructions } = build({ history: [] });
    expect(instructions).toContain('Course: sfu:CMPT 120 — Introduction to Computing Science and Programming I');
    expect(instructions).toContain('Description: An elementary introduction to computing science.');
    expect(instructions).toContain('Prerequisites: BC Math 12 or equivalent is recommended.');
    expect(instructions).toContain('Topic of this session: loops');
    expect(instructions).toContain('Keep to this course\'s level and scope');
  });

  it('leaves out course lines when the session has no course, and missing parts of a course', () => {
    const bare = build({ history: [], session: session({ course: null, context: { course: null, courseTitle: null, topic: null, tutoringStyle: 'direct', language: 'fr' } }) }).instructions;
    expect(bare).not.toMatch(/Course:|Description:|Prerequisites:|Topic of this session/);
    expect(bare).toContain('Answer in the language with BCP 47 tag "fr".');
    const partial = build({ history: [], session: session({ course: { ref: 'ubc:CPSC 110', title: null, description: null, prerequisitesText: null } }) }).instructions;
    expect(partial).toContain('Course: ubc:CPSC 110\n');
    expect(partial).not.toMatch(/Description:|Prerequisites:/);
  });

  it.each([
    ['socratic', 'Teach Socratically', ['Explain directly', 'Balance the two']],
    ['direct', 'Explain directly', ['Teach Socratically', 'Balance the two']],
    ['balanced', 'Balance the two', ['Teach Socratically', 'Explain directly']],
  ] as const)('gives %s guidance only', (style, present, absent) => {
    const { instructions } = build({ history: [], session: session({}, style) });
    expect(instructions).toContain(present);
    for (const other of absent) expect(instructions).not.toContain(other);
  });

  it.each([
    ['brief', 'Keep answers short'],
    ['standard', 'Keep answers focused'],
    ['detailed', 'Answers may be detailed'],
  ] as const)('gives %s length guidance', (responseLength, text) => {
    expect(build({ history: [], responseLength }).instructions).toContain(text);
  });

  it('mentions the lookup tools, with the limit, only when maxToolCalls > 0', () => {
    const withTools = build({ history: [], maxToolCalls: 3 }).instructions;
    expect(withTools).toContain('You may look up the course catalog and transfer-credit rules with the tools provided (at most 3 lookups per answer).');
    expect(withTools).toContain('never invent course facts');
    const without = build({ history: [], maxToolCalls: 0 }).instructions;
    expect(without).not.toContain('look up');
    expect(without).not.toContain('tools provided');
  });
});
