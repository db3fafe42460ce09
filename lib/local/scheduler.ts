// EventBridge Scheduler, emulated wire-compatibly for one-time schedules: an HTTP server speaking
// the REST-JSON subset that @aws-sdk/client-scheduler uses (Create/Update/Get/Delete/ListSchedules),
// so application code runs unchanged with AWS_ENDPOINT_URL_SCHEDULER pointing here. At a schedule's
// time, Target.Input is sent to the SQS queue named by Target.Arn; then the schedule is deleted
// (ActionAfterCompletion DELETE) or kept as completed. Schedules persist under <dataDir>/scheduler,
// and an overdue one fires right after start.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseQueueArn } from './aws.ts';
import { LocalRuntimeError } from './errors.ts';
import { startPollingLoop } from './polling-loop.ts';
import { afterFailedDelivery, delayUntilNext, dueSchedules, RETRY_DELAY_MS } from './scheduler-due.ts';
import { DEFAULT_GROUP, SchedulerApiError, conflict, invalid, notFound, parseScheduleInput, validateName } from './scheduler-requests.ts';
import { ScheduleStore, type StoredSchedule } from './scheduler-store.ts';

export interface QueueDelivery {
  queueName: string;
  region: string;
  body: string;
  messageGroupId?: string;
}

export interface SchedulerEmulatorOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Sends one message to an SQS queue (the runtime uses fauxqs in-process). */
  sendToQueue: (delivery: QueueDelivery) => unknown;
  logError?: (message: string, error?: unknown) => void;
}

export interface SchedulerEmulator {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('error', reject);
    request.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      try {
        const parsed: unknown = JSON.parse(text);
        resolve(typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {});
      } catch {
        reject(invalid('The request body is not valid JSON'));
      }
    });
  });
}

function send(response: ServerResponse, status: number, body: unknown, errorType?: string): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  response.end(text);
}

/** ListSchedules: the schedules in a group, by name prefix and state, sorted, in pages of up to 100. */
function listSchedules(entries: readonly StoredSchedule[], query: URLSearchParams) {
  const group = query.get('ScheduleGroup');
  const prefix = query.get('NamePrefix') ?? '';
  const state = query.get('State');
  const maxResults = Math.min(Math.max(Number(query.get('MaxResults') ?? 100) || 100, 1), 100);
  const offset = Number(query.get('NextToken') ?? 0) || 0;
  const matching = entries
    .map((entry) => entry.schedule)
    .filter((schedule) => (!group || schedule.GroupName === group) && schedule.Name.startsWith(prefix) && (!state || schedule.State === state))
    .sort((a, b) => a.GroupName.localeCompare(b.GroupName) || a.Name.localeCompare(b.Name));
  const page = matching.slice(offset, offset + maxResults);
  return {
    Schedules: page.map((schedule) => ({
      Arn: schedule.Arn,
      Name: schedule.Name,
      GroupName: schedule.GroupName,
      State: schedule.State,
      CreationDate: schedule.CreationDate,
      LastModificationDate: schedule.LastModificationDate,
      Target: { Arn: schedule.Target.Arn },
    })),
    ...(offset + maxResults < matching.length ? { NextToken: String(offset + maxResults) } : {}),
  };
}

export async function startSchedulerEmulator(options: SchedulerEmulatorOptions): Promise<SchedulerEmulator> {
  const store = new ScheduleStore(join(options.dataDir, 'scheduler'));
  const logError = options.logError ?? ((message: string, error?: unknown) => console.error(message, error ?? ''));
  let stopped = false;

  function complete(entry: StoredSchedule): void {
    const { GroupName, Name } = entry.schedule;
    if (entry.schedule.ActionAfterCompletion === 'DELETE') store.delete(GroupName, Name);
    else store.put({ ...entry, completed: true, retryAt: undefined });
  }

  async function deliver(entry: StoredSchedule): Promise<void> {
    const target = entry.schedule.Target;
    const queue = parseQueueArn(target.Arn);
    try {
      if (!queue) throw new Error(`not an SQS queue ARN: ${target.Arn}`);
      await options.sendToQueue({
        queueName: queue.queueName,
        region: queue.region,
        body: target.Input ?? '{}',
        ...(target.SqsParameters?.MessageGroupId ? { messageGroupId: target.SqsParameters.MessageGroupId } : {}),
      });
    } catch (error) {
      const { GroupName, Name } = entry.schedule;
      if (store.get(GroupName, Name) !== entry) return; // changed or deleted meanwhile
      const next = afterFailedDelivery(entry, Date.now());
      if (next.action === 'give-up') {
        logError(`[scheduler] ${GroupName}/${Name}: giving up after ${next.attempts} failed deliveries to ${target.Arn}:`, error);
        complete(entry);
      } else {
        logError(`[scheduler] ${GroupName}/${Name}: delivery to ${target.Arn} failed; retrying in ${RETRY_DELAY_MS / 1000} s:`, error);
        store.put({ ...entry, failedAttempts: next.attempts, retryAt: next.retryAt });
      }
      return;
    }
    const { GroupName, Name } = entry.schedule;
    if (store.get(GroupName, Name) === entry) complete(entry);
  }

  /** Delivers what is due, then waits until the next due time (or a change: `loop.wake()`). */
  const loop = startPollingLoop({
    step: async () => {
      for (const entry of dueSchedules(store.all(), Date.now())) {
        if (stopped) break;
        await deliver(entry);
      }
    },
    nextDelay: () => delayUntilNext(store.all(), Date.now()),
    onError: (error) => logError('[scheduler] firing failed:', error),
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://scheduler');
    const method = request.method ?? 'GET';
    if (url.pathname === '/schedules' && method === 'GET') return send(response, 200, listSchedules(store.all(), url.searchParams));
    const match = /^\/schedules\/([^/]+)$/.exec(url.pathname);
    if (!match) throw new SchedulerApiError(404, 'UnknownOperationException', `The local scheduler does not implement ${method} ${url.pathname}`);
    const name = validateName(decodeURIComponent(match[1] as string));

    if (method === 'POST' || method === 'PUT') {
      const body = await readJson(request);
      const groupName = typeof body.GroupName === 'string' ? body.GroupName : DEFAULT_GROUP;
      const existing = store.get(groupName, name);
      if (method === 'POST' && existing) throw conflict(`Schedule ${name} already exists.`);
      if (method === 'PUT' && !existing) throw notFound(`Schedule ${name} does not exist.`);
      const { schedule, dueAt } = parseScheduleInput(name, body, Date.now(), existing?.schedule.CreationDate);
      store.put({ schedule, dueAt, completed: false, failedAttempts: 0 });
      loop.wake();
      return send(response, 200, { ScheduleArn: schedule.Arn });
    }
    const groupName = url.searchParams.get('groupName') ?? DEFAULT_GROUP;
    if (method === 'GET') {
      const entry = store.get(groupName, name);
      if (!entry) throw notFound(`Schedule ${name} does not exist.`);
      return send(response, 200, entry.schedule);
    }
    if (method === 'DELETE') {
      if (!store.delete(groupName, name)) throw notFound(`Schedule ${name} does not exist.`);
      loop.wake();
      return send(response, 200, {});
    }
    throw new SchedulerApiError(404, 'UnknownOperationException', `The local scheduler does not implement ${method} ${url.pathname}`);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (error instanceof SchedulerApiError) return send(response, error.status, { Message: error.message }, error.type);
      logError('[scheduler] request failed:', error);
      send(response, 500, { Message: 'Internal error in the local scheduler' }, 'InternalServerException');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new LocalRuntimeError(`Port ${options.port} (scheduler emulator) is already in use`) : error),
    );
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  loop.wake(); // overdue schedules from the last run fire now

  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      stopped = true;
      await loop.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
