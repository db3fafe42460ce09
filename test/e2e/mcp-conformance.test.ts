// The MCP project's own conformance suite (@modelcontextprotocol/conformance, `conformance server`)
// against POST /mcp of the local runtime: the server scenarios that apply to a stateless server of
// tools pass — initialize, ping, tools/list and DNS-rebinding protection —, and every other scenario
// of the suite is excluded by name, with the reason (docs/decisions/mcp-sdk-server.md), so that a new
// one in a later version of the suite must be classified here.
//
// The suite's client sends no credentials (it has no option for headers), so it reaches the runtime
// through a proxy that adds the agent's key, as an MCP host holding the key would; the proxy passes
// every other header (Host and Origin included) as the suite sent it. The suite needs Node 22 or
// later: it runs on the node@24 development dependency.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { registerAgent } from '../support/http-client.ts';
import { REPOSITORY_ROOT } from '../support/mcp.ts';
import { newClient } from '../support/runtime.ts';

const NODE_24 = path.join(REPOSITORY_ROOT, 'node_modules', '.bin', 'node');
const CONFORMANCE = path.join(REPOSITORY_ROOT, 'node_modules', '.bin', 'conformance');

/** The scenarios that apply to a stateless MCP server of tools, and the checks each must pass. */
const APPLICABLE: Record<string, string[]> = {
  'server-initialize': ['server-initialize'],
  ping: ['ping'],
  'tools-list': ['tools-list'],
  'dns-rebinding-protection': ['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted'],
};

/** Every other server scenario of the suite, and why it does not apply (each asks for a capability or a test fixture this server does not have). */
const EXCLUDED: Record<string, string> = {
  'logging-set-level': 'no logging capability: tool errors are results, the platform logs go to CloudWatch',
  'completion-complete': 'no prompts or resource templates, so nothing to complete',
  'tools-call-simple-text': 'calls the suite’s fixture tool test_simple_text; our tools are the marketplace’s (test/e2e/mcp.test.ts calls every one)',
  'tools-call-image': 'a fixture tool returning an image; our tools return JSON data',
  'tools-call-audio': 'a fixture tool returning audio',
  'tools-call-embedded-resource': 'a fixture tool returning an embedded resource; this server has no resources',
  'tools-call-mixed-content': 'a fixture tool returning mixed content',
  'tools-call-with-logging': 'log notifications during a call need a stream: answers here are one JSON body',
  'tools-call-error': 'a fixture tool; our errors are isError results with the API’s error (test/e2e/mcp.test.ts)',
  'tools-call-with-progress': 'progress notifications need a stream: answers here are one JSON body',
  'tools-call-sampling': 'a server-to-client request (sampling) needs a session or a stream; this server is stateless and asks clients for nothing',
  'tools-call-elicitation': 'a server-to-client request (elicitation): stateless, it asks clients for nothing',
  'json-schema-2020-12': 'a fixture tool with a 2020-12 schema; our tools’ schemas are draft-07, as the MCP SDK writes them',
  'elicitation-sep1034-defaults': 'elicitation: stateless, it asks clients for nothing',
  'elicitation-sep1330-enums': 'elicitation: stateless, it asks clients for nothing',
  'server-sse-polling': 'SSE streams and resumption: stateless, it answers every POST with one JSON body and offers no GET stream (405)',
  'server-sse-multiple-streams': 'SSE streams: stateless, no sessions and no GET stream',
  'resources-list': 'no resources: the marketplace is reached through tools',
  'resources-read-text': 'no resources',
  'resources-read-binary': 'no resources',
  'resources-templates-read': 'no resources',
  'resources-subscribe': 'no resources, and subscriptions need a session',
  'resources-unsubscribe': 'no resources, and subscriptions need a session',
  'prompts-list': 'no prompts: the server’s instructions say how to use the tools',
  'prompts-get-simple': 'no prompts',
  'prompts-get-with-args': 'no prompts',
  'prompts-get-embedded-resource': 'no prompts',
  'prompts-get-with-image': 'no prompts',
};

interface Check {
  id: string;
  /** SUCCESS, FAILURE, WARNING or INFO. */
  status: string;
  description: string;
  errorMessage?: string;
  details?: { statusCode?: number; body?: unknown };
}

const run = promisify(execFile);
const conformance = (args: string[]) => run(NODE_24, [CONFORMANCE, ...args], { cwd: REPOSITORY_ROOT, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });

let proxy: Server;
let mcpUrl: string;
const outDir = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'));

beforeAll(async () => {
  const target = new URL(inject('baseUrl'));
  const { apiKey } = await registerAgent(newClient(), { role: 'buyer' });
  proxy = createServer((incoming, outgoing) => {
    const forwarded = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, authorization: `Bearer ${apiKey}` } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error) => outgoing.destroy(error));
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  mcpUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  rmSync(outDir, { recursive: true, force: true });
});

/** One scenario's checks, from the file the suite writes, and its own summary line. */
async function runScenario(scenario: string): Promise<{ checks: Check[]; summary: string }> {
  const dir = path.join(outDir, scenario);
  const { stdout } = await conformance(['server', '--url', mcpUrl, '--scenario', scenario, '-o', dir]).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`conformance ${scenario} failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  const [resultDir] = readdirSync(dir);
  const checks = JSON.parse(readFileSync(path.join(dir, resultDir as string, 'checks.json'), 'utf8')) as Check[];
  return { checks, summary: stdout.split('\n').find((line) => line.startsWith('Passed:')) ?? '' };
}

describe('the MCP conformance suite (server scenarios) against POST /mcp', () => {
  it('offers no server scenario this test has not classified as applicable or excluded', async () => {
    const { stdout } = await conformance(['list', '--server']);
    const offered = [...stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1] as string);
    expect(offered.length).toBeGreaterThan(4);
    expect(offered.filter((scenario) => !(scenario in APPLICABLE) && !(scenario in EXCLUDED))).toEqual([]);
    expect([...Object.keys(APPLICABLE), ...Object.keys(EXCLUDED)].filter((scenario) => !offered.includes(scenario))).toEqual([]);
    console.log(`conformance: excluded (not applicable to a stateless server of tools): ${Object.keys(EXCLUDED).join(', ')}`);
  });

  it('passes initialize, ping, tools-list and DNS-rebinding protection', { timeout: 300_000 }, async () => {
    const results: string[] = [];
    for (const [scenario, expected] of Object.entries(APPLICABLE)) {
      const { checks, summary } = await runScenario(scenario);
      results.push(`${scenario}: ${summary} (${checks.filter((check) => check.status === 'SUCCESS').map((check) => check.id).join(', ')})`);
      const failed = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
      expect(failed.map((check) => `${check.id}: ${check.errorMessage ?? check.description}`), scenario).toEqual([]);
      expect(checks.filter((check) => check.status === 'SUCCESS').map((check) => check.id).sort(), scenario).toEqual([...expected].sort());
      // The page of another site is refused by the Origin and Host check (403), not by the key check the proxy satisfies.
      const rebinding = checks.find((check) => check.id === 'localhost-host-rebinding-rejected');
      if (rebinding) expect(rebinding.details).toMatchObject({ statusCode: 403, body: { jsonrpc: '2.0', error: { code: -32000 }, id: null } });
    }
    console.log(`conformance (@modelcontextprotocol/conformance server, through ${mcpUrl}):\n  ${results.join('\n  ')}`);
  });
});
