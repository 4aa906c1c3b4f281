import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { CredentialSummarySchema, ProviderSchema } from '../byok-credentials.js';

export const input = z
  .strictObject({
    provider: ProviderSchema.describe('LLM provider: "openai", "anthropic", or "openai-compatible" (any server speaking the OpenAI API)'),
    apiKey: z.string().min(8).max(512).describe('The provider API key. Stored encrypted; never returned, only its last four characters'),
    label: z.string().trim().min(1).max(64).optional().describe('A name to tell keys apart, e.g. "personal" (defaults to the provider name)'),
    baseUrl: z.string().max(2048).optional().describe('Required for openai-compatible: the API base URL, e.g. https://api.together.xyz/v1'),
    model: z.string().trim().min(1).max(128).optional().describe('Required for openai-compatible: the model id to use, e.g. "llama-3.1-70b"'),
  })
  .superRefine((value, ctx) => {
    if (value.provider === 'openai-compatible') {
      if (!value.baseUrl) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'baseUrl is required for openai-compatible' });
      if (!value.model) ctx.addIssue({ code: 'custom', path: ['model'], message: 'model is required for openai-compatible' });
    }
  });

export const byokAddContract = defineContract({
  name: 'user_byok_add',
  domain: 'user',
  title: 'Add a BYOK credential',
  description:
    'Stores the user\'s own LLM API key (OpenAI, Anthropic, or an OpenAI-compatible server) encrypted at rest, for the tutor to use. ' +
    'Use this when the user wants tutoring billed to their own provider account. Returns the new credentialId, provider, label and ' +
    'the key\'s last four characters; the key itself is never returned. Example: add an Anthropic key labelled "personal".',
  version: '1.0.0',
  input,
  output: CredentialSummarySchema,
  category: 'mutation',
  permissions: ['byok:write'],
  access: 'user',
  responseTime: 'fast',
  cacheable: false,
  idempotent: false,
  tags: ['byok', 'credentials', 'settings'],
  rateLimit: { maxCalls: 10, windowMs: 60_000 },
  examples: [
    {
      description: 'Add an Anthropic key',
      input: { provider: 'anthropic', apiKey: 'sk-ant-api03-EXAMPLEEXAMPLEEXAMPLE1234', label: 'personal' },
      expect: 'success',
      output: {
        credentialId: '01JD0000000000000000000000',
        provider: 'anthropic',
        label: 'personal',
        last4: '1234',
        createdAt: '2026-11-22T10:00:00.000Z',
      },
    },
    {
      description: 'An OpenAI key given as Anthropic is refused',
      input: { provider: 'anthropic', apiKey: 'sk-proj-EXAMPLEEXAMPLEEXAMPLE' },
      expect: 'BAD_REQUEST',
    },
  ],
});
