import { App, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, it, expect, beforeAll } from 'vitest';
import { USER_PERMISSIONS } from '../../functions/platform/auth/principal.js';
import { createTableInput, TABLE_DEFINITION } from '../../functions/platform/store/table-definition.js';
import { MCP_INSPECTOR_CALLBACK, RESOURCE_SERVER_ID } from '../../lib/constructs/tutor-nexus-auth.js';
import { TutorNexusStack } from '../../lib/tutor-nexus-stack.js';
import { ORIGIN_VARIABLES } from '../../functions/ingest/crawl/crawlers.js';
import { actionsOf, templateHelpers } from './template-helpers.js';

// Bundling both functions with esbuild dominates; synthesize once for every assertion.
const SYNTH_TIMEOUT = 300_000;

let app: App;
let stack: TutorNexusStack;
let template: Template;

const { logicalId, resources, roleActions, environmentOf } = templateHelpers(() => ({ stack, template }));

/** Full resource paths of the REST API: logical id → `/mcp/user`. */
function apiPaths(): Map<string, string> {
  const byId = new Map(resources('AWS::ApiGateway::Resource'));
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const resource = byId.get(id)!;
    const parent = resource.Properties.ParentId.Ref as string | undefined;
    const full = `${parent ? pathOf(parent) : ''}/${resource.Properties.PathPart}`;
    paths.set(id, full);
    return full;
  };
  for (const id of byId.keys()) pathOf(id);
  return paths;
}

function methods(): { path: string; httpMethod: string; integration: any; properties: any }[] {
  const paths = apiPaths();
  return resources('AWS::ApiGateway::Method').map(([, m]) => ({
    path: m.Properties.ResourceId.Ref ? paths.get(m.Properties.ResourceId.Ref)! : '/',
    httpMethod: m.Properties.HttpMethod,
    integration: m.Properties.Integration,
    properties: m.Properties,
  }));
}

describe('TutorNexus stack', () => {
  beforeAll(() => {
    const started = performance.now();
    app = new App({ context: { cognitoDomainPrefix: 'tutor-nexus-test' } });
    stack = new TutorNexusStack(app, 'TutorNexus');
    // As in bin/app.ts: cdk-nag 3 runs as a policy-validation plugin and synth throws on any error finding.
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
    template = Template.fromStack(stack);
    console.info(`[infra] synthesized TutorNexus (bundling and cdk-nag included) in ${Math.round(performance.now() - started)} ms`);
  }, SYNTH_TIMEOUT);

  it('has the one table, shaped exactly like TABLE_DEFINITION', () => {
    const local = createTableInput('ignored');
    const tables = resources('AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    const [, table] = tables[0]!;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    const p = table.Properties;
    expect(p.KeySchema).toEqual(local.KeySchema);
    expect(p.AttributeDefinitions).toEqual(expect.arrayContaining(local.AttributeDefinitions));
    expect(p.AttributeDefinitions).toHaveLength(local.AttributeDefinitions.length);
    expect(p.GlobalSecondaryIndexes).toEqual(local.GlobalSecondaryIndexes);
    expect(p.BillingMode).toBe('PAY_PER_REQUEST');
    expect(p.TimeToLiveSpecification).toEqual({ AttributeName: TABLE_DEFINITION.timeToLiveAttribute, Enabled: true });
    expect(p.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(p.DeletionProtectionEnabled).toBe(true);
    expect(p.SSESpecification).toEqual({ SSEEnabled: true });
  });

  it('runs every function on nodejs22.x, arm64, active tracing, with a retained-for-a-while log group', () => {
    expect(Object.keys(stack.functions).sort()).toEqual(['course', 'oauth', 'router', 'session', 'transfer', 'user']);
    // CDK's own deploy-time copier for the web app's bucket is not one of ours (its runtime is CDK's choice).
    const functions = resources('AWS::Lambda::Function').filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'));
    const expected = [...Object.values(stack.functions), ...Object.values(stack.ingestion.functions)].map((f) => logicalId(f.fn));
    expect(functions.map(([id]) => id).sort()).toEqual(expected.sort());
    const logGroups = template.findResources('AWS::Logs::LogGroup');
    for (const [, fn] of functions) {
      const p = fn.Properties;
      expect(p.Runtime).toBe('nodejs22.x');
      expect(p.Architectures).toEqual(['arm64']);
      expect(p.TracingConfig).toEqual({ Mode: 'Active' });
      expect(p.Handler).toBe('index.handler');
      const logGroupId = p.LoggingConfig.LogGroup.Ref as string;
      expect(logGroups[logGroupId]?.Properties.RetentionInDays).toBeGreaterThan(0);
      expect(p.Environment.Variables).toMatchObject({
        TN_RUNTIME: 'aws',
        TN_TABLE_NAME: { Ref: logicalId(stack.table) },
        POWERTOOLS_SERVICE_NAME: 'tutor-nexus',
        POWERTOOLS_METRICS_NAMESPACE: 'TutorNexus',
        TN_TOOL_PREFIX: 'tn_',
        TN_PROMPTS_PER_DAY: '100',
        TN_JWT_AUDIENCE: { Ref: logicalId(stack.auth.client) },
      });
      expect(JSON.stringify(p.Environment.Variables.TN_JWT_ISSUER)).toContain('https://cognito-idp.');
      // The cursor secret is a deploy-time dynamic reference, never a value in the template.
      expect(JSON.stringify(p.Environment.Variables.TN_CURSOR_SECRET)).toContain('{{resolve:secretsmanager:');
    }
  });

  it('gives the router read-only table access and invoke on the domain functions only', () => {
    const router = roleActions(logicalId(stack.functions.router.role));
    for (const write of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) {
      expect(router.actions).not.toContain(write);
    }
    expect(router.actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    const invoke = JSON.stringify(router.statements.filter((s) => actionsOf([s]).includes('lambda:InvokeFunction')).map((s) => s.Resource));
    expect(invoke).toContain(logicalId(stack.functions.user.fn));
    expect(invoke).toContain(logicalId(stack.functions.course.fn));
    expect(invoke).toContain(logicalId(stack.functions.session.fn));
    expect(invoke).not.toContain(logicalId(stack.functions.router.fn));
    for (const ingest of Object.values(stack.ingestion.functions)) expect(invoke).not.toContain(logicalId(ingest.fn));

    const env = environmentOf(stack.functions.router.fn);
    expect(env.TN_DOMAIN_FUNCTIONS).toEqual({
      'Fn::Join': [
        '',
        [
          '{"user":"',
          { Ref: logicalId(stack.functions.user.fn) },
          '","course":"',
          { Ref: logicalId(stack.functions.course.fn) },
          '","transfer":"',
          { Ref: logicalId(stack.functions.transfer.fn) },
          '","session":"',
          { Ref: logicalId(stack.functions.session.fn) },
          '"}',
        ],
      ],
    });
    expect(invoke).toContain(logicalId(stack.functions.transfer.fn));
    expect(roleActions(logicalId(stack.functions.user.role)).actions).toContain('dynamodb:PutItem');
  });

  it("lets the session function invoke the course and transfer functions (the tutor's lookups), and no other", () => {
    const session = roleActions(logicalId(stack.functions.session.role));
    const invoke = JSON.stringify(session.statements.filter((s) => actionsOf([s]).includes('lambda:InvokeFunction')).map((s) => s.Resource));
    expect(invoke).toContain(logicalId(stack.functions.course.fn));
    expect(invoke).toContain(logicalId(stack.functions.transfer.fn));
    for (const other of [stack.functions.user, stack.functions.router, stack.functions.session, stack.functions.oauth]) {
      expect(invoke).not.toContain(logicalId(other.fn));
    }
    expect(environmentOf(stack.functions.session.fn).TN_DOMAIN_FUNCTIONS).toEqual({
      'Fn::Join': ['', ['{"course":"', { Ref: logicalId(stack.functions.course.fn) }, '","transfer":"', { Ref: logicalId(stack.functions.transfer.fn) }, '"}']],
    });
  });

  it.each(['course', 'transfer'] as const)('gives the %s function read-only table access and nothing else', (domain) => {
    const course = roleActions(logicalId(stack.functions[domain].role));
    expect(course.actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    for (const forbidden of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'lambda:InvokeFunction']) {
      expect(course.actions).not.toContain(forbidden);
    }
    expect(course.actions.filter((a) => a.startsWith('kms:'))).toEqual([]);
  });

  it('ingests every source on an EventBridge schedule, with write access, a dead-letter queue and alarms', () => {
    const sources = Object.keys(stack.ingestion.functions).sort();
    // sfu-sections has no function of its own: the SFU crawl writes it, and its function loads that sample first.
    expect(sources).toEqual(expect.arrayContaining(['bctransferguide', 'langara-catalogue', 'sfu-outlines', 'ubc-catalog', 'ubc-grades']));
    expect(sources).not.toContain('sfu-sections');
    const rules = resources('AWS::Events::Rule').map(([, r]) => r.Properties);
    expect(rules).toHaveLength(sources.length);
    const dlq = logicalId(stack.ingestion.deadLetterQueue);
    const crawled = new Set([logicalId(stack.ingestion.functions.bctransferguide!.fn), logicalId(stack.ingestion.functions['sfu-outlines']!.fn)]);
    for (const rule of rules) {
      // A crawl's function wakes every 15 minutes to continue its crawl; file sources load daily.
      expect(rule.ScheduleExpression).toBe(crawled.has(rule.Targets[0].Arn['Fn::GetAtt'][0]) ? 'rate(15 minutes)' : 'rate(1 day)');
      expect(rule.Targets[0].DeadLetterConfig.Arn).toEqual({ 'Fn::GetAtt': [dlq, 'Arn'] });
      expect(rule.Targets[0].RetryPolicy.MaximumRetryAttempts).toBe(2);
    }
    for (const [source, fn] of Object.entries(stack.ingestion.functions)) {
      const role = roleActions(logicalId(fn.role));
      expect(role.actions).toEqual(expect.arrayContaining(['dynamodb:BatchWriteItem', 'dynamodb:Query']));
      expect(role.actions.filter((a) => a.startsWith('kms:') || a.startsWith('lambda:'))).toEqual([]);
      const env = environmentOf(fn.fn);
      expect(env.TN_INGEST_SOURCE).toBe(source);
      expect(JSON.parse(env.TN_INGEST_ORIGINS).length).toBeGreaterThan(0);
      expect(env.TN_CRAWL).toBe(crawled.has(logicalId(fn.fn)) ? 'on' : undefined);
      // One run of a source at a time: its runs rewrite the same record packs.
      expect(template.toJSON().Resources[logicalId(fn.fn)].Properties.ReservedConcurrentExecutions).toBe(1);
    }
    for (const fn of Object.values(stack.functions)) expect(template.toJSON().Resources[logicalId(fn.fn)].Properties.ReservedConcurrentExecutions).toBeUndefined();
    template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
    const alarms = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    expect(alarms.filter((a) => a.Namespace === 'AWS/SQS' && a.MetricName === 'ApproximateNumberOfMessagesVisible')).toHaveLength(1);
  });

  it('crawls the live sources on a heartbeat, reaching only their origins, with alarms on failed and stale crawls', () => {
    const crawlers = { bctransferguide: stack.ingestion.functions.bctransferguide!, 'sfu-outlines': stack.ingestion.functions['sfu-outlines']! };
    const raw = template.toJSON().Resources;
    const originVariables = new Set(Object.values(ORIGIN_VARIABLES).flatMap((origins) => Object.keys(origins)));
    for (const [source, fn] of Object.entries(crawlers)) {
      const p = raw[logicalId(fn.fn)].Properties;
      expect(p.Timeout).toBe(900);
      // The default a small team runs: Lambda's own network, no NAT gateway to pay for (ADR 0036).
      expect(p.VpcConfig).toBeUndefined();
      const env = environmentOf(fn.fn);
      expect(env).toMatchObject({ TN_CRAWL: 'on', TN_CRAWL_EVERY_HOURS: '24', TN_INGEST_SOURCE: source });
      // Where the crawler may go is written in the template: its own sources' real origins, and its client refuses any other.
      const origins = Object.fromEntries(Object.entries(env).filter(([name]) => originVariables.has(name)));
      expect(origins).toEqual(ORIGIN_VARIABLES[source as keyof typeof ORIGIN_VARIABLES]);
      expect(Object.values(origins).every((origin) => /^https:\/\/[a-z.]+\.(bctransferguide|sfu)\.ca$/.test(String(origin)))).toBe(true);
      // A heartbeat that cannot run in time is dropped, not retried: the next one continues the crawl.
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: logicalId(fn.fn) }, MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 900 });
      // The table, logs and traces: nothing else.
      const { actions, statements } = roleActions(logicalId(fn.role));
      expect(actions.filter((a) => !/^(dynamodb|logs|xray):/.test(a))).toEqual([]);
      const dynamo = statements.filter((st) => actionsOf([st]).some((a) => a.startsWith('dynamodb:')));
      expect(JSON.stringify(dynamo.map((st) => st.Resource))).not.toContain('"*"');
    }
    // No other function is told where a crawl goes.
    for (const [source, fn] of Object.entries(stack.ingestion.functions)) {
      if (!(source in crawlers)) expect(Object.keys(environmentOf(fn.fn)).filter((name) => originVariables.has(name) || name === 'TN_CRAWL'), source).toEqual([]);
    }
    expect(stack.ingestion.network).toBeUndefined();
    expect(resources('AWS::EC2::NatGateway')).toHaveLength(0);
    expect(resources('AWS::EC2::VPC')).toHaveLength(0);
    // The SFU crawl writes sections too: its function loads the sections sample before it crawls.
    const sfuOrigins = JSON.parse(environmentOf(crawlers['sfu-outlines'].fn).TN_INGEST_ORIGINS) as unknown[];
    expect(sfuOrigins).toEqual(expect.arrayContaining([{ source: 'sfu-sections', origin: expect.stringMatching(/^data\/sample\/sfu-catalog-2026\/sections-/) }]));

    // Alarms per crawled source: a failed run, and a crawl not completed for twice its interval (silence counts).
    const alarms = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    for (const source of Object.keys(crawlers)) {
      const dimensions = [
        { Name: 'service', Value: 'tutor-nexus' },
        { Name: 'source', Value: source },
      ];
      const failed = alarms.find((a) => a.MetricName === 'CrawlRunsFailed' && JSON.stringify(a.Dimensions) === JSON.stringify(dimensions));
      expect(failed).toMatchObject({ Namespace: 'TutorNexus', Statistic: 'Sum', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      const stale = alarms.find((a) => a.MetricName === 'CrawlAgeHours' && JSON.stringify(a.Dimensions) === JSON.stringify(dimensions));
      expect(stale).toMatchObject({ Statistic: 'Maximum', Threshold: 48, TreatMissingData: 'breaching' });
      for (const alarm of [failed, stale]) expect(alarm!.AlarmActions).toHaveLength(1);
    }
  });

  it('routes every path to the right function through a streaming Lambda proxy', () => {
    const routerId = logicalId(stack.functions.router.fn);
    const domainFunctionOf: Record<string, string> = {
      '/mcp/user': logicalId(stack.functions.user.fn),
      '/mcp/course': logicalId(stack.functions.course.fn),
      '/mcp/transfer': logicalId(stack.functions.transfer.fn),
      '/mcp/session': logicalId(stack.functions.session.fn),
      '/oauth/{proxy+}': logicalId(stack.functions.oauth.fn),
      '/.well-known/oauth-authorization-server': logicalId(stack.functions.oauth.fn),
      '/.well-known/openid-configuration': logicalId(stack.functions.oauth.fn),
    };
    const routes = methods().map((m) => `${m.httpMethod} ${m.path}`);
    expect(routes.sort()).toEqual(
      [
        'ANY /mcp',
        'ANY /mcp/user',
        'ANY /mcp/course',
        'ANY /mcp/transfer',
        'ANY /mcp/session',
        'POST /v1/tools/{toolName}',
        'ANY /v1/web-session',
        'GET /openapi.json',
        'GET /healthz',
        'GET /.well-known/oauth-protected-resource',
        'GET /.well-known/oauth-protected-resource/{proxy+}',
        'GET /.well-known/mcp/server-card.json',
        'GET /mcp/server-card',
        'GET /.well-known/oauth-authorization-server',
        'GET /.well-known/openid-configuration',
        'ANY /oauth/{proxy+}',
      ].sort(),
    );
    for (const m of methods()) {
      const uri = JSON.stringify(m.integration.Uri);
      expect(m.integration.Type).toBe('AWS_PROXY');
      expect(m.integration.ResponseTransferMode).toBe('STREAM');
      expect(uri).toContain('/2021-11-15/functions/');
      expect(uri).toContain('/response-streaming-invocations');
      expect(uri).toContain(domainFunctionOf[m.path] ?? routerId);
      expect(m.properties.AuthorizationType).toBe('NONE');
      // The router and the session function stream for up to 5 minutes; the other domains answer at once.
      const longRunning = !domainFunctionOf[m.path] || m.path === '/mcp/session';
      if (m.path.includes('oauth-protected-resource')) expect(uri).toContain(routerId);
      expect(m.integration.TimeoutInMillis, m.path).toBe(longRunning ? 300_000 : 30_000);
    }
  });

  it('logs access as JSON, traces and throttles the stage', () => {
    const accessLogs = logicalId(stack.mcp.accessLogs);
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      AccessLogSetting: {
        DestinationArn: { 'Fn::GetAtt': [accessLogs, 'Arn'] },
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
      MethodSettings: Match.arrayWith([
        Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', LoggingLevel: 'ERROR', ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 }),
      ]),
    });
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    template.hasResourceProperties('AWS::ApiGateway::RequestValidator', { ValidateRequestBody: true, ValidateRequestParameters: true });
  });

  it('alarms on API 5XX and p99 latency and on errors and throttles of every function', () => {
    const alarms = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const domainCount = Object.keys(stack.functions).length;
    const ingestionCount = Object.keys(stack.ingestion.functions).length;
    const crawledCount = Object.values(stack.ingestion.functions).filter((f) => environmentOf(f.fn).TN_CRAWL === 'on').length;
    expect(domainCount).toBe(6);
    expect(crawledCount).toBe(2);
    // API 5XX and latency; errors and throttles per domain function; errors per ingestion function; dead letters; failed and stale crawls.
    expect(alarms).toHaveLength(2 + 2 * domainCount + ingestionCount + 1 + 2 * crawledCount);
    const metrics = alarms.map((a) => `${a.Namespace}/${a.MetricName}`);
    expect(metrics.filter((m) => m.startsWith('AWS/ApiGateway')).sort()).toEqual(['AWS/ApiGateway/5XXError', 'AWS/ApiGateway/Latency']);
    expect(metrics.filter((m) => m === 'AWS/Lambda/Throttles')).toHaveLength(domainCount);
    expect(metrics.filter((m) => m === 'AWS/Lambda/Errors')).toHaveLength(domainCount + ingestionCount);
    expect(alarms.find((a) => a.MetricName === 'Latency')?.ExtendedStatistic).toBe('p99');
    for (const a of alarms) expect(a.AlarmActions).toHaveLength(1);
    for (const fn of Object.values(stack.functions)) {
      const dimensions = alarms.filter((a) => a.Namespace === 'AWS/Lambda').map((a) => JSON.stringify(a.Dimensions));
      expect(dimensions.filter((d) => d.includes(logicalId(fn.fn)))).toHaveLength(2);
    }
  });

  it('runs the authorization server as its own function, the only one holding the signing secret', () => {
    const oauth = environmentOf(stack.functions.oauth.fn);
    // A deploy-time dynamic reference to its own secret, never a value in the template.
    expect(JSON.stringify(oauth.TN_OAUTH_SECRET)).toContain('{{resolve:secretsmanager:');
    expect(JSON.stringify(oauth.TN_OAUTH_SECRET)).toContain(stack.getLogicalId(stack.node.findChild('OAuthSigningSecret').node.defaultChild as never));
    // Sign-in is federated to the Cognito user pool through its public client.
    expect(JSON.stringify(oauth.TN_OAUTH_UPSTREAM_ISSUER)).toContain('https://cognito-idp.');
    expect(oauth.TN_OAUTH_UPSTREAM_CLIENT_ID).toEqual({ Ref: logicalId(stack.auth.client) });
    for (const [name, fn] of Object.entries(stack.functions)) {
      const environment = environmentOf(fn.fn);
      // Every function trusts tokens of the issuer at the API's base URL; none but oauth can sign them.
      expect(JSON.stringify(environment.TN_OAUTH_ISSUER), name).toContain('.execute-api.');
      expect(JSON.stringify(environment.TN_OAUTH_ISSUER), name).toEqual(JSON.stringify(environment.TN_PUBLIC_BASE_URL));
      if (name !== 'oauth') expect(environment.TN_OAUTH_SECRET, name).toBeUndefined();
    }
    // Clients, grants, codes and refresh tokens live in the table.
    expect(roleActions(logicalId(stack.functions.oauth.role)).actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:Query']));
    // Cognito sends people back to the authorization server's callback.
    const [, client] = resources('AWS::Cognito::UserPoolClient')[0]!;
    expect(JSON.stringify(client.Properties.CallbackURLs)).toContain('/oauth/callback');
    template.hasOutput('OAuthIssuer', {});
  });

  it('has a Cognito user pool and a public PKCE client with the tool permissions as scopes', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      MfaConfiguration: 'OPTIONAL',
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12, RequireSymbols: true, RequireUppercase: true, RequireNumbers: true }) },
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolResourceServer', {
      Identifier: RESOURCE_SERVER_ID,
      Scopes: USER_PERMISSIONS.map((p) => Match.objectLike({ ScopeName: p })),
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      CallbackURLs: Match.arrayWith([MCP_INSPECTOR_CALLBACK]),
      AllowedOAuthScopes: Match.arrayWith(['openid']),
    });
    // `<resource server Ref = identifier>/<permission>`, i.e. `tutor-nexus/byok:read`.
    const [, client] = resources('AWS::Cognito::UserPoolClient')[0]!;
    const serverId = resources('AWS::Cognito::UserPoolResourceServer')[0]![0];
    for (const permission of USER_PERMISSIONS) {
      expect(client.Properties.AllowedOAuthScopes).toContainEqual({ 'Fn::Join': ['', [{ Ref: serverId }, `/${permission}`]] });
    }
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'tutor-nexus-test' });
    for (const output of ['McpUrl', 'UserPoolId', 'UserPoolClientId', 'CognitoDomain']) template.hasOutput(output, {});
    expect(JSON.stringify(template.findOutputs('McpUrl'))).toContain('mcp');
  });

  it('passes cdk-nag AwsSolutions with no unacknowledged errors or warnings', () => {
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(app);
    const findings = report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
    expect(Annotations.fromStack(stack).findError('*', Match.anyValue())).toEqual([]);
    expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue())).toEqual([]);
  });

  it('gives every acknowledged cdk-nag finding a real reason', () => {
    const acknowledged = app.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      .flatMap((m) => Object.entries(m.data as Record<string, string>));
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const [id, reason] of acknowledged) {
      expect(id).toMatch(/AwsSolutions-[A-Z]+\d+/);
      expect(reason.length, id).toBeGreaterThan(60);
    }
  });
});
