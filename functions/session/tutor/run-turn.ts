import { APICallError } from '@ai-sdk/provider';
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import { DomainError } from '../../platform/domain-error.js';
import type { ModelTarget } from './language-model.js';

export interface TurnResult {
  text: string;
  inputTokens?: number;
  outputTokens?: number;
}

/**
 * One tutor turn through the AI SDK: with `onDelta`, streams text deltas as they arrive (tool steps in
 * between); without, one non-streaming call. Bounded by a timeout and the caller's signal. Any provider failure becomes a DomainError
 * that names the status, never the provider's own message (which can quote part of the key).
 */
export async function runTutorTurn(args: {
  model: LanguageModel;
  target: ModelTarget;
  instructions: string;
  messages: ModelMessage[];
  tools: ToolSet;
  maxToolCalls: number;
  timeoutMs: number;
  signal: AbortSignal;
  onDelta?: (delta: string) => Promise<void>;
}): Promise<TurnResult> {
  const timeout = AbortSignal.timeout(args.timeoutMs);
  const signal = AbortSignal.any([args.signal, timeout]);
  let text = '';
  let failure: unknown;
  let usage: { inputTokens?: number; outputTokens?: number } = {};
  // Loaded with the first turn, not at cold start (see language-model.ts).
  const { generateText, isStepCount, streamText } = await import('./ai-runtime.js');
  const options = {
    model: args.model,
    instructions: args.instructions,
    messages: args.messages,
    tools: args.tools,
    // One step per lookup, plus the step that answers; that last step may not call tools, so a model
    // that keeps looking things up still ends with an answer.
    stopWhen: isStepCount(args.maxToolCalls + 1),
    prepareStep: ({ stepNumber }: { stepNumber: number }) => (stepNumber >= args.maxToolCalls ? { toolChoice: 'none' as const } : undefined),
    // No silent retries (the SDK would sleep through a provider's retry-after): the caller gets
    // SERVICE_UNAVAILABLE with retryAfter at once and retries with the same clientEventId, which is safe.
    maxRetries: 0,
    abortSignal: signal,
  };
  try {
    if (!args.onDelta) {
      // Nobody is listening for partial text: one plain (non-streaming) provider call.
      const result = await generateText(options);
      text = result.text;
      usage = { inputTokens: result.totalUsage.inputTokens, outputTokens: result.totalUsage.outputTokens };
    } else {
      // Failures arrive as stream parts and are mapped below; the SDK's own console logging is not wanted.
      const result = streamText({ ...options, onError: () => undefined });
      for await (const part of result.stream) {
        if (part.type === 'text-delta' && part.text) {
          text += part.text;
          await args.onDelta(part.text);
        } else if (part.type === 'error') {
          failure = part.error;
          break;
        } else if (part.type === 'finish') {
          usage = { inputTokens: part.totalUsage.inputTokens, outputTokens: part.totalUsage.outputTokens };
        }
      }
    }
  } catch (error) {
    failure = error;
  }
  if (timeout.aborted) throw providerTimeout(args.timeoutMs);
  if (args.signal.aborted) throw new DomainError('unavailable', 'The request was cancelled before the tutor finished.');
  if (failure !== undefined) throw providerFailure(failure, args.target);
  if (!text.trim()) {
    throw new DomainError('unavailable', 'The tutor returned an empty answer.', { reason: 'empty completion from the provider' });
  }
  return { text, ...usage };
}

function providerTimeout(timeoutMs: number): DomainError {
  return new DomainError(
    'unavailable',
    `The tutor's model did not answer within ${Math.round(timeoutMs / 1000)} s.`,
    { reason: 'provider timeout', retryAfter: 5 },
    'Your message is saved. Retry tn_session_ask with the same clientEventId in a few seconds; nothing was charged.',
  );
}

/** Maps a provider failure to an error the agent can act on. */
export function providerFailure(error: unknown, target: ModelTarget): DomainError {
  const cause = isRetryError(error) ? error.lastError : error;
  const status = APICallError.isInstance(cause) ? cause.statusCode : statusOf(cause);
  const retryAfter = APICallError.isInstance(cause) ? retryAfterOf(cause.responseHeaders) : undefined;
  const kept = 'Your message is saved and nothing was charged.';
  const ownKey = target.source === 'byok';
  if ((status === 401 || status === 403) && ownKey) {
    return new DomainError(
      'unprocessable',
      `The ${target.provider} provider rejected your API key (HTTP ${status}).`,
      { reason: `provider authentication failed (${status})`, hints: ['Replace the key: tn_user_byok_add, then tn_user_byok_delete for the old one.'] },
      `${kept} Ask the user to check or replace their ${target.provider} key, then retry with the same clientEventId.`,
    );
  }
  if ((status === 400 || status === 404 || status === 422) && ownKey) {
    return new DomainError(
      'unprocessable',
      `The ${target.provider} provider refused the request (HTTP ${status}); the model "${target.model}" may not exist for this key.`,
      { reason: `provider refused the request (${status})` },
      `${kept} Ask the user to check the model configured with their key.`,
    );
  }
  return new DomainError(
    'unavailable',
    status === 429
      ? `The ${target.provider} provider is rate limiting requests (HTTP 429).`
      : `The tutor's model provider is unavailable${status ? ` (HTTP ${status})` : ''}.`,
    { reason: status ? `provider responded ${status}` : 'provider unreachable', retryAfter: retryAfter ?? (status === 429 ? 20 : 5) },
    `${kept} Retry tn_session_ask with the same clientEventId after details.retryAfter seconds.`,
  );
}

/** The AI SDK's RetryError (retries exhausted) carries the last attempt's error; recognised by shape so 'ai' loads lazily. */
function isRetryError(error: unknown): error is { lastError: unknown } {
  return typeof error === 'object' && error !== null && 'lastError' in error && Array.isArray((error as { errors?: unknown }).errors);
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

function retryAfterOf(headers: Record<string, string> | undefined): number | undefined {
  const raw = headers?.['retry-after'];
  const seconds = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}
