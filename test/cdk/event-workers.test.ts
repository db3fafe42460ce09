// How the stack turns worker rows into functions, triggers and dead-letter destinations. Test-only rows
// (one per event-source trigger type) and a retry-scheduling grant exercise that code, cdk-nag included.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiFunction } from '../../lib/api-function.ts';
import { ENV } from '../../shared/resources.ts';
import type { WorkerDefinition } from '../../shared/workers.ts';
import { synthesizeStage, type SynthesizedStage } from './synth-stage.ts';

const feedWorker: WorkerDefinition = {
  id: 'processFeedUpload',
  handler: 'functions/health/get.ts', // any existing module: bundling is skipped in these tests
  description: 'Test row: processes uploaded feed files',
  trigger: { type: 's3', bucket: 'feeds', prefix: 'uploads/' },
  tableActions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
};
const deliveryWorker: WorkerDefinition = {
  id: 'deliverWebhooks',
  handler: 'functions/health/get.ts',
  description: 'Test row: delivers webhook events',
  trigger: { type: 'sqs', queue: 'delivery', batchSize: 7, maxReceiveCount: 4, visibilityTimeoutSeconds: 180, maxConcurrency: 3 },
  tableActions: ['dynamodb:Query', 'dynamodb:UpdateItem'],
};

const streamWorker: WorkerDefinition = {
  id: 'indexChanges',
  handler: 'functions/health/get.ts',
  description: 'Test row: reads product changes from the table stream',
  trigger: { type: 'stream', entities: ['product'], batchSize: 50 },
  tableActions: ['dynamodb:PutItem'],
};

let s: SynthesizedStage;
beforeAll(() => {
  s = synthesizeStage('test', {
    workers: [feedWorker, deliveryWorker, streamWorker],
    beforeSynth: (stack) => {
      stack.webhookDelivery.grantScheduleCreation(worker(stack.workers.functions, deliveryWorker.id));
      stack.webhookDelivery.grantSendToQueue(worker(stack.workers.functions, feedWorker.id));
    },
  });
}, 600_000); // a synth with cdk-nag can take a minute on a loaded machine

function worker(functions: ReadonlyMap<string, ApiFunction>, id: string): ApiFunction {
  const fn = functions.get(id);
  if (!fn) throw new Error(`no worker ${id}`);
  return fn;
}

/** Every statement of the role's inline policies and of the managed policies attached to it. */
function statementsOf(roleLogicalId: string): any[] {
  const managed = (s.resources[roleLogicalId]?.Properties?.ManagedPolicyArns ?? []).map((arn: any) => arn.Ref as string);
  return [
    ...Object.values(s.resources)
      .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: any) => role.Ref === roleLogicalId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement),
    ...managed.flatMap((id: string) => s.resources[id]?.Properties.PolicyDocument.Statement ?? []),
    ...(s.resources[roleLogicalId]?.Properties?.Policies ?? []).flatMap((policy: any) => policy.PolicyDocument.Statement),
  ];
}

describe('worker rows', () => {
  it('each row gets a Node 24 arm64 function with exactly its table actions', () => {
    for (const row of [feedWorker, deliveryWorker]) {
      const fn = worker(s.stack.workers.functions, row.id);
      const properties = s.resources[s.logicalId(fn.function)]?.Properties;
      expect(properties.Runtime).toBe('nodejs24.x');
      expect(properties.Architectures).toEqual(['arm64']);
      const tableStatements = statementsOf(s.logicalId(fn.role)).filter((statement) =>
        [statement.Action].flat().some((action: string) => action.startsWith('dynamodb:')),
      );
      expect(tableStatements).toHaveLength(1);
      expect([tableStatements[0].Action].flat().sort()).toEqual([...row.tableActions].sort());
    }
  });

  it('an s3 row is notified of new objects under its prefix and may read only those', () => {
    const fn = worker(s.stack.workers.functions, feedWorker.id);
    const bucketId = s.logicalId(s.stack.feeds.feedsBucket);
    s.template.hasResourceProperties('Custom::S3BucketNotifications', {
      BucketName: { Ref: bucketId },
      NotificationConfiguration: {
        LambdaFunctionConfigurations: [
          {
            Events: ['s3:ObjectCreated:*'],
            Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'uploads/' }] } },
            LambdaFunctionArn: { 'Fn::GetAtt': [s.logicalId(fn.function), 'Arn'] },
          },
        ],
      },
    });
    const s3Statements = statementsOf(s.logicalId(fn.role)).filter((statement) => String(statement.Action).startsWith('s3:'));
    expect(s3Statements).toEqual([
      { Action: 's3:GetObject', Effect: 'Allow', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/uploads/*']] } },
    ]);
    expect(s.resources[s.logicalId(fn.function)]?.Properties.Environment.Variables[ENV.feedsBucketName]).toEqual({ Ref: bucketId });
  });

  it('an sqs row consumes the delivery queue in batches, reporting item failures; the queue follows the row', () => {
    const fn = worker(s.stack.workers.functions, deliveryWorker.id);
    const { queue, deadLetterQueue } = s.stack.webhookDelivery;
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: s.logicalId(fn.function) },
      EventSourceArn: { 'Fn::GetAtt': [s.logicalId(queue), 'Arn'] },
      BatchSize: 7,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 3 },
    });
    const queueProperties = s.resources[s.logicalId(queue)]?.Properties;
    expect(queueProperties.VisibilityTimeout).toBe(180);
    expect(queueProperties.RedrivePolicy.maxReceiveCount).toBe(4);
    expect(queueProperties.RedrivePolicy.deadLetterTargetArn).toEqual({ 'Fn::GetAtt': [s.logicalId(deadLetterQueue), 'Arn'] });
    // A sixth of the visibility timeout, so that a message is not redelivered while its batch runs.
    expect(s.resources[s.logicalId(fn.function)]?.Properties.Timeout).toBe(30);
  });
});

describe('dead-letter destinations', () => {
  const failureQueueOf = (id: string) => {
    const queue = s.stack.workers.failureQueues.get(id);
    if (!queue) throw new Error(`no failure queue for ${id}`);
    return s.logicalId(queue);
  };

  it('a stream row bisects a failing batch, retries a record 10 times, then sends its failure record to the worker’s own queue', () => {
    const fn = worker(s.stack.workers.functions, streamWorker.id);
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: s.logicalId(fn.function) },
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failureQueueOf(streamWorker.id), 'Arn'] } } },
    });
    const queue = s.resources[failureQueueOf(streamWorker.id)]?.Properties;
    expect(queue.QueueName).toBe('agent-marketplace-test-indexChanges-failures');
    expect(queue.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    const sends = statementsOf(s.logicalId(fn.role)).filter((statement) => [statement.Action].flat().includes('sqs:SendMessage'));
    expect(sends.map((statement) => statement.Resource)).toContainEqual({ 'Fn::GetAtt': [failureQueueOf(streamWorker.id), 'Arn'] });
  });

  it('an s3 row’s failed asynchronous invocation goes to its own queue after 2 retries', () => {
    const fn = worker(s.stack.workers.functions, feedWorker.id);
    s.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: s.logicalId(fn.function) },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failureQueueOf(feedWorker.id), 'Arn'] } } },
    });
  });

  it('an sqs row has none of its own: its queue redrives to the delivery dead-letter queue', () => {
    expect([...s.stack.workers.failureQueues.keys()].sort()).toEqual([feedWorker.id, streamWorker.id].sort());
  });

  it('every worker dead-letter queue refuses requests without TLS, through one queue policy', () => {
    const workerPolicy = Object.values(s.resources).find(
      (resource) => resource.Type === 'AWS::SQS::QueuePolicy' && JSON.stringify(resource.Properties.Queues).includes(failureQueueOf(streamWorker.id)),
    );
    expect(workerPolicy?.Properties.Queues).toEqual([{ Ref: failureQueueOf(feedWorker.id) }, { Ref: failureQueueOf(streamWorker.id) }]);
    expect(workerPolicy?.Properties.PolicyDocument.Statement).toEqual([
      expect.objectContaining({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    ]);
  });

  it('an alarm tells the operators when any worker dead-letter queue holds a message, naming the workers', () => {
    const alarms = Object.values(s.resources).filter((resource) => resource.Type === 'AWS::CloudWatch::Alarm' && String(resource.Properties.AlarmDescription).includes('replay-dead-letters'));
    expect(alarms).toHaveLength(1);
    const alarm = alarms[0]!.Properties;
    expect(alarm.AlarmDescription).toContain(`Workers: ${feedWorker.id}, ${streamWorker.id}`);
    expect(alarm.Threshold).toBe(1);
    expect(alarm.AlarmActions).toEqual([{ Ref: s.logicalId(s.stack.alarms.topic) }]);
    const queues = alarm.Metrics.filter((metric: any) => metric.MetricStat).map((metric: any) => metric.MetricStat.Metric.Dimensions[0].Value);
    expect(queues).toEqual([
      { 'Fn::GetAtt': [failureQueueOf(feedWorker.id), 'QueueName'] },
      { 'Fn::GetAtt': [failureQueueOf(streamWorker.id), 'QueueName'] },
    ]);
  });
});

describe('grantScheduleCreation', () => {
  it('allows creating and deleting schedules of our group only, and passing the scheduler role to the scheduler only', () => {
    const fn = worker(s.stack.workers.functions, deliveryWorker.id);
    const { schedulerRole, queue } = s.stack.webhookDelivery;
    const statements = statementsOf(s.logicalId(fn.role));
    const scheduleStatement = statements.find((statement) => [statement.Action].flat().includes('scheduler:CreateSchedule'));
    expect([scheduleStatement.Action].flat().sort()).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']);
    expect(JSON.stringify(scheduleStatement.Resource)).toContain(':schedule/agent-marketplace-test/*');
    expect(statements.find((statement) => statement.Action === 'iam:PassRole')).toEqual({
      Action: 'iam:PassRole',
      Effect: 'Allow',
      Resource: { 'Fn::GetAtt': [s.logicalId(schedulerRole), 'Arn'] },
      Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
    });
    const variables = s.resources[s.logicalId(fn.function)]?.Properties.Environment.Variables;
    expect(variables[ENV.schedulerGroupName]).toBe('agent-marketplace-test');
    expect(variables[ENV.schedulerRoleArn]).toEqual({ 'Fn::GetAtt': [s.logicalId(schedulerRole), 'Arn'] });
    expect(variables[ENV.deliveryQueueArn]).toEqual({ 'Fn::GetAtt': [s.logicalId(queue), 'Arn'] });
  });
});

describe('grantSendToQueue', () => {
  it('allows sending to the delivery queue only, and tells the function its URL', () => {
    const fn = worker(s.stack.workers.functions, feedWorker.id);
    const queueId = s.logicalId(s.stack.webhookDelivery.queue);
    // Besides its own dead-letter queue (Lambda's on-failure destination sends as the function).
    const deliveryStatements = statementsOf(s.logicalId(fn.role)).filter((statement) => JSON.stringify(statement.Resource).includes(queueId));
    expect(deliveryStatements).toEqual([{ Action: 'sqs:SendMessage', Effect: 'Allow', Resource: { 'Fn::GetAtt': [queueId, 'Arn'] } }]);
    expect(s.resources[s.logicalId(fn.function)]?.Properties.Environment.Variables[ENV.deliveryQueueUrl]).toEqual({ Ref: queueId });
  });
});

describe('cdk-nag with workers', () => {
  it('passes, with the wildcards of the worker grants acknowledged one by one', () => {
    expect(s.validationReport.pluginReports.flatMap((report) => report.violations)).toEqual([]);
    const workerAcknowledgements = s.acknowledgements
      .filter((acknowledgement) => !acknowledgement.path.includes('/Api/') && !acknowledgement.path.endsWith('/FunctionTracingPolicy'))
      .map((acknowledgement) => acknowledgement.id)
      .filter((id) => !['AwsSolutions-APIG4', 'AwsSolutions-SMG4'].includes(id));
    expect(workerAcknowledgements.sort()).toEqual(
      [
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        `AwsSolutions-IAM5[Resource::<${s.logicalId(s.stack.feeds.feedsBucket)}.Arn>/uploads/*]`,
        'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/agent-marketplace-test/*]',
        'AwsSolutions-IAM5[Resource::*]', // dynamodb:ListStreams of the stream row
        'AwsSolutions-SQS3',
        'AwsSolutions-SQS3',
      ].sort(),
    );
  });
});
