/// <reference lib="dom" />
// How the dashboard writes counts, sizes, durations, money and times for people. Pure functions,
// unit-tested in Node (test/unit/dashboard-format.test.ts) and bundled into the page.

/** "1 delivery", "3 deliveries". */
export function counted(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** A byte count as people read it: "412 bytes", "1.5 KiB", "391 KiB", "5.0 MiB". */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return counted(bytes, 'byte', 'bytes');
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')} ${units[unit] ?? ''}`;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Money from the API (an integer in the currency's minor unit) as people read it, on one line: 30000 EUR → "300.00 EUR", 1500 JPY → "1,500 JPY". */
export function formatMoney(money: { amount: number; currency: string }): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en-US', { style: 'currency', currency: money.currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown code: two decimals, as most currencies have.
  }
  const major = (money.amount / 10 ** digits).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${major}\u00a0${money.currency}`;
}

/** How long until `at`, coarsely: "in 2 h 5 min", "in 40 s", "expired". */
export function timeLeft(at: string, nowMs: number): string {
  const seconds = Math.round((Date.parse(at) - nowMs) / 1000);
  if (seconds <= 0) return 'expired';
  if (seconds < 60) return `in ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `in ${hours} h` : `in ${hours} h ${minutes % 60} min`;
}
