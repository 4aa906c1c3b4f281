import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, NoOutputGeneratedError, generateText, isStepCount, streamText, tool, type LanguageModel } from 'ai';
import * as z from 'zod/v4';
import { startFakeProvider, type FakeProvider } from '../support/fake-llm-provider.js';

// The real AI SDK clients drive the fake, so a passing run proves the wire formats match what they parse.

const GOOD_KEY = 'sk-test-good-key-0123456789';
const BAD_KEY = 'sk-test-BAD-key-9876543210';

let fake: FakeProvider;

interface ProviderCase {
  name: string;
  protocol: 'openai' | 'anthropic';
  model: (apiKey?: string) => LanguageModel;
}

const providers: ProviderCase[] = [
  { name: 'openai .chat()', protocol: 'openai', model: (apiKey = GOOD_KEY) => createOpenAI({ baseURL: fake.openaiBaseUrl, apiKey }).chat('gpt-4o-mini') },
  {
    name: 'openai-compatible',
    protocol: 'openai',
    model: (apiKey = GOOD_KEY) => createOpenAICompatible({ name: 'tutor-compat', baseURL: fake.openaiBaseUrl, apiKey, includeUsage: true })('llama-3.1-8b'),
  },
  { name: 'anthropic', protocol: 'anthropic', model: (apiKey = GOOD_KEY) => createAnthropic({ baseURL: fake.anthropicBaseUrl, apiKey })('claude-sonnet-4-5') },
];

/** Polls until `check` holds; requests reach the fake asynchronously. */
async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Settles to the thrown error (or fails the test if the promise resolves). */
async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  fake = await startFakeProvider({ acceptKeys: [GOOD_KEY] });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.reset();
});

describe.each(providers)('fake provider via $name', ({ protocol, model }) => {
  it('generateText echoes the last user message and records the request', async () => {
    const result = await generateText({
      model: model(),
      instructions: 'Be brief.',
      messages: [
        { role: 'user', content: 'An earlier question' },
        { role: 'assistant', content: 'An earlier answer' },
        { role: 'user', content: [{ type: 'text', text: 'Explain ' }, { type: 'text', text: 'recursion' }] },
      ],
      maxRetries: 0,
    });
    expect(result.text).toBe('Tutor says: Explain recursion');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);

    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request).toMatchObject({ protocol, path: protocol === 'openai' ? '/v1/chat/completions' : '/v1/messages', stream: false, apiKey: GOOD_KEY });
    // `instructions` reaches the wire where each protocol expects a system prompt.
    if (protocol === 'openai') expect(request.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    else expect(JSON.stringify(request.body.system)).toContain('Be brief.');
  });

  it('streamText yields several text deltas that concatenate to the text', async () => {
    fake.enqueue({ text: 'Recursion is a function calling itself.', chunks: 3 });
    const result = streamText({ model: model(), prompt: 'What is recursion?', maxRetries: 0 });
    const deltas: string[] = [];
    for await (const part of result.stream) if (part.type === 'text-delta') deltas.push(part.text);

    expect(deltas).toHaveLength(3);
    expect(deltas.join('')).toBe('Recursion is a function calling itself.');
    expect(await result.text).toBe('Recursion is a function calling itself.');
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
    expect(fake.requests[0]!.stream).toBe(true);
  });

  it.each([false, true])('runs a tool round trip (streaming: %s)', async (streaming) => {
    const calls: unknown[] = [];
    const lookupCourse = tool({
      description: 'Look up a course by code',
      inputSchema: z.object({ code: z.string() }),
      execute: async ({ code }) => {
        calls.push(code);
        return { code, title: 'Computation, Programs, and Programming' };
      },
    });
    fake.enqueue({ toolCalls: [{ name: 'lookupCourse', input: { code: 'CPSC 110' } }], chunks: 3 });
    const options = { model: model(), prompt: 'Tell me about CPSC 110', tools: { lookupCourse }, stopWhen: isStepCount(3), maxRetries: 0 };

    const result = streaming ? streamText(options) : await generateText(options);
    const steps = await result.steps;
    expect(calls).toEqual(['CPSC 110']);
    expect(steps).toHaveLength(2);
    expect(steps[0]!.finishReason).toBe('tool-calls');
    expect(steps[0]!.toolCalls[0]).toMatchObject({ toolName: 'lookupCourse', input: { code: 'CPSC 110' } });
    expect(await result.text).toBe('Tutor says (after tools): {"code":"CPSC 110","title":"Computation, Programs, and Programming"}');

    expect(fake.requests).toHaveLength(2);
    const messages: any[] = fake.requests[1]!.body.messages;
    const toolResult = protocol === 'openai'
      ? messages.find((m) => m.role === 'tool')
      : messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((block) => block.type === 'tool_result');
    expect(JSON.stringify(toolResult)).toContain('Computation, Programs, and Programming');
  });

  it('rejects an unknown key with a 401 APICallError that does not leak the key', async () => {
    const error = await rejection(generateText({ model: model(BAD_KEY), prompt: 'hi', maxRetries: 0 }));
    expect(APICallError.isInstance(error)).toBe(true);
    const apiError = error as APICallError;
    expect(apiError.statusCode).toBe(401);
    expect(apiError.message).not.toContain(BAD_KEY);
    expect(apiError.responseBody).not.toContain(BAD_KEY);
    expect(apiError.data).toMatchObject(protocol === 'openai'
      ? { error: { type: 'invalid_request_error', code: 'invalid_api_key' } }
      : { type: 'error', error: { type: 'authentication_error' } });
    expect(fake.requests[0]!.apiKey).toBe(BAD_KEY);
  });

  it.each([429, 500, 503])('surfaces a %i from generateText with its status code', async (status) => {
    fake.enqueue({ status, retryAfterSeconds: 7 });
    const error = await rejection(generateText({ model: model(), prompt: 'hi', maxRetries: 0 }));
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(status);
    expect((error as APICallError).isRetryable).toBe(true);
    expect((error as APICallError).responseHeaders?.['retry-after']).toBe('7');
  });

  it('surfaces a streamText error as an error part, and awaiting text rejects', async () => {
    fake.enqueue({ status: 500 });
    const seenByOnError: unknown[] = [];
    const result = streamText({ model: model(), prompt: 'hi', maxRetries: 0, onError: ({ error }) => void seenByOnError.push(error) });
    const errors: unknown[] = [];
    for await (const part of result.stream) if (part.type === 'error') errors.push(part.error);

    expect(errors).toHaveLength(1);
    expect(APICallError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as APICallError).statusCode).toBe(500);
    expect(seenByOnError).toEqual(errors);
    expect(NoOutputGeneratedError.isInstance(await rejection(result.text))).toBe(true);
  });
});

describe('fake provider controls', () => {
  const openai = () => createOpenAI({ baseURL: fake.openaiBaseUrl, apiKey: GOOD_KEY }).chat('gpt-4o-mini');

  it('hold() keeps requests in flight until released', async () => {
    const release = fake.hold();
    let settled = 0;
    const replies = [generateText({ model: openai(), prompt: 'one', maxRetries: 0 }), generateText({ model: openai(), prompt: 'two', maxRetries: 0 })]
      .map((promise) => promise.finally(() => settled++));
    await until(() => fake.requests.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.inFlight()).toBe(2);
    expect(settled).toBe(0);

    release();
    const texts = (await Promise.all(replies)).map((result) => result.text);
    expect(texts).toEqual(['Tutor says: one', 'Tutor says: two']);
    await until(() => fake.inFlight() === 0);
  });

  it('a hanging request is ended by the AbortSignal (generateText and streamText)', async () => {
    fake.enqueue({ hang: true }, { hang: true });
    const controller = new AbortController();
    const aborted = rejection(generateText({ model: openai(), prompt: 'hang', maxRetries: 0, abortSignal: controller.signal }));
    await until(() => fake.inFlight() === 1);
    controller.abort();
    expect(await aborted).toMatchObject({ name: 'AbortError' });
    await until(() => fake.inFlight() === 0);

    const streamController = new AbortController();
    const result = streamText({ model: openai(), prompt: 'hang', maxRetries: 0, abortSignal: streamController.signal });
    const parts: string[] = [];
    await until(() => fake.inFlight() === 1);
    streamController.abort();
    for await (const part of result.stream) parts.push(part.type);
    expect(parts).toContain('abort');
    expect(parts).not.toContain('text-delta');
    await until(() => fake.inFlight() === 0);
  });

  it('respond() decides when the queue is empty; queued replies go first', async () => {
    fake.respond((request) => ({ text: `custom for ${request.body.model}` }));
    fake.enqueue({ text: 'queued' });
    const first = await generateText({ model: openai(), prompt: 'a', maxRetries: 0 });
    const second = await generateText({ model: openai(), prompt: 'b', maxRetries: 0 });
    expect([first.text, second.text]).toEqual(['queued', 'custom for gpt-4o-mini']);
  });

  it('chunkDelayMs spaces the streamed chunks', async () => {
    fake.enqueue({ text: 'slow and steady', chunks: 4, chunkDelayMs: 60 });
    const started = Date.now();
    const result = streamText({ model: openai(), prompt: 'slow', maxRetries: 0 });
    expect(await result.text).toBe('slow and steady');
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 60);
  });

  it('speaks the raw SSE framing the real APIs use', async () => {
    const post = (path: string, body: object, headers: Record<string, string>) =>
      fetch(`${fake.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const openaiRaw = await post('/v1/chat/completions', { model: 'm', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] }, { authorization: `Bearer ${GOOD_KEY}` });
    expect(openaiRaw.headers.get('content-type')).toBe('text/event-stream');
    const openaiText = await openaiRaw.text();
    expect(openaiText).toContain('"object":"chat.completion.chunk"');
    expect(openaiText.trimEnd().endsWith('data: [DONE]')).toBe(true);

    const anthropicRaw = await post('/v1/messages', { model: 'm', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': GOOD_KEY });
    const events = [...(await anthropicRaw.text()).matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(events[0]).toBe('message_start');
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(events).toContain('content_block_delta');
  });

  it('close() ends hanging and held requests', async () => {
    const own = await startFakeProvider();
    own.enqueue({ hang: true });
    const model = createOpenAI({ baseURL: own.openaiBaseUrl, apiKey: 'any' }).chat('gpt-4o-mini');
    // rejection() subscribes at once: close() waits for the server side, and the clients reject meanwhile.
    const hanging = rejection(generateText({ model, prompt: 'hang', maxRetries: 0 }));
    await until(() => own.inFlight() === 1);
    own.hold();
    const held = rejection(generateText({ model, prompt: 'held', maxRetries: 0 }));
    await until(() => own.inFlight() === 2);

    await own.close();
    for (const error of await Promise.all([hanging, held])) expect(APICallError.isInstance(error)).toBe(true);
    expect(own.inFlight()).toBe(0);
  });
});
