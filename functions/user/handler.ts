import { KmsDataKeyProvider } from '../shared/crypto/kms-data-keys.js';
import { ENDPOINT_TOOLS } from '../shared/discovery/endpoint-tools.js';
import { createLambdaHandler } from '../shared/http/mcp-lambda.js';
import { userTools } from './index.js';

export const handler = createLambdaHandler({ definitions: userTools, endpointTools: ENDPOINT_TOOLS, kmsDataKeys: (keyId) => new KmsDataKeyProvider(keyId) });
