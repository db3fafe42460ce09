// Function roles. Grants go into the role's own inline policy (InlinePolicyRole) instead of a separate
// AWS::IAM::Policy resource, and route functions whose grants are equal share one role (each keeps its
// own log group, and the shared role may write to the log groups of the functions sharing it). Both
// keep the stack's resource count from growing by two per function (docs/decisions/nested-route-stacks.md).
import { createHash } from 'node:crypto';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

/**
 * A role whose grants (addToPrincipalPolicy, and so every `grant*` of CDK) land in its inline policy.
 * Inline policies share the role's 10,240-character quota exactly as an attached AWS::IAM::Policy
 * would; the difference is one resource less.
 */
export class InlinePolicyRole extends iam.Role {
  private readonly inlineGrants: iam.PolicyDocument;

  constructor(scope: Construct, id: string, props: Omit<iam.RoleProps, 'inlinePolicies'>) {
    const grants = new iam.PolicyDocument();
    super(scope, id, { ...props, inlinePolicies: { grants } });
    this.inlineGrants = grants;
  }

  override addToPrincipalPolicy(statement: iam.PolicyStatement): iam.AddToPrincipalPolicyResult {
    this.inlineGrants.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}

export class FunctionRoles extends Construct {
  private readonly roles = new Map<string, iam.Role>();

  /**
   * The role for functions granted exactly `grants` (a description of every grant that will be
   * added to it, e.g. the route row's table and feed-file actions), created on first use.
   */
  roleFor(grants: Record<string, readonly string[]>): iam.Role {
    const normalised = Object.fromEntries(
      Object.entries(grants)
        .map(([name, actions]) => [name, [...actions].sort()] as const)
        .filter(([, actions]) => actions.length > 0)
        .sort(([a], [b]) => a.localeCompare(b)),
    );
    const key = JSON.stringify(normalised);
    let role = this.roles.get(key);
    if (!role) {
      // The id follows the grants, so adding a route with new grants leaves the other roles in place.
      const id = `Role${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
      const summary = Object.values(normalised).flat().join(', ') || 'logs only';
      role = new InlinePolicyRole(this, id, {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        description: `Marketplace route functions granted: ${summary}`.slice(0, 1000),
      });
      this.roles.set(key, role);
    }
    return role;
  }
}
