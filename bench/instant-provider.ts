import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI chat-completions provider on 127.0.0.1 that answers at once with a fixed answer (streamed as
 * DELTAS chunks, or one `chat.completion`): it takes the model out of the figures, leaving our own cost.
 */
export const ANSWER =
  'A loop repeats a block of code. Think about what changes each time round: the loop variable takes the next value from the list, ' +
  'and the body runs once for it. What would you print to check which value it has on each pass?';
const DELTAS = 4;

export async function startInstantProvider(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') return void res.writeHead(404).end();
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const base = { id: 'chatcmpl-bench', created: Math.floor(Date.now() / 1000), model: body.model ?? 'instant' };
    const usage = { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 };
    if (body.stream !== true) {
      const message = { role: 'assistant', content: ANSWER, refusal: null };
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, logprobs: null, finish_reason: 'stop' }], usage }));
    }
    const includeUsage = body.stream_options?.include_usage === true;
    const chunk = (delta: object, finish_reason: string | null = null) => {
      const choices = [{ index: 0, delta, logprobs: null, finish_reason }];
      return `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...(includeUsage ? { usage: null } : {}) })}\n\n`;
    };
    const size = Math.ceil(ANSWER.length / DELTAS);
    let frames = chunk({ role: 'assistant', content: '', refusal: null });
    for (let i = 0; i < ANSWER.length; i += size) frames += chunk({ content: ANSWER.slice(i, i + size) });
    frames += chunk({}, 'stop');
    if (includeUsage) frames += `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(`${frames}data: [DONE]\n\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
