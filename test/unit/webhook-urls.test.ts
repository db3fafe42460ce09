import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isForbiddenAddress } from '../../shared/domain/webhook-urls.ts';

const deployed = { requireHttps: false, allowPrivateAddresses: false };
const production = { requireHttps: true, allowPrivateAddresses: false };
const local = { requireHttps: false, allowPrivateAddresses: true };
const resolveTo = (...addresses: string[]) => () => Promise.resolve(addresses);

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '169.254.1.1',
    '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '224.0.0.1',
  ])('refuses %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])('allows %s', (address) =>
    expect(isForbiddenAddress(address)).toBe(false),
  );
});

describe('checkWebhookUrl', () => {
  it('requires https in production only', async () => {
    expect(await checkWebhookUrl('http://hooks.example.com/x', production, 'url', resolveTo('93.184.216.34'))).toEqual([
      { path: 'url', message: 'Must use https in production' },
    ]);
    expect(await checkWebhookUrl('http://hooks.example.com/x', deployed, 'url', resolveTo('93.184.216.34'))).toEqual([]);
    expect(await checkWebhookUrl('https://hooks.example.com/x', production, 'url', resolveTo('93.184.216.34'))).toEqual([]);
  });

  it('refuses hosts that resolve to private, loopback or metadata addresses in deployed stacks', async () => {
    for (const url of ['https://127.0.0.1/x', 'https://[::1]/x', 'https://169.254.169.254/latest/meta-data', 'https://10.0.0.5/x']) {
      const problems = await checkWebhookUrl(url, production, 'url', resolveTo());
      expect(problems).toHaveLength(1);
      expect(problems[0]?.message).toContain('private');
    }
    const rebinding = await checkWebhookUrl('https://evil.example/x', production, 'url', resolveTo('93.184.216.34', '10.0.0.1'));
    expect(rebinding[0]?.path).toBe('url');
  });

  it('refuses hosts that do not resolve, and URLs with credentials', async () => {
    const failing = () => Promise.reject(new Error('ENOTFOUND'));
    expect((await checkWebhookUrl('https://nowhere.invalid/x', production, 'url', failing))[0]?.message).toContain('does not resolve');
    expect((await checkWebhookUrl('https://user:pw@hooks.example.com/x', production, 'url', resolveTo('93.184.216.34')))[0]?.message).toContain(
      'credentials',
    );
  });

  it('lets the local runtime call anything on http', async () => {
    expect(await checkWebhookUrl('http://localhost:8080/x', local, 'url', resolveTo('127.0.0.1'))).toEqual([]);
    expect(await checkWebhookUrl('http://10.0.0.5/x', local)).toEqual([]);
  });
});
