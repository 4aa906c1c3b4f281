import { readdirSync } from 'node:fs';
import path from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { MockIntegration, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATH_PATTERNS, WebApp } from '../../lib/constructs/web-app.js';

// CloudFront's managed policies, by their fixed ids.
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

/** The construct on its own, next to a stand-in API: no function bundling, so this synthesizes in seconds. */
let app: App;
let stack: Stack;
let template: Template;
let web: WebApp;

beforeAll(() => {
  app = new App();
  stack = new Stack(app, 'WebOnly');
  const api = new RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' }, cloudWatchRole: false });
  api.root.addMethod('GET', new MockIntegration());
  web = new WebApp(stack, 'Web', { api, stageName: 'prod' });
  Validations.of(stack).acknowledge(
    { id: 'AwsSolutions-APIG1', reason: 'A stand-in API for this test only; the real one (McpApi) has access logs and is checked in stack.test.ts.' },
    { id: 'AwsSolutions-APIG2', reason: 'A stand-in API for this test only; the real one (McpApi) validates requests and is checked in stack.test.ts.' },
    { id: 'AwsSolutions-APIG3', reason: 'A stand-in API for this test only; the real one (McpApi) is checked with its own reasons in stack.test.ts.' },
    { id: 'AwsSolutions-APIG4', reason: 'A stand-in API for this test only; the real one (McpApi) is checked with its own reasons in stack.test.ts.' },
    { id: 'AwsSolutions-APIG6', reason: 'A stand-in API for this test only; the real one (McpApi) logs every stage and is checked in stack.test.ts.' },
    { id: 'AwsSolutions-COG4', reason: 'A stand-in API for this test only; the real one (McpApi) is checked with its own reasons in stack.test.ts.' },
  );
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  template = Template.fromStack(stack);
}, 120_000);

const distribution = () => Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;

describe('the web app on CloudFront', () => {
  it('serves the app from a private bucket through origin access control, compressed and cached', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const config = distribution();
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.DefaultCacheBehavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https', Compress: true, CachePolicyId: CACHING_OPTIMIZED });
    const s3Origin = config.Origins.find((o: any) => o.Id === config.DefaultCacheBehavior.TargetOriginId);
    expect(s3Origin.S3OriginConfig).toBeDefined();
    expect(s3Origin.OriginAccessControlId).toBeDefined();
  });

  it('forwards the API paths to API Gateway uncached, every method, every header but Host', () => {
    const config = distribution();
    const behaviors = config.CacheBehaviors as any[];
    expect(behaviors.map((b) => b.PathPattern).sort()).toEqual([...API_PATH_PATTERNS].sort());
    expect(API_PATH_PATTERNS).toEqual(expect.arrayContaining(['/mcp*'.replace('*', ''), '/v1/*', '/oauth/*', '/.well-known/*', '/openapi.json']));
    for (const behavior of behaviors) {
      expect(behavior, behavior.PathPattern).toMatchObject({
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']),
      });
      const origin = config.Origins.find((o: any) => o.Id === behavior.TargetOriginId);
      expect(origin.OriginPath).toBe('/prod');
      expect(JSON.stringify(origin.DomainName)).toContain('execute-api');
      expect(origin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    }
  });

  it('answers deep links with index.html (SPA fallback)', () => {
    expect(distribution().CustomErrorResponses).toEqual(
      expect.arrayContaining([403, 404].map((code) => ({ ErrorCode: code, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 }))),
    );
  });

  it('deploys the app built at synth: hashed assets cached for a year, index.html never', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')).map((r: any) => r.Properties);
    expect(deployments).toHaveLength(2);
    expect(deployments.map((d) => d.SystemMetadata?.['cache-control']).sort()).toEqual(['no-cache', 'public, max-age=31536000, immutable']);
    const indexDeployment = deployments.find((d) => d.SystemMetadata['cache-control'] === 'no-cache');
    expect(indexDeployment.DistributionPaths).toEqual(['/index.html', '/']);
    // The asset staged for the bucket is the built app.
    const staged = readdirSync(app.outdir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name.startsWith('asset.')).map((entry) => entry.name);
    const files = staged.flatMap((dir) => readdirSync(path.join(app.outdir, dir), { recursive: true }).map(String));
    expect(files).toContain('index.html');
    expect(files.some((f) => /^assets\/app-[A-Z0-9]+\.js$/.test(f))).toBe(true);
  });

  it('passes cdk-nag AwsSolutions, each acknowledged finding with its reason', () => {
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
    expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue())).toEqual([]);
    expect(web.url).toMatch(/^https:\/\//);
  });
});

describe('the web app in the TutorNexus stack', () => {
  it('lets every function accept calls from the distribution origin, and outputs its URL', async () => {
    const { TutorNexusStack } = await import('../../lib/tutor-nexus-stack.js');
    // Bundling skipped: stack.test.ts bundles every function once already.
    const full = new App({ context: { cognitoDomainPrefix: 'tutor-nexus-test', 'aws:cdk:bundling-stacks': [] } });
    const tn = new TutorNexusStack(full, 'TutorNexus');
    Validations.of(full).addPlugins(new AwsSolutionsChecks(full, { verbose: true }));
    const t = Template.fromStack(tn);
    const domain = { 'Fn::GetAtt': [tn.getLogicalId(tn.web.distribution.node.defaultChild as any), 'DomainName'] };
    for (const fn of Object.values(tn.functions)) {
      const variables = t.toJSON().Resources[tn.getLogicalId(fn.fn.node.defaultChild as any)].Properties.Environment.Variables;
      expect(variables.TN_ALLOWED_HOSTS, fn.fn.node.path).toEqual(domain);
    }
    const oauthVariables = t.toJSON().Resources[tn.getLogicalId(tn.functions.oauth.fn.node.defaultChild as any)].Properties.Environment.Variables;
    expect(oauthVariables.TN_OAUTH_REDIRECT_URIS).toEqual({ 'Fn::Join': ['', ['https://', domain, '/settings']] });
    t.hasOutput('WebAppUrl', { Value: { 'Fn::Join': ['', ['https://', domain]] } });
    const origins = Object.values(t.findResources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig.Origins;
    expect(JSON.stringify(origins)).toContain(tn.getLogicalId(tn.mcp.api.node.defaultChild as any));
  }, 300_000);
});
