// EventBridge Scheduler one-time expressions: `at(yyyy-mm-ddThh:mm:ss)`, a wall-clock time in the
// schedule's time zone (UTC unless ScheduleExpressionTimezone names an IANA zone).

const AT_EXPRESSION = /^at\((\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\)$/;

/** Minutes to add to UTC to get the zone's wall clock at `epochMs`. */
function zoneOffsetMinutes(timeZone: string, epochMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(epochMs));
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const wallClock = Date.UTC(value('year'), value('month') - 1, value('day'), value('hour'), value('minute'), value('second'));
  return Math.round((wallClock - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The instant an `at()` expression names, in epoch ms; undefined when it is not a valid `at()`. */
export function parseAtExpression(expression: string, timeZone = 'UTC'): number | undefined {
  const match = AT_EXPRESSION.exec(expression.trim());
  if (!match || !isValidTimeZone(timeZone)) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  // Two passes settle the offset around daylight-saving changes.
  let instant = asUtc - zoneOffsetMinutes(timeZone, asUtc) * 60_000;
  instant = asUtc - zoneOffsetMinutes(timeZone, instant) * 60_000;
  return instant;
}

/** `at(...)` for an instant, in UTC (what application code typically writes). */
export function atExpression(epochMs: number): string {
  return `at(${new Date(epochMs).toISOString().slice(0, 19)})`;
}
