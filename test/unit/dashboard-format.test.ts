// How the dashboard page writes counts, sizes, money and times (functions/dashboard/page/format.ts,
// bundled into the page; the browser tests see them in use), and that the page builds: its script
// bundled, inlined and allowed by its hash in the Content-Security-Policy.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { counted, formatMoney, humanSize, timeLeft } from '../../functions/dashboard/page/format.ts';
import { buildDashboardPage } from '../../lib/dashboard-page.ts';

describe('the dashboard’s words', () => {
  it('writes sizes in human units and counts in proper plurals', () => {
    expect([0, 1, 2, 1023, 1024, 1536, 10_240, 400_000, 5 * 1024 * 1024].map(humanSize)).toEqual([
      '0 bytes', '1 byte', '2 bytes', '1,023 bytes', '1.0 KiB', '1.5 KiB', '10 KiB', '391 KiB', '5.0 MiB',
    ]);
    expect([0, 1, 3, 1200].map((n) => counted(n, 'delivery', 'deliveries'))).toEqual(['0 deliveries', '1 delivery', '3 deliveries', '1,200 deliveries']);
  });

  it('writes money in the currency’s own minor unit', () => {
    // A no-break space keeps amount and currency on one line.
    expect(formatMoney({ amount: 30000, currency: 'EUR' })).toBe('300.00\u00a0EUR');
    expect(formatMoney({ amount: 123456789, currency: 'USD' })).toBe('1,234,567.89\u00a0USD');
    expect(formatMoney({ amount: 1500, currency: 'JPY' })).toBe('1,500\u00a0JPY');
    expect(formatMoney({ amount: 1500, currency: 'BHD' })).toBe('1.500\u00a0BHD');
  });

  it('says how long an approval has left', () => {
    const now = Date.parse('2026-11-23T09:00:00.000Z');
    expect(timeLeft('2026-11-26T09:00:00.000Z', now)).toBe('in 72 h');
    expect(timeLeft('2026-11-23T11:05:00.000Z', now)).toBe('in 2 h 5 min');
    expect(timeLeft('2026-11-23T09:10:00.000Z', now)).toBe('in 10 min');
    expect(timeLeft('2026-11-23T09:00:40.000Z', now)).toBe('in 40 s');
    expect(timeLeft('2026-11-23T08:59:00.000Z', now)).toBe('expired');
  });
});

describe('the dashboard page', () => {
  it('inlines its bundled script and its style, each allowed by its hash and nothing else', () => {
    const { html, contentSecurityPolicy } = buildDashboardPage();
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    expect(script.length).toBeGreaterThan(1000);
    expect(script).not.toContain('import ');
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    expect(contentSecurityPolicy).toContain(`script-src ${sha(script)}`);
    expect(contentSecurityPolicy).toContain(`style-src ${sha(style)}`);
    expect(contentSecurityPolicy).not.toContain('unsafe-inline');
    expect(html).not.toContain('{{');
  });
});
