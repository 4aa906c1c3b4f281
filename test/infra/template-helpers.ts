import type { CfnElement, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';

type Resource = { Type: string; Properties: any; DeletionPolicy?: string; UpdateReplacePolicy?: string };

export const actionsOf = (statements: any[]) => statements.flatMap((s) => [s.Action].flat() as string[]);

/**
 * Lookups into one synthesized template. `current` is read on every call, so test files can create the
 * helpers at module level and synthesize in beforeAll.
 */
export function templateHelpers(current: () => { stack: Stack; template: Template }) {
  const logicalId = (construct: IConstruct) => current().stack.getLogicalId(construct.node.defaultChild as CfnElement);
  const resources = (type: string) => Object.entries(current().template.findResources(type)) as [string, Resource][];

  /** Every action granted to a role through its inline policies. */
  function roleActions(roleLogicalId: string): { statements: any[]; actions: string[] } {
    const statements = resources('AWS::IAM::Policy')
      .filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleLogicalId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    return { statements, actions: actionsOf(statements) };
  }

  /** The statements of a role that grant any action with this prefix (`kms:`, `bedrock:`). */
  const statementsFor = (roleLogicalId: string, prefix: string) =>
    roleActions(roleLogicalId).statements.filter((s) => actionsOf([s]).some((a) => a.startsWith(prefix)));

  /** The environment variables of a function, by its construct. */
  const environmentOf = (fn: IConstruct): Record<string, any> =>
    resources('AWS::Lambda::Function').find(([id]) => id === logicalId(fn))![1].Properties.Environment.Variables;

  return { logicalId, resources, roleActions, statementsFor, environmentOf };
}
