// The EventBridge Scheduler emulator, driven by the real SchedulerClient: one-time schedules deliver
// their input to SQS at their time, errors are the SDK's own exception types, and pending
// schedules survive a restart (an overdue one fires right after it).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  GetScheduleCommand,
  ListSchedulesCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
  ValidationException,
  type CreateScheduleCommandInput,
} from '@aws-sdk/client-scheduler';
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localClientConfig, localQueueArn, localQueueUrl } from '../../lib/local/aws.ts';
import { startLocalFauxqs } from '../../lib/local/fauxqs.ts';
import { atExpression, parseAtExpression } from '../../lib/local/scheduler-expression.ts';
import { startSchedulerEmulator } from '../../lib/local/scheduler.ts';

const env = inject('env');

/** A schedule input for `at(dueAt)` that sends `input` to `queueName`. */
function oneTimeSchedule(name: string, queueName: string, dueAt: number, input: string, extra: Partial<CreateScheduleCommandInput> = {}): CreateScheduleCommandInput {
  return {
    Name: name,
    GroupName: env.SCHEDULER_GROUP_NAME,
    ScheduleExpression: atExpression(dueAt),
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' },
    Target: { Arn: localQueueArn(queueName), RoleArn: env.SCHEDULER_ROLE_ARN as string, Input: input },
    ActionAfterCompletion: 'DELETE',
    ...extra,
  };
}

/** The next whole second at least `delayMs` from now (`at()` has second precision). */
function secondsFromNow(delayMs: number): number {
  return Math.ceil((Date.now() + delayMs) / 1000) * 1000;
}

async function receiveOne(sqs: SQSClient, queueUrl: string, timeoutMs: number): Promise<{ body: string; at: number }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1 }));
    const message = received.Messages?.[0];
    if (message) return { body: message.Body ?? '', at: Date.now() };
  }
  throw new Error(`no message on ${queueUrl} within ${timeoutMs} ms`);
}

describe('at() expressions', () => {
  it('are wall-clock times in the schedule’s time zone', () => {
    expect(parseAtExpression('at(2026-07-01T12:00:00)')).toBe(Date.parse('2026-07-01T12:00:00Z'));
    expect(parseAtExpression('at(2026-07-01T12:00:00)', 'Europe/Berlin')).toBe(Date.parse('2026-07-01T10:00:00Z'));
    expect(parseAtExpression('at(2026-01-15T08:30:00)', 'America/New_York')).toBe(Date.parse('2026-01-15T13:30:00Z'));
    expect(parseAtExpression('at(2026-02-30T00:00:00)')).toBeUndefined();
    expect(parseAtExpression('rate(5 minutes)')).toBeUndefined();
  });
});

describe('against the runtime of this test run', () => {
  // Configured only by the environment, as application code is.
  const scheduler = new SchedulerClient({});
  const sqs = new SQSClient({});
  const queueName = `scheduler-test-${process.pid}`;
  const queueUrl = localQueueUrl(env.AWS_ENDPOINT_URL_SQS as string, queueName);

  beforeAll(async () => {
    await sqs.send(new CreateQueueCommand({ QueueName: queueName }));
  });
  afterAll(() => {
    scheduler.destroy();
    sqs.destroy();
  });

  it('delivers the input to the target queue at the schedule’s time, then deletes the schedule', async () => {
    const name = `fires-${process.pid}`;
    const dueAt = secondsFromNow(2_000);
    const created = await scheduler.send(new CreateScheduleCommand(oneTimeSchedule(name, queueName, dueAt, '{"kind":"offer.expire","offerId":"ofr_1"}')));
    expect(created.ScheduleArn).toBe(`arn:aws:scheduler:us-east-1:000000000000:schedule/${env.SCHEDULER_GROUP_NAME}/${name}`);

    const described = await scheduler.send(new GetScheduleCommand({ Name: name, GroupName: env.SCHEDULER_GROUP_NAME }));
    expect(described).toMatchObject({
      Name: name,
      GroupName: env.SCHEDULER_GROUP_NAME,
      ScheduleExpression: atExpression(dueAt),
      State: 'ENABLED',
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: localQueueArn(queueName), Input: '{"kind":"offer.expire","offerId":"ofr_1"}' },
      FlexibleTimeWindow: { Mode: 'OFF' },
    });
    expect(described.CreationDate).toBeInstanceOf(Date);
    const listed = await scheduler.send(new ListSchedulesCommand({ GroupName: env.SCHEDULER_GROUP_NAME, NamePrefix: name }));
    expect(listed.Schedules?.map((schedule) => schedule.Name)).toEqual([name]);

    const message = await receiveOne(sqs, queueUrl, 30_000);
    expect(message.body).toBe('{"kind":"offer.expire","offerId":"ofr_1"}');
    expect(message.at).toBeGreaterThanOrEqual(dueAt - 50);
    // On its timer, not on a later sweep (AWS's minute, say); the margin is for a busy machine.
    expect(message.at).toBeLessThan(dueAt + 10_000);
    await expect(scheduler.send(new GetScheduleCommand({ Name: name, GroupName: env.SCHEDULER_GROUP_NAME }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
  });

  it('answers with the exceptions the SDK knows', async () => {
    const name = `errors-${process.pid}`;
    const input = oneTimeSchedule(name, queueName, Date.now() + 3_600_000, '{}');
    await scheduler.send(new CreateScheduleCommand(input));
    const duplicate = scheduler.send(new CreateScheduleCommand(input));
    await expect(duplicate).rejects.toBeInstanceOf(ConflictException);
    await expect(duplicate).rejects.toMatchObject({ $metadata: { httpStatusCode: 409 } });
    await expect(scheduler.send(new GetScheduleCommand({ Name: 'no-such-schedule', GroupName: env.SCHEDULER_GROUP_NAME }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
    await expect(scheduler.send(new UpdateScheduleCommand({ ...input, Name: 'no-such-schedule' }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    await expect(scheduler.send(new CreateScheduleCommand({ ...input, Name: `${name}-rate`, ScheduleExpression: 'rate(5 minutes)' }))).rejects.toBeInstanceOf(
      ValidationException,
    );
    await expect(
      scheduler.send(new CreateScheduleCommand({ ...input, Name: `${name}-lambda`, Target: { Arn: 'arn:aws:lambda:us-east-1:000000000000:function:x', RoleArn: 'r' } })),
    ).rejects.toBeInstanceOf(ValidationException);

    await scheduler.send(new DeleteScheduleCommand({ Name: name, GroupName: env.SCHEDULER_GROUP_NAME }));
    await expect(scheduler.send(new DeleteScheduleCommand({ Name: name, GroupName: env.SCHEDULER_GROUP_NAME }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
  });
});

describe('persistence', () => {
  it('keeps pending schedules across a restart and fires an overdue one right after it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scheduler-'));
    const fauxqs = await startLocalFauxqs({ dataDir });
    const sendToQueue = ({ queueName, body }: { queueName: string; body: string }) => fauxqs.server.sendMessage(queueName, body);
    const sqs = new SQSClient(localClientConfig(fauxqs.endpoint));
    const queueName = 'restart-test';
    fauxqs.server.createQueue(queueName);
    const queueUrl = localQueueUrl(fauxqs.endpoint, queueName);
    try {
      const first = await startSchedulerEmulator({ dataDir, sendToQueue });
      const client = new SchedulerClient(localClientConfig(first.endpoint));
      const overdueAt = secondsFromNow(1_000);
      const laterAt = overdueAt + 2_000;
      await client.send(new CreateScheduleCommand(oneTimeSchedule('overdue', queueName, overdueAt, 'overdue', { ActionAfterCompletion: 'NONE' })));
      await client.send(new CreateScheduleCommand(oneTimeSchedule('later', queueName, laterAt, 'later')));
      client.destroy();
      await first.stop();
      expect(existsSync(join(dataDir, 'scheduler', 'schedules.json'))).toBe(true);

      await new Promise((resolve) => setTimeout(resolve, overdueAt - Date.now() + 300)); // down while it was due
      const second = await startSchedulerEmulator({ dataDir, sendToQueue });
      try {
        // The overdue schedule fires at the restart, not never and not after the later one.
        const overdue = await receiveOne(sqs, queueUrl, 30_000);
        expect(overdue.body).toBe('overdue');
        const later = await receiveOne(sqs, queueUrl, 30_000);
        expect(later.body).toBe('later');
        expect(later.at).toBeGreaterThanOrEqual(laterAt - 50);

        const restartedClient = new SchedulerClient(localClientConfig(second.endpoint));
        // ActionAfterCompletion NONE keeps the fired schedule; DELETE removed the other.
        const remaining = await restartedClient.send(new ListSchedulesCommand({}));
        expect(remaining.Schedules?.map((schedule) => schedule.Name)).toEqual(['overdue']);
        restartedClient.destroy();
      } finally {
        await second.stop();
      }
    } finally {
      sqs.destroy();
      await fauxqs.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
