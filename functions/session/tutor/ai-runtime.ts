/**
 * The AI SDK and its providers, loaded with a process's first tutor turn. Deployed as a file of its own
 * beside the session bundle (LAMBDA_BUNDLING.lazyParts): a cold start that serves history, sync or
 * drafts never parses the 1.8 MB it takes.
 */
export { generateText, isStepCount, jsonSchema, streamText, tool } from 'ai';
export { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
export { createAnthropic } from '@ai-sdk/anthropic';
export { createOpenAI } from '@ai-sdk/openai';
export { createOpenAICompatible } from '@ai-sdk/openai-compatible';
