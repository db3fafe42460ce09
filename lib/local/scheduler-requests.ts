// CreateSchedule / UpdateSchedule input → a schedule the emulator can run, or the ValidationException
// the real service would answer with. Only one-time `at()` schedules with SQS targets are emulated.
import { LOCAL_ACCOUNT_ID, LOCAL_REGION, parseQueueArn } from './aws.ts';
import { isValidTimeZone, parseAtExpression } from './scheduler-expression.ts';
import type { ScheduleDescription, ScheduleTarget } from './scheduler-store.ts';

export const DEFAULT_GROUP = 'default';
const NAME_PATTERN = /^[0-9a-zA-Z-_.]{1,64}$/;

export class SchedulerApiError extends Error {
  readonly status: number;
  readonly type: string;

  constructor(status: number, type: string, message: string) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

export const invalid = (message: string) => new SchedulerApiError(400, 'ValidationException', message);
export const notFound = (message: string) => new SchedulerApiError(404, 'ResourceNotFoundException', message);
export const conflict = (message: string) => new SchedulerApiError(409, 'ConflictException', message);

export function validateName(name: string, what = 'Name'): string {
  if (!NAME_PATTERN.test(name)) throw invalid(`1 validation error detected: Value '${name}' at '${what}' failed to satisfy constraint: Member must satisfy regular expression pattern: [0-9a-zA-Z-_.]+`);
  return name;
}

export function scheduleArn(groupName: string, name: string): string {
  return `arn:aws:scheduler:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:schedule/${groupName}/${name}`;
}

function optionalString(body: Record<string, unknown>, member: string): string | undefined {
  const value = body[member];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(`${member} must be a string`);
  return value;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, member: string): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw invalid(`${member} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function parseTarget(value: unknown): ScheduleTarget {
  if (typeof value !== 'object' || value === null) throw invalid('Target is required');
  const target = value as Record<string, unknown>;
  const arn = optionalString(target, 'Arn');
  const roleArn = optionalString(target, 'RoleArn');
  if (!arn || !roleArn) throw invalid('Target.Arn and Target.RoleArn are required');
  if (!parseQueueArn(arn)) throw invalid(`The local scheduler delivers to SQS queues only; Target.Arn ${arn} is not an SQS queue ARN`);
  return {
    Arn: arn,
    RoleArn: roleArn,
    ...(typeof target.Input === 'string' ? { Input: target.Input } : {}),
    ...(typeof target.RetryPolicy === 'object' && target.RetryPolicy ? { RetryPolicy: target.RetryPolicy } : {}),
    ...(typeof target.DeadLetterConfig === 'object' && target.DeadLetterConfig ? { DeadLetterConfig: target.DeadLetterConfig } : {}),
    ...(typeof target.SqsParameters === 'object' && target.SqsParameters ? { SqsParameters: target.SqsParameters } : {}),
  };
}

/** A validated schedule and the instant it fires (epoch ms). */
export function parseScheduleInput(
  name: string,
  body: Record<string, unknown>,
  now: number,
  createdAt?: number,
): { schedule: ScheduleDescription; dueAt: number } {
  validateName(name);
  const groupName = validateName(optionalString(body, 'GroupName') ?? DEFAULT_GROUP, 'GroupName');
  const expression = optionalString(body, 'ScheduleExpression');
  if (!expression) throw invalid('ScheduleExpression is required');
  const timeZone = optionalString(body, 'ScheduleExpressionTimezone');
  if (timeZone !== undefined && !isValidTimeZone(timeZone)) throw invalid(`Invalid ScheduleExpressionTimezone: ${timeZone}`);
  if (!expression.startsWith('at(')) throw invalid(`The local scheduler emulates one-time at() schedules only, not ${expression}`);
  const dueAt = parseAtExpression(expression, timeZone ?? 'UTC');
  if (dueAt === undefined) throw invalid(`Invalid Schedule Expression ${expression}.`);

  const window = body.FlexibleTimeWindow as { Mode?: unknown; MaximumWindowInMinutes?: unknown } | undefined;
  if (typeof window !== 'object' || window === null) throw invalid('FlexibleTimeWindow is required');
  const mode = oneOf(typeof window.Mode === 'string' ? window.Mode : undefined, ['OFF', 'FLEXIBLE'] as const, 'OFF', 'FlexibleTimeWindow.Mode');
  const seconds = now / 1000;
  const description = optionalString(body, 'Description');
  const kmsKeyArn = optionalString(body, 'KmsKeyArn');
  return {
    dueAt,
    schedule: {
      Arn: scheduleArn(groupName, name),
      Name: name,
      GroupName: groupName,
      ScheduleExpression: expression,
      ...(timeZone ? { ScheduleExpressionTimezone: timeZone } : {}),
      ...(description ? { Description: description } : {}),
      State: oneOf(optionalString(body, 'State'), ['ENABLED', 'DISABLED'] as const, 'ENABLED', 'State'),
      CreationDate: createdAt ?? seconds,
      LastModificationDate: seconds,
      ...(typeof body.StartDate === 'number' ? { StartDate: body.StartDate } : {}),
      ...(typeof body.EndDate === 'number' ? { EndDate: body.EndDate } : {}),
      ...(kmsKeyArn ? { KmsKeyArn: kmsKeyArn } : {}),
      Target: parseTarget(body.Target),
      FlexibleTimeWindow: {
        Mode: mode,
        ...(typeof window.MaximumWindowInMinutes === 'number' ? { MaximumWindowInMinutes: window.MaximumWindowInMinutes } : {}),
      },
      ActionAfterCompletion: oneOf(optionalString(body, 'ActionAfterCompletion'), ['NONE', 'DELETE'] as const, 'NONE', 'ActionAfterCompletion'),
    },
  };
}
