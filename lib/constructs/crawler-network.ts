import { Aws, Fn, RemovalPolicy } from 'aws-cdk-lib';
import { FlowLogDestination, FlowLogTrafficType, GatewayVpcEndpointAwsService, Peer, Port, SecurityGroup, SubnetType, Vpc, type SubnetSelection } from 'aws-cdk-lib/aws-ec2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnFirewallDomainList, CfnFirewallRuleGroup, CfnFirewallRuleGroupAssociation } from 'aws-cdk-lib/aws-route53resolver';
import { Construct } from 'constructs';

export interface CrawlerNetworkProps {
  /** Host names the crawlers fetch (the sources' sites); nothing else resolves inside the network. */
  sourceHosts: string[];
}

/**
 * Where the crawlers run: private subnets whose only way out is HTTPS through one NAT gateway, and a
 * Route 53 Resolver DNS Firewall that answers for the sources' host names (and the AWS endpoints the
 * functions use) and NXDOMAIN for every other name. A crawler tricked into following a link elsewhere
 * cannot even resolve it; the code's own origin allow-list is the first line, this is the second
 * (ADR 0036). DynamoDB is reached through a gateway endpoint, so table traffic never crosses the NAT.
 */
export class CrawlerNetwork extends Construct {
  readonly vpc: Vpc;
  readonly securityGroup: SecurityGroup;
  readonly subnets: SubnetSelection = { subnetType: SubnetType.PRIVATE_WITH_EGRESS };
  /** Every name the firewall lets resolve. */
  readonly allowedDomains: string[];

  constructor(scope: Construct, id: string, props: CrawlerNetworkProps) {
    super(scope, id);
    const flowLogs = new LogGroup(this, 'FlowLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    this.vpc = new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 1,
      subnetConfiguration: [
        { name: 'nat', subnetType: SubnetType.PUBLIC, cidrMask: 26 },
        { name: 'crawlers', subnetType: SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 24 },
      ],
      gatewayEndpoints: { DynamoDb: { service: GatewayVpcEndpointAwsService.DYNAMODB } },
      flowLogs: { all: { destination: FlowLogDestination.toCloudWatchLogs(flowLogs), trafficType: FlowLogTrafficType.ALL } },
      // Nothing runs in the default security group; restricting it would take a custom-resource function of its own.
      restrictDefaultSecurityGroup: false,
    });
    this.securityGroup = new SecurityGroup(this, 'Crawlers', {
      vpc: this.vpc,
      description: 'Tutor Nexus crawlers: HTTPS out only; names limited to the sources by the DNS firewall',
      allowAllOutbound: false,
    });
    this.securityGroup.addEgressRule(Peer.anyIpv4(), Port.tcp(443), 'HTTPS to the sources (NAT) and to DynamoDB (gateway endpoint)');

    this.allowedDomains = [
      ...new Set(props.sourceHosts.map((host) => host.toLowerCase())),
      // The table, and X-Ray for the functions' active tracing.
      `dynamodb.${Aws.REGION}.amazonaws.com`,
      `xray.${Aws.REGION}.amazonaws.com`,
    ];
    const allowed = new CfnFirewallDomainList(this, 'AllowedDomains', { name: Fn.join('-', ['tutor-nexus-crawl-allowed', Aws.STACK_NAME]), domains: this.allowedDomains });
    const everything = new CfnFirewallDomainList(this, 'EveryDomain', { name: Fn.join('-', ['tutor-nexus-crawl-everything', Aws.STACK_NAME]), domains: ['*'] });
    const rules = new CfnFirewallRuleGroup(this, 'Rules', {
      name: Fn.join('-', ['tutor-nexus-crawl', Aws.STACK_NAME]),
      firewallRules: [
        // A source's name may be a CNAME into its CDN: the chain from an allowed name is trusted.
        { priority: 100, action: 'ALLOW', firewallDomainListId: allowed.attrId, firewallDomainRedirectionAction: 'TRUST_REDIRECTION_DOMAIN' },
        { priority: 200, action: 'BLOCK', blockResponse: 'NXDOMAIN', firewallDomainListId: everything.attrId },
      ],
    });
    new CfnFirewallRuleGroupAssociation(this, 'Association', {
      firewallRuleGroupId: rules.attrId,
      vpcId: this.vpc.vpcId,
      priority: 101,
      name: 'tutor-nexus-crawlers',
      mutationProtection: 'DISABLED',
    });
  }
}
