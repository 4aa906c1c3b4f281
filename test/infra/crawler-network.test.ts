import { App, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { TutorNexusStack } from '../../lib/tutor-nexus-stack.js';
import { actionsOf, templateHelpers } from './template-helpers.js';

/**
 * `-c crawlEgress=firewalled` (ADR 0036): the crawlers in a network of their own, for a deployment
 * that wants a second limit on where they go beside the client's allow-list. Bundling is skipped
 * (`aws:cdk:bundling-stacks`): these assertions are about the template; stack.test.ts bundles once.
 */
function synth(context: Record<string, unknown>): { app: App; stack: TutorNexusStack; template: Template } {
  const app = new App({ context: { cognitoDomainPrefix: 'tutor-nexus-test', 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new TutorNexusStack(app, 'TutorNexus');
  // As in bin/app.ts: synth throws on any unacknowledged cdk-nag finding.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { app, stack, template: Template.fromStack(stack) };
}

const NETWORK_ACTIONS = ['ec2:AssignPrivateIpAddresses', 'ec2:CreateNetworkInterface', 'ec2:DeleteNetworkInterface', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeSubnets', 'ec2:UnassignPrivateIpAddresses'];

describe('crawlers in a firewalled network (-c crawlEgress=firewalled)', () => {
  let current: ReturnType<typeof synth>;
  const { logicalId, resources, roleActions } = templateHelpers(() => current);

  beforeAll(() => {
    current = synth({ crawlEgress: 'firewalled' });
  }, 120_000);

  it('runs the two crawl functions, and only them, in private subnets whose one way out is HTTPS', () => {
    const { stack, template } = current;
    const network = stack.ingestion.network!;
    expect(network).toBeDefined();
    const raw = template.toJSON().Resources;
    const sgId = logicalId(network.securityGroup);
    const crawlers = ['bctransferguide', 'sfu-outlines'];
    for (const source of crawlers) {
      const fn = stack.ingestion.functions[source]!;
      const p = raw[logicalId(fn.fn)].Properties;
      expect(p.VpcConfig.SecurityGroupIds).toEqual([{ 'Fn::GetAtt': [sgId, 'GroupId'] }]);
      expect(p.VpcConfig.SubnetIds).toEqual(network.vpc.privateSubnets.map((subnet) => ({ Ref: logicalId(subnet) })));
      // The table, logs, traces and the network interfaces Lambda manages for it: nothing else.
      const { actions, statements } = roleActions(logicalId(fn.role));
      expect(actions.filter((a) => !/^(dynamodb|logs|xray):/.test(a)).sort()).toEqual(NETWORK_ACTIONS);
      const dynamo = statements.filter((st) => actionsOf([st]).some((a) => a.startsWith('dynamodb:')));
      expect(JSON.stringify(dynamo.map((st) => st.Resource))).not.toContain('"*"');
    }
    for (const [source, fn] of Object.entries(stack.ingestion.functions)) {
      if (!crawlers.includes(source)) expect(raw[logicalId(fn.fn)].Properties.VpcConfig, source).toBeUndefined();
    }
    for (const [name, fn] of Object.entries(stack.functions)) expect(raw[logicalId(fn.fn)].Properties.VpcConfig, name).toBeUndefined();

    const sg = raw[sgId].Properties;
    expect(sg.SecurityGroupEgress).toEqual([expect.objectContaining({ CidrIp: '0.0.0.0/0', IpProtocol: 'tcp', FromPort: 443, ToPort: 443 })]);
    expect(sg.SecurityGroupIngress).toBeUndefined();
    expect(resources('AWS::EC2::NatGateway')).toHaveLength(1);
    template.hasResourceProperties('AWS::EC2::VPCEndpoint', { VpcEndpointType: 'Gateway', ServiceName: { 'Fn::Join': ['', ['com.amazonaws.', { Ref: 'AWS::Region' }, '.dynamodb']] } });
    template.hasResourceProperties('AWS::EC2::FlowLog', { TrafficType: 'ALL' });
  });

  it("resolves only the sources' names (and the AWS endpoints the functions call): every other name is NXDOMAIN", () => {
    const lists = new Map(resources('AWS::Route53Resolver::FirewallDomainList').map(([id, l]) => [id, l.Properties.Domains as unknown[]]));
    const [group] = resources('AWS::Route53Resolver::FirewallRuleGroup').map(([, g]) => g.Properties.FirewallRules as any[]);
    expect(group!.map((r) => [r.Priority, r.Action, r.BlockResponse])).toEqual([
      [100, 'ALLOW', undefined],
      [200, 'BLOCK', 'NXDOMAIN'],
    ]);
    const allowed = lists.get(group![0].FirewallDomainListId['Fn::GetAtt'][0])!;
    const named = allowed.filter((d): d is string => typeof d === 'string');
    expect(named.sort()).toEqual(['api.bctransferguide.ca', 'www.bctransferguide.ca', 'www.sfu.ca', 'ws.bctransferguide.ca'].sort());
    expect(JSON.stringify(allowed.filter((d) => typeof d !== 'string'))).toMatch(/dynamodb\..*xray\./);
    expect(lists.get(group![1].FirewallDomainListId['Fn::GetAtt'][0])).toEqual(['*']);
    current.template.hasResourceProperties('AWS::Route53Resolver::FirewallRuleGroupAssociation', { VpcId: { Ref: logicalId(current.stack.ingestion.network!.vpc) } });
  });

  it('synthesizes with no cdk-nag finding left unexplained', () => {
    expect(Annotations.fromStack(current.stack).findError('*', Match.anyValue())).toEqual([]);
    const acknowledged = current.app.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      .flatMap((m) => Object.entries(m.data as Record<string, string>));
    // CDK's own VPC and flow log constructs acknowledge CloudFormation template validation findings (W3010, F3002): not ours, not cdk-nag's.
    for (const [id, reason] of acknowledged.filter(([id]) => !id.startsWith('CloudFormation-Validate::'))) {
      expect(id).toMatch(/AwsSolutions-[A-Z]+\d+/);
      expect(reason.length, id).toBeGreaterThan(60);
    }
  });

  it('refuses an egress it does not know', () => {
    expect(() => synth({ crawlEgress: 'nat-instance' })).toThrow(/crawlEgress must be open or firewalled, got "nat-instance"/);
  });
});
