// CloudFormation refuses a stack (root or nested) of more than 500 resources. The API is split into one
// nested stack per route tag (lib/route-stack.ts); this proves the margin for 150 routes and 15 workers,
// with synthetic rows that copy the real rows' grants and tags (so that roles are shared and routes are
// spread over the tags as they will be), for both stages, stack by stack.
import { describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../shared/http/route-table.ts';
import { fallbackRoute, routeList, workers as workerTable } from '../../functions/registry.ts';
import { MAX_ROUTES_PER_STACK, routeStackId } from '../../lib/route-stack.ts';
import type { WorkerDefinition } from '../../shared/workers.ts';
import { servedOn, type Stage } from '../../shared/resources.ts';
import { synthesizeStage, type SynthesizedStage } from './synth-stage.ts';

const ROUTES = 150;
const WORKERS = 15;
/** What we hold each stack to: room for a third more than CloudFormation's 500 allows. */
const MAX_RESOURCES = 350;
/** The root stack grows with workers and tags, not routes. */
const MAX_ROOT_RESOURCES = 250;
/** Synthesizing 150 functions takes a minute or more on a loaded machine; the assertions are about the templates. */
const SYNTH_TIMEOUT_MS = 600_000;

/** The stage's real rows, then copies of them (in every stage) under new names and paths, up to `count`. */
function routesUpTo(count: number, stage: Stage = 'test'): RouteDefinition[] {
  const real = routeList.filter(servedOn(stage));
  const rows: RouteDefinition[] = [...real];
  for (let i = 0; rows.length < count; i++) {
    const { stages: _stages, ...model } = real[i % real.length]!;
    // `/` becomes `/v1/synthetic-0`: API Gateway refuses a path ending in a slash, except `/` itself.
    rows.push({ ...model, operationId: `synthetic${i}${model.operationId}`, path: `/v1/synthetic-${i}${model.path.replace(/^\/v1/, '').replace(/\/$/, '')}` });
  }
  return rows;
}

/** The stage's real workers, then scheduled ones copying the real rows' grants, up to `count`. */
function workersUpTo(count: number, stage: Stage = 'test'): WorkerDefinition[] {
  const real = workerTable.filter(servedOn(stage));
  const rows: WorkerDefinition[] = [...real];
  for (let i = 0; rows.length < count; i++) {
    const { stages: _stages, bundledFiles: _files, ...model } = real[i % real.length]!;
    rows.push({ ...model, id: `synthetic${i}${model.id}`, trigger: { type: 'schedule', everyMinutes: 1 + i } });
  }
  return rows;
}

/** Resources of each template (the root's as `''`), by type. */
function countsByStack(s: SynthesizedStage) {
  return [...s.templates].map(([name, template]) => {
    const byType: Record<string, number> = {};
    for (const resource of Object.values(template.resources)) byType[resource.Type] = (byType[resource.Type] ?? 0) + 1;
    return { name, count: Object.keys(template.resources).length, byType };
  });
}

describe('stack size', () => {
  it.each(['test', 'live'] as const)(`the %s stack holds ${ROUTES} routes and ${WORKERS} workers, no stack above ${MAX_RESOURCES} resources`, (stage) => {
    const routes = routesUpTo(ROUTES, stage);
    const workers = workersUpTo(WORKERS, stage);
    expect(routes).toHaveLength(ROUTES);
    const s = synthesizeStage(stage, { routes, workers });
    const stacks = countsByStack(s);
    const summary = JSON.stringify(stacks.map(({ name, count }) => `${name || 'root'}: ${count}`));
    const [root, ...routeStacks] = stacks;
    expect(root!.name).toBe('');
    expect(root!.count, JSON.stringify(root!.byType)).toBeLessThanOrEqual(MAX_ROOT_RESOURCES);
    // One route stack per tag, each within the limit, and no more routes in one than it is built for.
    expect(routeStacks.map(({ name }) => name).sort()).toEqual([...new Set([...routes, fallbackRoute].map((route) => routeStackId(route.tag)))].sort());
    for (const stack of routeStacks) {
      expect(stack.count, `${stack.name}: ${JSON.stringify(stack.byType)}; ${summary}`).toBeLessThanOrEqual(MAX_RESOURCES);
      expect(stack.byType['AWS::ApiGatewayV2::Route'] ?? 0).toBeLessThanOrEqual(MAX_ROUTES_PER_STACK);
    }
    // Every row still got its own function and route, all of them in route stacks.
    expect(root!.byType['AWS::ApiGatewayV2::Route']).toBeUndefined();
    expect(routeStacks.reduce((sum, stack) => sum + (stack.byType['AWS::ApiGatewayV2::Route'] ?? 0), 0)).toBe(ROUTES + 1);
    expect(routeStacks.reduce((sum, stack) => sum + (stack.byType['AWS::Lambda::Function'] ?? 0), 0)).toBe(ROUTES + 1);
    expect(s.stack.api.functions.size).toBe(ROUTES + 1);
    expect(s.stack.workers.functions.size).toBe(WORKERS);
    // A nested template may hold 200 parameters and 200 outputs; route stacks take eleven (the request-log writer's ARN the eleventh) and give none.
    for (const [name, template] of s.templates) if (name) expect({ name, parameters: template.parameters.length, outputs: template.outputs.length }).toEqual({ name, parameters: 11, outputs: 0 });
  }, SYNTH_TIMEOUT_MS);

  it('costs each further route five resources in its tag’s stack (function, log group, its request-log subscription, integration, route), none in the root', () => {
    const base = countsByStack(synthesizeStage('test', { routes: routesUpTo(routeList.length + 10) }));
    const more = countsByStack(synthesizeStage('test', { routes: routesUpTo(routeList.length + 20) }));
    const total = (stacks: typeof base) => stacks.reduce((sum, stack) => sum + stack.count, 0);
    expect(more[0]!.count).toBe(base[0]!.count);
    // Ten copied rows share their models' roles; at most a metric-math alarm per route stack is added with them.
    expect(total(more) - total(base)).toBeGreaterThanOrEqual(10 * 5);
    expect(total(more) - total(base)).toBeLessThanOrEqual(10 * 5 + (more.length - 1));
  }, SYNTH_TIMEOUT_MS);

  it(`refuses more than ${MAX_ROUTES_PER_STACK} routes in one tag's stack, naming the tag`, () => {
    const model = routeList.find((route) => route.tag === 'Catalog')!;
    const many = Array.from({ length: MAX_ROUTES_PER_STACK + 1 }, (_, i) => ({ ...model, operationId: `crowded${i}`, path: `/v1/crowded-${i}` }));
    expect(() => synthesizeStage('test', { routes: many })).toThrow(/The Catalog routes \(61\) exceed the 60 one route stack holds/);
  }, SYNTH_TIMEOUT_MS);
});
