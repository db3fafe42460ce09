// Synthesizes one stage the way bin/app.ts does (cdk.json's context, cdk-nag's AwsSolutions checks,
// which throw on an unacknowledged finding) but without bundling: esbuild would run once per function
// and the templates do not depend on the bundles' contents. Each test file synthesizes once.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, CfnElement, Validations, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { addComplianceChecks } from '../../lib/compliance.ts';
import { REPOSITORY_ROOT } from '../../lib/api-function.ts';
import { MarketplaceStack, type MarketplaceStackProps } from '../../lib/marketplace-stack.ts';
import { resourceNames, type Stage } from '../../shared/resources.ts';

export interface SynthesizedStage {
  stack: MarketplaceStack;
  template: Template;
  /** Resources of the template by logical id. */
  resources: Record<string, { Type: string; Properties?: any; DependsOn?: string[]; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;
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
    return {
      stack,
      template: Template.fromJSON(templateJson),
      resources: templateJson.Resources,
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

function logicalIdOf(stack: Stack, construct: IConstruct): string {
  const element = CfnElement.isCfnElement(construct) ? construct : construct.node.defaultChild;
  if (!element || !CfnElement.isCfnElement(element)) throw new Error(`${construct.node.path} has no CloudFormation resource`);
  return stack.resolve(element.logicalId) as string;
}
