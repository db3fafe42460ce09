// Synthesizes one stage the way bin/app.ts does (cdk.json's context, cdk-nag's AwsSolutions checks,
// which throw on an unacknowledged finding) but without bundling: esbuild would run once per function
// and the templates do not depend on the bundles' contents. Each test file synthesizes once.
// The route stacks (nested stacks) are merged into `resources` as the root sees them: a nested
// resource's logical id is prefixed with its stack's (`Webhooks/listWebhooks…`), and each parameter is
// replaced by the value the root passes, so that a route's grant on the table reads
// `Fn::GetAtt [Table…, Arn]` exactly as a root function's does.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, CfnElement, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { addComplianceChecks } from '../../lib/compliance.ts';
import { REPOSITORY_ROOT } from '../../lib/api-function.ts';
import { MarketplaceStack, type MarketplaceStackProps } from '../../lib/marketplace-stack.ts';
import { resourceNames, type Stage } from '../../shared/resources.ts';

type Resource = { Type: string; Properties?: any; DependsOn?: string[]; DeletionPolicy?: string; UpdateReplacePolicy?: string };

export interface SynthesizedStage {
  stack: MarketplaceStack;
  /** The root stack's template. */
  template: Template;
  /** Resources of the root template and of every nested template (ids prefixed, parameters resolved), by logical id. */
  resources: Record<string, Resource>;
  /** Each template's resources as CloudFormation sees them: the root's (`''`), then each nested stack's by construct id. */
  templates: Map<string, { resources: Record<string, Resource>; parameters: string[]; outputs: string[] }>;
  /** Every acknowledged finding in the app: construct path, rule id, reason. */
  acknowledgements: { path: string; id: string; reason: string }[];
  /** The validation report CDK wrote (cdk-nag and CloudFormation's own rules). */
  validationReport: { pluginReports: { pluginName: string; violations: unknown[] }[] };
  /** The logical id of a construct's CloudFormation resource. */
  logicalId(construct: IConstruct): string;
}

export function synthesizeStage(
  stage: Stage,
  options: Pick<MarketplaceStackProps, 'workers' | 'routes'> & { beforeSynth?: (stack: MarketplaceStack) => void } = {},
): SynthesizedStage {
  const cdkJson = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'cdk.json'), 'utf8'));
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'cdk-test-'));
  try {
    const app = new App({ outdir, context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
    const stack = new MarketplaceStack(app, resourceNames(stage).stackName, { stage, workers: options.workers, routes: options.routes });
    options.beforeSynth?.(stack);
    addComplianceChecks(app);

    const assembly = app.synth(); // throws on any unacknowledged cdk-nag error
    const templateJson = assembly.getStackArtifact(stack.artifactId).template;
    const validationReport = JSON.parse(readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8'));
    const templates: SynthesizedStage['templates'] = new Map([['', { resources: templateJson.Resources, parameters: Object.keys(templateJson.Parameters ?? {}), outputs: Object.keys(templateJson.Outputs ?? {}) }]]);
    const resources: Record<string, Resource> = { ...templateJson.Resources };
    for (const nested of stack.node.findAll().filter((construct) => NestedStack.isNestedStack(construct))) {
      const nestedJson = JSON.parse(readFileSync(path.join(assembly.directory, nested.templateFile), 'utf8'));
      templates.set(nested.node.id, { resources: nestedJson.Resources, parameters: Object.keys(nestedJson.Parameters ?? {}), outputs: Object.keys(nestedJson.Outputs ?? {}) });
      const passed = templateJson.Resources[logicalIdOf(stack, nested.nestedStackResource!)].Properties.Parameters ?? {};
      const inline = inlineNested(`${nested.node.id}/`, Object.keys(nestedJson.Resources), passed);
      for (const [id, resource] of Object.entries(nestedJson.Resources)) resources[`${nested.node.id}/${id}`] = inline(resource) as Resource;
    }
    return {
      stack,
      template: Template.fromJSON(templateJson),
      resources,
      templates,
      acknowledgements: acknowledgementsIn(app),
      validationReport,
      logicalId: (construct) => logicalIdOf(stack, construct),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

function acknowledgementsIn(app: App) {
  return app.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}

/** A construct's logical id; in a nested stack, prefixed with that stack's construct id as in `resources`. */
function logicalIdOf(stack: Stack, construct: IConstruct): string {
  const element = CfnElement.isCfnElement(construct) ? construct : construct.node.defaultChild;
  if (!element || !CfnElement.isCfnElement(element)) throw new Error(`${construct.node.path} has no CloudFormation resource`);
  const owner = Stack.of(element);
  const id = owner.resolve(element.logicalId) as string;
  return owner === stack ? id : `${owner.node.id}/${id}`;
}

/** Rewrites a nested template's value as the root sees it: its resources prefixed, its parameters replaced by what the root passes. */
function inlineNested(prefix: string, resourceIds: string[], parameters: Record<string, unknown>) {
  const own = new Set(resourceIds);
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item));
    if (node === null || typeof node !== 'object') return node;
    const object = node as Record<string, unknown>;
    if (typeof object.Ref === 'string' && Object.keys(object).length === 1) {
      if (object.Ref in parameters) return parameters[object.Ref];
      return own.has(object.Ref) ? { Ref: `${prefix}${object.Ref}` } : object;
    }
    if (Array.isArray(object['Fn::GetAtt']) && Object.keys(object).length === 1) {
      const [id, attribute] = object['Fn::GetAtt'] as [string, string];
      return { 'Fn::GetAtt': [own.has(id) ? `${prefix}${id}` : id, attribute] };
    }
    return Object.fromEntries(
      Object.entries(object).map(([name, value]) => [name, name === 'DependsOn' ? [value].flat().map((id) => `${prefix}${id as string}`) : visit(value)]),
    );
  };
  return (resource: unknown) => visit(resource);
}
