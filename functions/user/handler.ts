import { KmsDataKeyProvider } from '../platform/crypto/kms-data-keys.js';
import { ENDPOINT_TOOLS } from '../mcp/discovery/endpoint-tools.js';
import { createLambdaHandler } from '../mcp/http/mcp-lambda.js';
import { userTools } from './index.js';

export const handler = createLambdaHandler({ definitions: userTools, endpointTools: ENDPOINT_TOOLS, kmsDataKeys: (keyId) => new KmsDataKeyProvider(keyId) });
