import { createWebLambdaHandler } from '../mcp/http/lambda-adapter.js';
import { awsAuthorizationServerApp } from './aws-app.js';

export const handler = createWebLambdaHandler(() => awsAuthorizationServerApp());
