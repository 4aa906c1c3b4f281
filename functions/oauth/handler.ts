import { createWebLambdaHandler } from '../shared/http/lambda-adapter.js';
import { awsAuthorizationServerApp } from './aws-app.js';

export const handler = createWebLambdaHandler(() => awsAuthorizationServerApp());
