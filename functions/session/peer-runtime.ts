/**
 * What the session function needs to run other domains' tools (the tutor's lookups, the course a
 * session starts on): the Lambda client and the forwarding code. A part of its own beside the session
 * bundle (LAMBDA_BUNDLING.lazyParts), loaded with the first such call.
 */
export { LambdaClient } from '@aws-sdk/client-lambda';
export { parseDomainFunctions, remoteContractRunner } from '../shared/http/remote-executor.js';
