import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { buildWebAppSync, webSecurityHeaders, writeWebApp } from '../../web/build.js';
import { nagFinding } from './nag-findings.js';

export interface WebAppProps {
  api: RestApi;
  stageName: string;
}

/** Paths CloudFront forwards to API Gateway; everything else is the app from the bucket. */
export const API_PATH_PATTERNS = ['/mcp', '/mcp/*', '/v1/*', '/oauth/*', '/.well-known/*', '/openapi.json', '/healthz'] as const;

/**
 * The student web app and the API on one origin: CloudFront serves the built app from a private bucket
 * (origin access control) and forwards the API's paths to API Gateway uncached, so the app calls the
 * API without CORS and a signed-in browser sends its token only to its own origin.
 */
export class WebApp extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: WebAppProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.bucket = new Bucket(this, 'Assets', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // Only build output lives here: every deploy writes it again.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // The origin is named from the RestApi alone (not its stage), so functions may reference this distribution without a cycle.
    const apiDomain = `${props.api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    const api = new HttpOrigin(apiDomain, {
      originPath: `/${props.stageName}`,
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      // Tutor answers stream for minutes; CloudFront's default read timeout would cut them.
      readTimeout: Duration.seconds(60),
      keepaliveTimeout: Duration.seconds(60),
    });
    const apiBehavior: BehaviorOptions = {
      origin: api,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // API Gateway routes on its own Host name: every viewer header and query string but Host goes through.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    };

    // Built here, at synth, from web/src: no build output is committed and synth stays offline.
    const bundle = buildWebAppSync();
    // The app's own headers, as the local server sends them; the authorization server (the issuer) is the API's origin.
    const headers = webSecurityHeaders(new TextDecoder().decode(bundle.get('/index.html')!.body), { connectSources: [`https://${apiDomain}`] });
    const appHeaders = new ResponseHeadersPolicy(this, 'AppHeaders', {
      comment: 'Tutor Nexus web app: CSP (own scripts only, never framed), nosniff, HSTS',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: headers['content-security-policy']!, override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        contentTypeOptions: { override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
      customHeadersBehavior: { customHeaders: [{ header: 'Cross-Origin-Opener-Policy', value: headers['cross-origin-opener-policy']!, override: true }] },
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Tutor Nexus: student web app and API on one origin',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        responseHeadersPolicy: appHeaders,
      },
      additionalBehaviors: Object.fromEntries(API_PATH_PATTERNS.map((pattern) => [pattern, apiBehavior])),
      // Deep links (/courses/sfu/CMPT%20225) are the app's routes: the bucket has no such object, so answer with the app.
      errorResponses: [403, 404].map((httpStatus) => ({ httpStatus, responseHttpStatus: 200, responsePagePath: '/index.html', ttl: Duration.seconds(0) })),
    });

    const outDir = mkdtempSync(path.join(os.tmpdir(), 'tn-web-app-'));
    writeWebApp(bundle, outDir);
    // Staged as assets here (not Source.asset) so the copier's grants can be named from the bucket they land in.
    const stage = (id: string, exclude: string[]) => new Asset(this, id, { path: outDir, exclude });
    const hashedFiles = stage('HashedFiles', ['index.html']);
    const indexPage = stage('IndexPage', ['assets', 'assets/*']);
    new BucketDeployment(this, 'Deploy', {
      sources: [Source.bucket(hashedFiles.bucket, hashedFiles.s3ObjectKey)],
      destinationBucket: this.bucket,
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
      prune: false,
    });
    // index.html names the hashed assets: never cached, and written after them so it never points at a missing file.
    new BucketDeployment(this, 'DeployIndex', {
      sources: [Source.bucket(indexPage.bucket, indexPage.s3ObjectKey)],
      destinationBucket: this.bucket,
      cacheControl: [CacheControl.noCache()],
      prune: false,
      distribution: this.distribution,
      distributionPaths: ['/index.html', '/'],
    }).node.addDependency(this.node.findChild('Deploy'));

    this.acknowledgeFindings([hashedFiles, indexPage]);
  }

  get url(): string {
    return `https://${this.distribution.distributionDomainName}`;
  }

  private acknowledgeFindings(staged: Asset[]): void {
    const stack = Stack.of(this);
    // BucketDeployment's copying function is one singleton per stack, created by CDK outside this construct.
    for (const copier of stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      const why = (what: string) => `CDK's BucketDeployment copier (runs only at deploy time): ${what}`;
      const copierFindings = Validations.of(copier);
      const finding = (rule: string, kind: 'Resource' | 'Policy', value: string) => nagFinding(copier, rule, kind, value);
      copierFindings.acknowledge({
        id: finding('AwsSolutions-IAM4', 'Policy', ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole').managedPolicyArn),
        reason: why('the basic execution policy only lets it write its own CloudWatch logs.'),
      });
      for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*']) {
        copierFindings.acknowledge({ id: `AwsSolutions-IAM5[Action::${action}]`, reason: why('CDK grants it read on the asset and read/write on the app bucket; no other bucket.') });
      }
      // The CDK asset bucket's name holds the account and region: literals when the CLI synthesizes, references otherwise.
      for (const assetObjects of new Set(staged.map((asset) => finding('AwsSolutions-IAM5', 'Resource', asset.bucket.arnForObjects('*'))))) {
        copierFindings.acknowledge({ id: assetObjects, reason: why('it reads the built app from the CDK asset bucket.') });
      }
      copierFindings.acknowledge(
        { id: finding('AwsSolutions-IAM5', 'Resource', this.bucket.arnForObjects('*')), reason: why('it writes the built app into the app bucket, every object of it.') },
        { id: 'AwsSolutions-IAM5[Resource::*]', reason: why('CloudFront invalidations (after index.html is written) cannot be scoped to one distribution by CDK.') },
        { id: 'AwsSolutions-L1', reason: why('its runtime is chosen and updated by CDK itself with each aws-cdk-lib release.') },
      );
    }
    const validations = Validations.of(this);
    validations.acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'The bucket holds only the public build output of the app, written by deploys; reads go through CloudFront and API calls are logged at API Gateway.',
    });
    validations.acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'A study tool for students wherever they are: no geographic restriction is wanted.',
    });
    validations.acknowledge({
      id: 'AwsSolutions-CFR2',
      reason: 'No WAF: API Gateway throttles, the API enforces quotas and rate limits per user, and the static app has nothing to protect.',
    });
    validations.acknowledge({
      id: 'AwsSolutions-CFR3',
      reason: 'API requests are logged by API Gateway access logs; logging static asset hits adds cost and no security value.',
    });
    validations.acknowledge({
      id: 'AwsSolutions-CFR4',
      reason: 'The default CloudFront certificate (no custom domain) cannot pin a minimum TLS version; set one with a custom domain and certificate.',
    });
  }
}
