import { KmsDataKeyProvider } from '../platform/crypto/kms-data-keys.js';
import { ENDPOINT_TOOLS } from '../mcp/discovery/endpoint-tools.js';
import { createLambdaHandler } from '../mcp/http/mcp-lambda.js';
import type { ContractRunner } from '../mcp/tools/invoke-tool.js';
import { sessionPrompts, sessionResources } from './contracts/surface.js';
import { sessionTools } from './index.js';

/** The tutor's catalog and transfer lookups run in those domains' functions, under their roles. */
function peerRunner(): ContractRunner {
  let runner: Promise<ContractRunner> | undefined;
  return async (contract, input, request) => {
    runner ??= import('./peer-runtime.js').then((peer) => peer.remoteContractRunner(new peer.LambdaClient({}), peer.parseDomainFunctions(process.env.TN_DOMAIN_FUNCTIONS)));
    return (await runner)(contract, input, request);
  };
}

export const handler = createLambdaHandler({
  definitions: sessionTools,
  endpointTools: ENDPOINT_TOOLS,
  surface: { resources: sessionResources, prompts: sessionPrompts },
  contractRunner: peerRunner,
  kmsDataKeys: (keyId) => new KmsDataKeyProvider(keyId),
});
