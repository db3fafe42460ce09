// cdk-nag's AwsSolutions checks run as a CDK validation plugin at every synth (bin/app.ts, the CDK
// tests): an unacknowledged finding fails the synth. An acknowledgement always names one finding and
// says why it does not apply here; nothing is acknowledged for a whole stack.
import { Stack, Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export function addComplianceChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}

/** Acknowledges one AwsSolutions finding on `scope` (and its children) with a written reason. */
export function acknowledgeFinding(scope: IConstruct, id: string, reason: string): void {
  if (reason.trim().length < 20) throw new Error(`Acknowledgement of ${id} at ${scope.node.path} needs a specific reason`);
  Validations.of(scope).acknowledge({ id, reason });
}

/**
 * The id cdk-nag gives a wildcard IAM resource (`AwsSolutions-IAM5[Resource::…]`): the resource as the
 * template renders it, with references flattened to `<LogicalId.Attr>` and `<Ref>`, exactly as
 * cdk-nag's own flattenCfnReference does.
 */
export function wildcardResourceFinding(scope: IConstruct, resource: string): string {
  return `AwsSolutions-IAM5[Resource::${flattenReference(Stack.of(scope).resolve(resource))}]`;
}

function flattenReference(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  if (typeof node === 'object' && node !== null) {
    const fn = node as Record<string, unknown>;
    if (Array.isArray(fn['Fn::Join'])) {
      const [delimiter, items] = fn['Fn::Join'] as [string, unknown[]];
      return items.map(flattenReference).join(delimiter);
    }
    if (fn['Fn::Sub'] !== undefined) return flattenReference(fn['Fn::Sub']);
    if (Array.isArray(fn['Fn::GetAtt'])) {
      const [resource, attribute] = fn['Fn::GetAtt'] as [unknown, unknown];
      return `<${flattenReference(resource)}.${flattenReference(attribute)}>`;
    }
    if (fn['Fn::ImportValue'] !== undefined) return flattenReference(fn['Fn::ImportValue']);
    if (fn.Ref !== undefined) return `<${flattenReference(fn.Ref)}>`;
  }
  return JSON.stringify(node);
}
