import { Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  type MethodOptions,
  type IResource,
  RequestValidator,
  ResponseTransferMode,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { nagFinding } from './nag-findings.js';

/** A function behind the API and how long its streamed response may run. */
interface ApiTarget {
  fn: IFunction;
  /** Integration timeout; streaming integrations allow up to 15 minutes. @default 30 seconds */
  timeout?: Duration;
}

export interface McpApiProps {
  /** `/mcp`, `/v1/tools/{toolName}`, `/v1/web-session`, `/openapi.json`, `/healthz` and the protected-resource metadata. */
  router: ApiTarget;
  /** One static resource per domain: `/mcp/user` reaches only the user function. */
  domains: Record<string, ApiTarget>;
  /** `/oauth/*` and the authorization-server metadata (RFC 8414, OpenID discovery). */
  authorizationServer?: ApiTarget;
  /** @default 'prod' */
  stageName?: string;
  /** Stage-wide steady-state requests per second. @default 50 */
  throttlingRateLimit?: number;
  /** @default 100 */
  throttlingBurstLimit?: number;
}

/**
 * The public REST API. Every integration is a Lambda proxy with response streaming
 * (`ResponseTransferMode.STREAM`, which targets the function's `response-streaming-invocations`
 * URI), because the handlers run middy in streamifyResponse mode and MCP answers may be SSE streams.
 */
export class McpApi extends Construct {
  readonly api: RestApi;
  readonly accessLogs: LogGroup;
  readonly stageName: string;

  constructor(scope: Construct, id: string, props: McpApiProps) {
    super(scope, id);
    this.stageName = props.stageName ?? 'prod';
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });

    this.api = new RestApi(this, 'Api', {
      restApiName: 'tutor-nexus',
      description: 'Tutor Nexus MCP server (Streamable HTTP) and REST twins',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      // The account-level role API Gateway needs to write access and execution logs.
      cloudWatchRole: true,
      deployOptions: {
        stageName: this.stageName,
        tracingEnabled: true,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        throttlingRateLimit: props.throttlingRateLimit ?? 50,
        throttlingBurstLimit: props.throttlingBurstLimit ?? 100,
      },
    });

    // Cheap gateway-side validation: declared path parameters must be present. Bodies have no
    // gateway model (a no-op); every tool input is validated against its zod schema in the function.
    const requestValidator = new RequestValidator(this, 'RequestValidator', {
      restApi: this.api,
      validateRequestBody: true,
      validateRequestParameters: true,
    });

    const integrate = (target: ApiTarget) =>
      new LambdaIntegration(target.fn, {
        proxy: true,
        responseTransferMode: ResponseTransferMode.STREAM,
        timeout: target.timeout ?? Duration.seconds(30),
        allowTestInvoke: false,
      });
    const router = integrate(props.router);
    // Tokens are validated by the functions (see acknowledgeFindings), so no gateway authorizer.
    const options = (extra: MethodOptions = {}): MethodOptions => ({
      authorizationType: AuthorizationType.NONE,
      requestValidator,
      ...extra,
    });
    const get = (resource: IResource) => resource.addMethod('GET', router, options());

    const root = this.api.root;
    // ANY: POST carries MCP messages; GET and DELETE must reach the function so it can answer 405.
    const mcp = root.addResource('mcp');
    mcp.addMethod('ANY', router, options());
    get(mcp.addResource('server-card'));
    for (const [domain, target] of Object.entries(props.domains)) {
      mcp.addResource(domain).addMethod('ANY', integrate(target), options());
    }

    const v1 = root.addResource('v1');
    v1.addResource('tools')
      .addResource('{toolName}')
      .addMethod('POST', router, options({ requestParameters: { 'method.request.path.toolName': true } }));
    // The web app's sign-in: its token goes into an HttpOnly cookie (GET state, POST sign in, DELETE sign out).
    v1.addResource('web-session').addMethod('ANY', router, options());
    get(root.addResource('openapi.json'));
    get(root.addResource('healthz'));
    const wellKnown = root.addResource('.well-known');
    const protectedResource = wellKnown.addResource('oauth-protected-resource');
    get(protectedResource);
    get(protectedResource.addResource('{proxy+}'));
    get(wellKnown.addResource('mcp').addResource('server-card.json'));
    if (props.authorizationServer) {
      const authorizationServer = integrate(props.authorizationServer);
      for (const metadata of ['oauth-authorization-server', 'openid-configuration']) {
        wellKnown.addResource(metadata).addMethod('GET', authorizationServer, options());
      }
      // GET and POST for the endpoints and pages, OPTIONS for browser-based clients' preflights.
      root.addResource('oauth').addResource('{proxy+}').addMethod('ANY', authorizationServer, options());
    }

    this.acknowledgeFindings();
  }

  /** `https://{id}.execute-api.{region}.{suffix}/{stage}` without referencing the stage (no cycle). */
  get baseUrl(): string {
    const stack = Stack.of(this);
    return `https://${this.api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}/${this.stageName}`;
  }

  private acknowledgeFindings(): void {
    const validations = Validations.of(this);
    const authReason =
      'Authorization is NONE at the gateway on purpose: the endpoint must serve unauthenticated discovery ' +
      '(/.well-known/oauth-protected-resource per RFC 9728, /healthz, /openapi.json) and answer bad credentials ' +
      'with 401 plus a WWW-Authenticate resource_metadata pointer, and it accepts personal access tokens ' +
      '(looked up in DynamoDB) besides Cognito JWTs, which a Cognito authorizer cannot verify. The functions ' +
      'validate every bearer token (JWKS signature, issuer, client_id/audience, expiry) and check per-tool ' +
      'permissions before running anything.';
    validations.acknowledge(
      { id: 'AwsSolutions-APIG4', reason: authReason },
      { id: 'AwsSolutions-COG4', reason: authReason },
      {
        id: 'AwsSolutions-APIG3',
        reason:
          'No WAF web ACL by default (it has a fixed monthly cost per ACL and rule). The stage has rate and burst ' +
          'throttling, and per-user quotas are enforced with conditional writes in DynamoDB. Associate a web ACL ' +
          'when the API is exposed at scale.',
      },
      {
        id: nagFinding(this, 'AwsSolutions-IAM4', 'Policy', ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs').managedPolicyArn),
        reason:
          'The account-level API Gateway CloudWatch role must use the AWS managed policy API Gateway documents for ' +
          'writing access and execution logs; it is assumable only by apigateway.amazonaws.com.',
      },
    );
  }
}
