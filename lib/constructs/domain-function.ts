import { AssetHashType, DockerImage, Duration, Validations, type BundlingOptions, type ILocalBundling } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ISecurityGroup, IVpc, SubnetSelection } from 'aws-cdk-lib/aws-ec2';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { bundleFunction, PROJECT_ROOT, type FunctionBundleOptions } from './lambda-bundling.js';
import { nagFinding } from './nag-findings.js';

export { PROJECT_ROOT };

/**
 * esbuild on this machine, through the same bundleFunction the bundle test and the bench use (code
 * splitting, lazy parts, views). Its fields name what it bundles, so CDK never
 * takes one function's asset for another's (its bundling cache keys on them).
 */
class LocalFunctionBundling implements ILocalBundling {
  constructor(
    readonly entry: string,
    readonly options: FunctionBundleOptions,
  ) {}

  tryBundle(outputDir: string): boolean {
    bundleFunction(this.entry, outputDir, this.options);
    return true;
  }
}

/** Settings every function shares; the stack builds this once. */
export interface SharedFunctionSettings {
  table: ITable;
  jwtIssuer: string;
  jwtAudience: string;
  /** Resolved at deploy time (a CloudFormation dynamic reference), never a literal. */
  cursorSecret: string;
  toolPrefix?: string;
  promptsPerDay?: number;
}

export interface DomainFunctionProps {
  shared: SharedFunctionSettings;
  /** Entry file relative to the repository root, e.g. `functions/user/handler.ts`. */
  entry: string;
  /** The table access this function's role gets; nothing else is granted here. */
  tableAccess: 'read' | 'readWrite';
  description?: string;
  environment?: Record<string, string>;
  /** @default 1024 */
  memorySize?: number;
  /** @default 30 seconds */
  timeout?: Duration;
  /** @default one month */
  logRetention?: RetentionDays;
  /** Repository folders copied into the bundle (e.g. the sample data an ingestion function loads). */
  copyIntoBundle?: string[];
  /** At most this many at once (unset: the account's pool). */
  reservedConcurrentExecutions?: number;
  /** Runs inside this network (the crawlers' firewalled egress) instead of Lambda's open one. */
  network?: { vpc: IVpc; securityGroup: ISecurityGroup; subnets: SubnetSelection };
}


/**
 * One Lambda function per domain with every default in one place: Node.js 22 on arm64, X-Ray
 * active, an explicit log group, an ESM esbuild bundle (local esbuild, no Docker), the shared
 * environment and the table grant. Its role starts empty: no AWS managed policy, only the grants
 * made here and by the caller.
 */
export class DomainFunction extends Construct {
  readonly fn: LambdaFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: DomainFunctionProps) {
    super(scope, id);
    const { shared } = props;

    this.logGroup = new LogGroup(this, 'LogGroup', { retention: props.logRetention ?? RetentionDays.ONE_MONTH });
    // Instead of AWSLambdaBasicExecutionRole (logs:* on every log group): write to this group only.
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(this.role);

    const bundling: BundlingOptions = {
      // Never pulled: local bundling always succeeds or fails the synth with esbuild's error.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
      local: new LocalFunctionBundling(props.entry, { sourcemap: true, copyIntoBundle: props.copyIntoBundle }),
    };
    this.fn = new LambdaFunction(this, 'Function', {
      code: Code.fromAsset(PROJECT_ROOT, { assetHashType: AssetHashType.OUTPUT, bundling }),
      handler: 'index.handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(30),
      tracing: Tracing.ACTIVE,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      ...(props.network ? { vpc: props.network.vpc, securityGroups: [props.network.securityGroup], vpcSubnets: props.network.subnets } : {}),
      logGroup: this.logGroup,
      role: this.role,
      environment: {
        TN_RUNTIME: 'aws',
        TN_TABLE_NAME: shared.table.tableName,
        POWERTOOLS_SERVICE_NAME: 'tutor-nexus',
        POWERTOOLS_METRICS_NAMESPACE: 'TutorNexus',
        TN_TOOL_PREFIX: shared.toolPrefix ?? 'tn_',
        TN_PROMPTS_PER_DAY: String(shared.promptsPerDay ?? 100),
        TN_JWT_ISSUER: shared.jwtIssuer,
        TN_JWT_AUDIENCE: shared.jwtAudience,
        TN_CURSOR_SECRET: shared.cursorSecret,
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
    });

    if (props.tableAccess === 'readWrite') shared.table.grantReadWriteData(this.fn);
    else shared.table.grantReadData(this.fn);
    // What AWSLambdaVPCAccessExecutionRole grants, given inline: Lambda manages the function's network interfaces with the role.
    if (props.network) {
      this.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['ec2:CreateNetworkInterface', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeSubnets', 'ec2:DeleteNetworkInterface', 'ec2:AssignPrivateIpAddresses', 'ec2:UnassignPrivateIpAddresses'],
          resources: ['*'],
        }),
      );
    }

    this.acknowledgeFindings(shared.table, Boolean(props.network));
  }

  /** The cdk-nag findings every domain function has, each with the reason it is accepted. */
  private acknowledgeFindings(table: ITable, inNetwork: boolean): void {
    const validations = Validations.of(this);
    validations.acknowledge(
      {
        id: 'AwsSolutions-L1',
        reason:
          'Pinned to nodejs22.x on purpose: it matches the project engines (node >=22), the esbuild target and the ' +
          'Node the tests run on. Moving to a newer runtime is a deliberate upgrade, not a side effect of a newer CDK.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which do not support ' +
          'resource-level permissions (https://docs.aws.amazon.com/xray/latest/devguide/security_iam_id-based-policy-examples.html).' +
          (inNetwork
            ? ' In its network, Lambda creates and deletes the function\'s network interfaces with its role: the EC2 actions of ' +
              'AWSLambdaVPCAccessExecutionRole, which name interfaces that do not exist yet (https://docs.aws.amazon.com/lambda/latest/dg/configuration-vpc.html).'
            : ''),
      },
    );
    validations.acknowledge({
      id: nagFinding(this, 'AwsSolutions-IAM5', 'Resource', `${table.tableArn}/index/*`),
      reason:
        "Queries on the table's own GSIs (GSI1, GSI2) need the index ARNs; the wildcard covers only indexes " +
        'of this one table, with the same actions as the table grant.',
    });
  }
}
