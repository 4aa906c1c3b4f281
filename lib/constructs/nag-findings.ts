import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * The id of one granular cdk-nag finding (`AwsSolutions-IAM5[Resource::…]`), rendered from the very
 * value that is granted.
 *
 * cdk-nag names such a finding by the value as the template holds it, references flattened
 * (`{ Ref: 'AWS::Region' }` → `<AWS::Region>`, `Fn::GetAtt` → `<Logical.Attr>`). The same grant reads
 * differently in an environment-agnostic stack (references) and an environment-specific one, which
 * is what the CDK CLI always synthesizes (it passes `CDK_DEFAULT_REGION`, and the account when it has
 * credentials): there the region and account are literals. An acknowledgement typed by hand with
 * `<AWS::Region>` in it matches only the first, so every environment-dependent id is built here,
 * from the construct's own value, and matches whichever stack it lands in.
 */
export function nagFinding(scope: IConstruct, rule: string, kind: 'Resource' | 'Policy' | 'Action', value: string): string {
  return `${rule}[${kind}::${flattenReference(Stack.of(scope).resolve(value))}]`;
}

/** CloudFormation intrinsics as cdk-nag flattens them for finding ids. */
function flattenReference(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  const intrinsic = node as Record<string, unknown>;
  if (Array.isArray(intrinsic['Fn::Join'])) {
    const [delimiter, parts] = intrinsic['Fn::Join'] as [string, unknown[]];
    return parts.map(flattenReference).join(delimiter);
  }
  if (intrinsic['Fn::Sub'] !== undefined) return flattenReference(intrinsic['Fn::Sub']);
  if (Array.isArray(intrinsic['Fn::GetAtt'])) {
    const [resource, attribute] = intrinsic['Fn::GetAtt'] as [unknown, unknown];
    return `<${flattenReference(resource)}.${flattenReference(attribute)}>`;
  }
  if (intrinsic['Fn::ImportValue'] !== undefined) return flattenReference(intrinsic['Fn::ImportValue']);
  if (intrinsic.Ref !== undefined) return `<${flattenReference(intrinsic.Ref)}>`;
  return JSON.stringify(node);
}
