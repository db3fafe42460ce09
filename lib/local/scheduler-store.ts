// The scheduler emulator's schedules, kept in memory and written through to one JSON file
// (<dataDir>/scheduler/schedules.json, replaced atomically) so pending schedules survive a restart.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A schedule as the Scheduler API describes it (GetSchedule's output members). */
export interface ScheduleDescription {
  Arn: string;
  Name: string;
  GroupName: string;
  ScheduleExpression: string;
  ScheduleExpressionTimezone?: string;
  Description?: string;
  State: 'ENABLED' | 'DISABLED';
  /** Epoch seconds, as the REST-JSON protocol sends timestamps. */
  CreationDate: number;
  LastModificationDate: number;
  StartDate?: number;
  EndDate?: number;
  KmsKeyArn?: string;
  Target: ScheduleTarget;
  FlexibleTimeWindow: { Mode: 'OFF' | 'FLEXIBLE'; MaximumWindowInMinutes?: number };
  ActionAfterCompletion: 'NONE' | 'DELETE';
}

export interface ScheduleTarget {
  Arn: string;
  RoleArn: string;
  Input?: string;
  RetryPolicy?: { MaximumEventAgeInSeconds?: number; MaximumRetryAttempts?: number };
  DeadLetterConfig?: { Arn?: string };
  SqsParameters?: { MessageGroupId?: string };
}

export interface StoredSchedule {
  schedule: ScheduleDescription;
  /** When it fires, epoch ms. */
  dueAt: number;
  /** Fired (or given up) and kept, because ActionAfterCompletion is NONE. */
  completed: boolean;
  failedAttempts: number;
  /** After a failed delivery: when to try again, epoch ms. */
  retryAt?: number;
}

const FILE_NAME = 'schedules.json';

export class ScheduleStore {
  private readonly directory: string;
  private readonly entries = new Map<string, StoredSchedule>();

  constructor(directory: string) {
    this.directory = directory;
    mkdirSync(directory, { recursive: true });
    let saved: StoredSchedule[] = [];
    try {
      saved = (JSON.parse(readFileSync(join(directory, FILE_NAME), 'utf8')) as { schedules: StoredSchedule[] }).schedules;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const entry of saved) this.entries.set(ScheduleStore.key(entry.schedule.GroupName, entry.schedule.Name), entry);
  }

  static key(groupName: string, name: string): string {
    return `${groupName}/${name}`;
  }

  get(groupName: string, name: string): StoredSchedule | undefined {
    return this.entries.get(ScheduleStore.key(groupName, name));
  }

  all(): StoredSchedule[] {
    return [...this.entries.values()];
  }

  put(entry: StoredSchedule): void {
    this.entries.set(ScheduleStore.key(entry.schedule.GroupName, entry.schedule.Name), entry);
    this.save();
  }

  delete(groupName: string, name: string): boolean {
    const deleted = this.entries.delete(ScheduleStore.key(groupName, name));
    if (deleted) this.save();
    return deleted;
  }

  /** Write a temporary file, then rename it over the old one: a crash never leaves half a file. */
  save(): void {
    const file = join(this.directory, FILE_NAME);
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ schedules: this.all() }, null, 2)}\n`);
    renameSync(temporary, file);
  }
}
