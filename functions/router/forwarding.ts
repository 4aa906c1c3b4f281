/**
 * What the router needs to forward a call to a domain's function: the Lambda client and the forwarding
 * code. Imported with the first forwarded call, so in the bundle a chunk of its own: the requests a
 * connection starts with (initialize, tools/list, resources, prompts) never parse the Lambda client.
 */
import { LambdaClient } from '@aws-sdk/client-lambda';
import { remoteCompleter, remoteContractRunner } from '../mcp/http/remote-executor.js';
import { parseDomainFunctions } from '../mcp/http/remote-invocation.js';

const lambda = new LambdaClient({});
const functionByDomain = parseDomainFunctions(process.env.TN_DOMAIN_FUNCTIONS);

export const forward = remoteContractRunner(lambda, functionByDomain);
export const complete = remoteCompleter(lambda, functionByDomain);
