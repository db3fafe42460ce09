// The CDK app: one stack per run, the stage chosen with `-c stage=test|live` (default: the sandbox).
//   npx cdk synth -c stage=live      npx cdk deploy -c stage=test      npm run synth (both, offline)
// cdk-nag's AwsSolutions checks run at every synth; an unacknowledged finding fails it.
import { App } from 'aws-cdk-lib';
import { resourceNames } from '../shared/resources.ts';
import { addComplianceChecks } from '../lib/compliance.ts';
import { MarketplaceStack } from '../lib/marketplace-stack.ts';
import { parseStage } from '../lib/stage-settings.ts';

const app = new App();
const stage = parseStage(app.node.tryGetContext('stage'));

new MarketplaceStack(app, resourceNames(stage).stackName, {
  stage,
  description: `Agent Marketplace (${stage === 'live' ? 'production' : 'sandbox'}): API, table, feeds, webhook delivery`,
  // Account and region come from the deploying credentials; synth needs neither.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
addComplianceChecks(app);

app.synth();
