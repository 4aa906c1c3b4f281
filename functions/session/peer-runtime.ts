/**
 * What the session function needs to run other domains' tools (the tutor's lookups, the course a
 * session starts on): the Lambda client and the forwarding code. Imported with the first such call, so
 * in the bundle a chunk of its own that the cold start never loads (LAMBDA_BUNDLING.chunkNames).
 */
export { LambdaClient } from '@aws-sdk/client-lambda';
export { parseDomainFunctions, remoteContractRunner } from '../mcp/http/remote-executor.js';
