// The MCP tool table's rules of who may call which tool (functions/mcp/tool-table.ts): the role, the
// key's scopes (the pipeline's own rule) and the sandbox's tools for test keys only.
import { describe, expect, it } from 'vitest';
import { TOOLS, isSandboxTool, refusalOf, toolNamed, toolsFor } from '../../functions/mcp/tool-table.ts';

const names = (caller: Parameters<typeof toolsFor>[0]) => toolsFor(caller).map((tool) => tool.name);

describe('the MCP tool table', () => {
  it('lists the sandbox’s tools (routes of the test stage only) to test keys only', () => {
    const sandboxTools = TOOLS.filter(isSandboxTool).map((tool) => tool.name).sort();
    expect(sandboxTools).toEqual(['advance_order', 'trigger_event']);
    for (const role of ['buyer', 'seller'] as const) {
      const live = names({ role, scopes: null, sandbox: false });
      for (const name of sandboxTools) expect(live, `${role} ${name}`).not.toContain(name);
      expect(refusalOf(toolNamed('trigger_event'), 'trigger_event', { role, scopes: null, sandbox: false })).toMatchObject({ code: 'not-found', status: 404 });
    }
    expect(names({ role: 'buyer', scopes: null, sandbox: true })).toEqual(expect.arrayContaining(sandboxTools));
  });

  it('lists a restricted key the tools whose every route its scopes grant, write implying read', () => {
    const reader = names({ role: 'buyer', scopes: ['orders:read'], sandbox: true });
    expect(reader).toEqual(expect.arrayContaining(['get_profile', 'list_orders', 'get_order', 'get_order_audit']));
    for (const name of ['place_order', 'cancel_order', 'search_products', 'list_approvals', 'approve_order', 'advance_order', 'trigger_event']) expect(reader, name).not.toContain(name);
    const writer = names({ role: 'buyer', scopes: ['orders:write', 'events:read'], sandbox: true });
    expect(writer).toEqual(expect.arrayContaining(['place_order', 'preview_order', 'list_orders', 'advance_order', 'trigger_event', 'list_events']));
    expect(refusalOf(toolNamed('approve_order'), 'approve_order', { role: 'buyer', scopes: ['orders:write'], sandbox: true })).toMatchObject({ code: 'auth/insufficient-scope', details: [{ path: 'scope', message: 'needs main' }] });
    expect(refusalOf(toolNamed('list_approvals'), 'list_approvals', { role: 'seller', scopes: null, sandbox: true })).toMatchObject({ code: 'auth/forbidden' });
  });
});
