// A scheduled worker's local interval (lib/local/schedules.ts): its rule's interval, capped by
// LOCAL_SCHEDULE_SECONDS so that sweeps act within seconds on a laptop, and never under 100 ms.
import { afterEach, describe, expect, it } from 'vitest';
import { localScheduleIntervalMs } from '../../lib/local/schedules.ts';

const saved = process.env.LOCAL_SCHEDULE_SECONDS;
afterEach(() => {
  if (saved === undefined) delete process.env.LOCAL_SCHEDULE_SECONDS;
  else process.env.LOCAL_SCHEDULE_SECONDS = saved;
});

describe('localScheduleIntervalMs', () => {
  it('caps the rule’s interval at LOCAL_SCHEDULE_SECONDS (default 5 s)', () => {
    delete process.env.LOCAL_SCHEDULE_SECONDS;
    expect(localScheduleIntervalMs(1)).toBe(5_000);
    expect(localScheduleIntervalMs(5)).toBe(5_000);
    process.env.LOCAL_SCHEDULE_SECONDS = '120';
    expect(localScheduleIntervalMs(1)).toBe(60_000);
    expect(localScheduleIntervalMs(5)).toBe(120_000);
  });

  it('never runs a worker more often than every 100 ms', () => {
    process.env.LOCAL_SCHEDULE_SECONDS = '0.01';
    expect(localScheduleIntervalMs(1)).toBe(100);
  });
});
