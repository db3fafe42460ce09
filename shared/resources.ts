// Names of the stack's resources and the environment variables that carry them to functions.
// The CDK stack sets these on every function; the local runtime sets the same ones for its handlers.

export const ENV = {
  stage: 'STAGE',
  tableName: 'TABLE_NAME',
  cursorSigningKey: 'CURSOR_SIGNING_KEY',
  allowPrivateWebhookUrls: 'ALLOW_PRIVATE_WEBHOOK_URLS',
  feedsBucketName: 'FEEDS_BUCKET_NAME',
  deliveryQueueUrl: 'DELIVERY_QUEUE_URL',
  deliveryQueueArn: 'DELIVERY_QUEUE_ARN',
  schedulerGroupName: 'SCHEDULER_GROUP_NAME',
  schedulerRoleArn: 'SCHEDULER_ROLE_ARN',
  logLevel: 'LOG_LEVEL',
} as const;

export type Stage = 'test' | 'live';

/** Physical names, fixed per stage so that operators and the admin command can find them. */
export function resourceNames(stage: Stage) {
  return {
    stackName: `AgentMarketplace-${stage}`,
    tableName: `agent-marketplace-${stage}`,
    deliveryQueueName: `agent-marketplace-${stage}-webhook-delivery`,
    deliveryDlqName: `agent-marketplace-${stage}-webhook-delivery-dlq`,
    schedulerGroupName: `agent-marketplace-${stage}`,
  };
}

/** The local runtime is a sandbox stack on one machine. */
export const LOCAL = {
  stage: 'test' as Stage,
  region: 'us-east-1',
  feedsBucketName: 'agent-marketplace-local-feeds',
  ...resourceNames('test'),
};
