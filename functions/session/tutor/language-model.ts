import type { LanguageModel } from 'ai';
import type { DefaultLlmProvider } from '../../platform/config.js';
import { outboundFetch } from '../../platform/net/outbound-fetch.js';
import type { OutboundPolicy } from '../../platform/net/outbound-url.js';

/** Models used when a BYOK credential does not name one. */
export const DEFAULT_MODELS = { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-5' } as const;

/** Which model answers a turn, and with whose key. The key lives only in memory for the call. */
export interface ModelTarget {
  source: 'byok' | 'operator';
  provider: DefaultLlmProvider;
  model: string;
  apiKey?: string;
  baseUrl?: string;
  credentialId?: string;
  region?: string;
  /** Where the provider's HTTP calls may connect (redirects are never followed either way). */
  outbound: OutboundPolicy;
}

/** Turns a target into an AI SDK model. Tests replace it only where a provider cannot run here (Bedrock). */
export type LanguageModelFactory = (target: ModelTarget) => Promise<LanguageModel>;

/**
 * Provider SDKs are loaded on first use, not at cold start: most session calls (history, sync) and the
 * /mcp router, which bundles every definition, never call a model.
 */
export const createLanguageModel: LanguageModelFactory = async (target) => {
  // One outbound rule for every provider call (ADR 0029).
  const fetch = outboundFetch(target.outbound);
  switch (target.provider) {
    case 'openai': {
      const { createOpenAI } = await import('./ai-runtime.js');
      // Chat Completions, the protocol every OpenAI-compatible gateway also speaks.
      return createOpenAI({ apiKey: target.apiKey, baseURL: target.baseUrl, fetch }).chat(target.model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('./ai-runtime.js');
      return createAnthropic({ apiKey: target.apiKey, baseURL: target.baseUrl, fetch })(target.model);
    }
    case 'openai-compatible': {
      if (!target.baseUrl) throw new Error('openai-compatible needs a base URL');
      const { createOpenAICompatible } = await import('./ai-runtime.js');
      return createOpenAICompatible({ name: 'openai-compatible', apiKey: target.apiKey, baseURL: target.baseUrl, includeUsage: true, fetch })(target.model);
    }
    case 'bedrock': {
      const { createAmazonBedrock } = await import('./ai-runtime.js');
      // IAM credentials of the function (AWS_* environment variables in Lambda); no key is stored.
      return createAmazonBedrock({ region: target.region })(target.model);
    }
  }
};
