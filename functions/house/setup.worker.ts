// Worker `houseSetup` (sandbox only), at every deploy (a CloudFormation custom resource; the local
// runtime runs it at every start): creates the house agents that do not exist and loads the house
// seller's catalog when it changed (house-catalog.json, built at synth from the demo catalog's
// generator: lib/house-catalog.ts). Answers CloudFormation at the request's response URL; a failure
// fails the deploy with its reason.
import type { CloudFormationCustomResourceEvent, Context } from 'aws-lambda';
import { config } from '../../shared/config.ts';
import { ensureHouseAgents } from '../../shared/domain/house-agents.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';
import { readBundledFile } from '../../shared/resources.ts';

config(); // fail fast at cold start

/** The custom resource's response (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/crpg-ref-responses.html). */
async function respond(event: CloudFormationCustomResourceEvent, context: Context, status: 'SUCCESS' | 'FAILED', reason: string, data: Record<string, unknown> = {}): Promise<void> {
  const body = JSON.stringify({
    Status: status,
    Reason: `${reason} (log stream ${context.logStreamName})`.slice(0, 1000),
    PhysicalResourceId: 'PhysicalResourceId' in event ? event.PhysicalResourceId : 'house-agents',
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: data,
  });
  // The URL is presigned for a PUT without a content type.
  const response = await fetch(event.ResponseURL, { method: 'PUT', body, headers: { 'content-type': '' } });
  if (!response.ok) throw new Error(`CloudFormation refused the response: ${response.status}`);
}

export const handler = workerHandler(async (event: CloudFormationCustomResourceEvent, context: Context): Promise<void> => {
  // Deleting the stack deletes the table and everything in it: the house agents have nothing to undo.
  if (event.RequestType === 'Delete') return respond(event, context, 'SUCCESS', 'Nothing to remove');
  try {
    const rows = JSON.parse(readBundledFile('house-catalog.json', import.meta.url)) as unknown[];
    const setup = await ensureHouseAgents(rows, new Date());
    logger.info('House agents ready', { ...setup, created: setup.created.length });
    await respond(event, context, 'SUCCESS', `House agents ready: catalog ${setup.catalog}, ${setup.products} products`, { products: setup.products });
  } catch (error) {
    logger.error('House agents could not be set up', { error: error as Error });
    await respond(event, context, 'FAILED', error instanceof Error ? error.message : String(error));
  }
});
