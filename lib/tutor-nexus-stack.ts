import { Aws, CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ApiAlarms } from './constructs/api-alarms.js';
import { DomainFunction, type SharedFunctionSettings } from './constructs/domain-function.js';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { sampleFiles } from '../functions/ingest/sources.js';
import { ORIGIN_VARIABLES } from '../functions/ingest/crawl/crawlers.js';
import { McpApi } from './constructs/mcp-api.js';
import { nagFinding } from './constructs/nag-findings.js';
import { WebApp } from './constructs/web-app.js';
import { ScheduledIngestion, type CrawlSettings } from './constructs/scheduled-ingestion.js';
import { SessionFunction } from './constructs/session-function.js';
import { TutorNexusAuth } from './constructs/tutor-nexus-auth.js';
import { TutorNexusTable } from './constructs/tutor-nexus-table.js';

export interface TutorNexusStackProps extends StackProps {
  /** Cognito hosted-domain prefix. @default context `cognitoDomainPrefix`, else `tutor-nexus-<account>` */
  cognitoDomainPrefix?: string;
  /** OAuth callback URLs besides the MCP Inspector's. @default context `callbackUrls` */
  callbackUrls?: string[];
  /**
   * Bedrock model id of the operator's default tutor model; `null` offers none (BYOK only, no anonymous tutoring).
   * @default context `tutorModelId` (`none` disables), else SessionFunction's default
   */
  tutorModelId?: string | null;
  /** Days a tutoring session is kept after its last activity. @default 30 */
  sessionRetentionDays?: number;
}

/** Everything Tutor Nexus runs on; each construct carries its own defaults. */
export class TutorNexusStack extends Stack {
  readonly table: Table;
  readonly auth: TutorNexusAuth;
  readonly byokKey: Key;
  readonly functions: {
    router: DomainFunction;
    user: DomainFunction;
    course: DomainFunction;
    transfer: DomainFunction;
    session: SessionFunction;
    oauth: DomainFunction;
  };
  readonly ingestion: ScheduledIngestion;
  readonly mcp: McpApi;
  readonly alarms: ApiAlarms;
  readonly web: WebApp;

  /**
   * The crawlers' network spans two availability zones of whichever region, named by CloudFormation: an
   * environment-specific synth (the CLI's) then needs no AWS lookup, so `npx cdk synth` works with no credentials.
   */
  override get availabilityZones(): string[] {
    return [Fn.select(0, Fn.getAzs()), Fn.select(1, Fn.getAzs())];
  }

  constructor(scope: Construct, id: string, props: TutorNexusStackProps = {}) {
    super(scope, id, props);
    const context = (key: string): unknown => this.node.tryGetContext(key);

    this.table = new TutorNexusTable(this, 'Store').table;
    this.auth = new TutorNexusAuth(this, 'Auth', {
      domainPrefix: props.cognitoDomainPrefix ?? (context('cognitoDomainPrefix') as string | undefined) ?? `tutor-nexus-${Aws.ACCOUNT_ID}`,
      callbackUrls: props.callbackUrls ?? listContext(context('callbackUrls')),
      plusTier: String(context('cognitoPlusTier')) === 'true',
    });

    this.byokKey = new Key(this, 'ByokKey', {
      description: 'Tutor Nexus BYOK envelope encryption (wraps per-credential data keys)',
      alias: 'alias/tutor-nexus-byok',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const cursorSecret = generatedSecret(this, 'CursorSecret', {
      description: 'Signs opaque pagination cursors',
      length: 48,
      whyNotRotated:
        'rotating invalidates every outstanding pagination cursor. Cursors are short-lived, so rotate by changing ' +
        'the secret and redeploying, which picks up the new value.',
    });

    const shared: SharedFunctionSettings = {
      table: this.table,
      jwtIssuer: this.auth.issuer,
      jwtAudience: this.auth.client.userPoolClientId,
      // A {{resolve:secretsmanager:…}} dynamic reference, resolved by CloudFormation at deploy time.
      cursorSecret: cursorSecret.secretValue.unsafeUnwrap(),
    };

    const user = new DomainFunction(this, 'UserFunction', {
      shared,
      entry: 'functions/user/handler.ts',
      description: 'Tutor Nexus user domain: BYOK keys, preferences, quota, subscription',
      tableAccess: 'readWrite',
      environment: { TN_KMS_KEY_ID: this.byokKey.keyArn },
    });
    // Seals new BYOK credentials only; the session function is the one that may open them.
    this.byokKey.grant(user.fn, 'kms:GenerateDataKey');

    const ingestEvery = Duration.days(Number(context('ingestEveryDays') ?? 1));
    const ingestRate = `rate(${ingestEvery.toDays()} ${ingestEvery.toDays() === 1 ? 'day' : 'days'})`;
    const course = new DomainFunction(this, 'CourseFunction', {
      shared,
      entry: 'functions/course/handler.ts',
      description: 'Tutor Nexus course domain: catalog search, courses, sections, grades (read-only)',
      tableAccess: 'read',
      memorySize: 1536,
      // Lets tn_course_institutions say when each source is ingested next.
      environment: { TN_INGEST_RATE: ingestRate },
    });

    const transfer = new DomainFunction(this, 'TransferFunction', {
      shared,
      entry: 'functions/transfer/handler.ts',
      description: 'Tutor Nexus transfer domain: resolve, search and details of BC Transfer Guide rules (read-only)',
      tableAccess: 'read',
    });

    // The router waits for every call it forwards, tutor turns included, so no function outlives it.
    const routerTimeout = Duration.minutes(5);
    const session = new SessionFunction(this, 'SessionFunction', {
      shared,
      byokKey: this.byokKey,
      tutorModelId: props.tutorModelId !== undefined ? props.tutorModelId : optionalContext(context('tutorModelId')),
      retentionDays: props.sessionRetentionDays,
      timeout: routerTimeout,
    });

    const router = new DomainFunction(this, 'RouterFunction', {
      shared,
      entry: 'functions/router/handler.ts',
      description: 'Tutor Nexus /mcp router: lists every tool, forwards each call to its domain function',
      tableAccess: 'read',
      timeout: routerTimeout,
      environment: {
        TN_DOMAIN_FUNCTIONS: this.toJsonString({
          user: user.fn.functionName,
          course: course.fn.functionName,
          transfer: transfer.fn.functionName,
          session: session.fn.functionName,
        }),
      },
    });
    const mayInvoke = (caller: { fn: IFunction; role: IRole }, callee: { fn: IFunction }) => {
      callee.fn.grantInvoke(caller.fn);
      Validations.of(caller.role).acknowledge({
        id: nagFinding(caller.role, 'AwsSolutions-IAM5', 'Resource', `${callee.fn.functionArn}:*`),
        reason: 'grantInvoke also covers versions and aliases of that one domain function (ARN:*); no other function.',
      });
    };
    for (const domain of [user, course, transfer, session]) mayInvoke(router, domain);
    // The tutor's catalog and transfer lookups run in those functions, under their read-only roles.
    session.fn.addEnvironment('TN_DOMAIN_FUNCTIONS', this.toJsonString({ course: course.fn.functionName, transfer: transfer.fn.functionName }));
    for (const domain of [course, transfer]) mayInvoke(session, domain);
    // Signs access tokens and cookies; only the authorization server function is given it.
    const oauthSecret = generatedSecret(this, 'OAuthSigningSecret', {
      description: 'Seed of the authorization server signing key (Ed25519) and cookie keys',
      length: 64,
      whyNotRotated:
        'rotating ends every signed-in connector session at once (access tokens stop verifying, refresh tokens ' +
        'stay valid). Rotate deliberately by changing the secret and redeploying.',
    });
    const oauth = new DomainFunction(this, 'OAuthFunction', {
      shared,
      entry: 'functions/oauth/handler.ts',
      description: 'Tutor Nexus authorization server: OAuth 2.1 for MCP connectors, sign-in through Cognito',
      tableAccess: 'readWrite',
      environment: {
        TN_OAUTH_SECRET: oauthSecret.secretValue.unsafeUnwrap(),
        // Sign-in is delegated to the Cognito hosted UI; the user id stays the Cognito subject.
        TN_OAUTH_UPSTREAM_ISSUER: this.auth.issuer,
        TN_OAUTH_UPSTREAM_CLIENT_ID: this.auth.client.userPoolClientId,
      },
    });
    this.functions = { router, user, course, transfer, session, oauth };

    this.mcp = new McpApi(this, 'Mcp', {
      router: { fn: router.fn, timeout: routerTimeout },
      domains: {
        user: { fn: user.fn, timeout: Duration.seconds(30) },
        course: { fn: course.fn, timeout: Duration.seconds(30) },
        transfer: { fn: transfer.fn, timeout: Duration.seconds(30) },
        // Tutor answers stream for as long as the function may run.
        session: { fn: session.fn, timeout: session.timeout },
      },
      authorizationServer: { fn: oauth.fn },
    });
    for (const fn of [router, user, course, transfer, session, oauth]) {
      // Links in protected-resource metadata and OpenAPI must include the stage path.
      fn.fn.addEnvironment('TN_PUBLIC_BASE_URL', this.mcp.baseUrl);
      // Our authorization server issues the tokens connectors use; the resource functions verify them with its keys.
      fn.fn.addEnvironment('TN_OAUTH_ISSUER', this.mcp.baseUrl);
    }
    this.auth.allowCallback(`${this.mcp.baseUrl}/oauth/callback`);

    // The student web app on CloudFront, with the API's paths forwarded to API Gateway (one origin).
    this.web = new WebApp(this, 'Web', { api: this.mcp.api, stageName: this.mcp.stageName });
    for (const fn of [router, user, course, transfer, session, oauth]) {
      // The app's pages call the API from the distribution's origin: browsers there pass the Origin check.
      fn.fn.addEnvironment('TN_ALLOWED_HOSTS', this.web.distribution.distributionDomainName);
    }
    // The app signs people in with OAuth (PKCE) and comes back to its settings page.
    oauth.fn.addEnvironment('TN_OAUTH_REDIRECT_URIS', `${this.web.url}/settings`);

    this.alarms = new ApiAlarms(this, 'Alarms', {
      api: this.mcp.api,
      functions: { router: router.fn, user: user.fn, course: course.fn, transfer: transfer.fn, session: session.fn, oauth: oauth.fn },
      alarmEmail: context('alarmEmail') as string | undefined,
    });

    this.ingestion = new ScheduledIngestion(this, 'Ingestion', {
      shared,
      sources: { ...sampleSources(), ...((context('ingestOrigins') as Record<string, string[]> | undefined) ?? {}) },
      every: ingestEvery,
      // `-c crawl=off` keeps every source on its files; `-c crawlEgress=firewalled` adds the crawlers' own network (ADR 0036).
      crawl: String(context('crawl') ?? 'on') === 'off' ? undefined : crawlSettings(String(context('crawlEgress') ?? 'open')),
      alarmAction: new SnsAction(this.alarms.topic),
    });

    new CfnOutput(this, 'WebAppUrl', { value: this.web.url, description: 'The student web app (and the API on the same origin)' });
    new CfnOutput(this, 'McpUrl', { value: `${this.mcp.api.url}mcp`, description: 'MCP endpoint (all tools): the URL to give a connector' });
    new CfnOutput(this, 'OAuthIssuer', { value: this.mcp.baseUrl, description: 'Authorization server issuer (metadata at <issuer>/.well-known/openid-configuration)' });
    new CfnOutput(this, 'UserPoolId', { value: this.auth.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.auth.client.userPoolClientId, description: 'Public MCP client (PKCE)' });
    new CfnOutput(this, 'CognitoDomain', { value: this.auth.domain.baseUrl(), description: 'Hosted sign-in / OAuth endpoints' });
    new CfnOutput(this, 'JwtIssuer', { value: this.auth.issuer });
  }
}

/** The shipped sample catalog, copied into the ingestion bundles: a fresh deploy has a catalog. */
function sampleSources(): Record<string, string[]> {
  const sources: Record<string, string[]> = {};
  for (const { source, file } of sampleFiles('full')) (sources[source] ??= []).push(`data/sample/${file}`);
  return sources;
}

/** The live sources the scheduled functions crawl, with the origins each may reach. */
function crawlSettings(egress: string): CrawlSettings {
  if (egress !== 'firewalled' && egress !== 'open') throw new Error(`crawlEgress must be open or firewalled, got "${egress}"`);
  return {
    egress,
    sources: {
      bctransferguide: { origins: ORIGIN_VARIABLES.bctransferguide },
      // The SFU crawl writes sections too: its function loads the sections sample first, so the sample never lands on a crawl.
      'sfu-outlines': { origins: ORIGIN_VARIABLES['sfu-outlines'], alsoLoads: ['sfu-sections'] },
    },
  };
}

/** A random secret CloudFormation generates, deliberately not rotated on a schedule (the reason is recorded). */
function generatedSecret(scope: Construct, id: string, args: { description: string; length: number; whyNotRotated: string }): Secret {
  const secret = new Secret(scope, id, {
    description: args.description,
    generateSecretString: { excludePunctuation: true, passwordLength: args.length },
  });
  Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: `Not rotated automatically: ${args.whyNotRotated}` });
  return secret;
}

/** A context string where `none` (or an empty value) turns the feature off: `-c tutorModelId=none`. */
function optionalContext(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  const text = value === null ? '' : String(value).trim();
  return text === '' || text.toLowerCase() === 'none' ? null : text;
}

/** Context values arrive as arrays from cdk.json and as strings from `-c key=a,b`. */
function listContext(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
  return [];
}
