// CloudFormation refuses a stack of more than 500 resources. The finished API will have about sixty
// routes and several workers; this proves the margin now, with synthetic rows that copy the real
// rows' grants (so that roles are shared as they will be), for both stages.
import { describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../shared/http/route-table.ts';
import { routeList } from '../../functions/route-index.ts';
import { workers as workerTable, type WorkerDefinition } from '../../shared/workers.ts';
import { synthesizeStage } from './synth-stage.ts';

const ROUTES = 60;
const WORKERS = 10;
const MAX_RESOURCES = 350;

/** The real rows, then copies of them under new names and paths, up to `count`. */
function routesUpTo(count: number): RouteDefinition[] {
  const rows: RouteDefinition[] = [...routeList];
  for (let i = 0; rows.length < count; i++) {
    const model = routeList[i % routeList.length]!;
    // `/` becomes `/v1/synthetic-0`: API Gateway refuses a path ending in a slash, except `/` itself.
    rows.push({ ...model, operationId: `synthetic${i}${model.operationId}`, path: `/v1/synthetic-${i}${model.path.replace(/^\/v1/, '').replace(/\/$/, '')}` });
  }
  return rows;
}

/** The real workers, then scheduled ones copying the real rows' grants, up to `count`. */
function workersUpTo(count: number): WorkerDefinition[] {
  const rows: WorkerDefinition[] = [...workerTable];
  for (let i = 0; rows.length < count; i++) {
    const model = workerTable[i % workerTable.length]!;
    rows.push({ ...model, id: `synthetic${i}${model.id}`, trigger: { type: 'schedule', everyMinutes: 1 + i } });
  }
  return rows;
}

// Each synthesis is seconds of CPU on an idle machine, many times that on a busy one.
const SYNTH_TIMEOUT = { timeout: 180_000 };

describe('stack size', () => {
  it.each(['test', 'live'] as const)(`the %s stack holds ${ROUTES} routes and ${WORKERS} workers in at most ${MAX_RESOURCES} resources`, SYNTH_TIMEOUT, (stage) => {
    const routes = routesUpTo(ROUTES);
    const workers = workersUpTo(WORKERS);
    expect(routes).toHaveLength(ROUTES);
    const s = synthesizeStage(stage, { routes, workers });
    const count = Object.keys(s.resources).length;
    const byType: Record<string, number> = {};
    for (const resource of Object.values(s.resources)) byType[resource.Type] = (byType[resource.Type] ?? 0) + 1;
    expect(count, JSON.stringify(byType)).toBeLessThanOrEqual(MAX_RESOURCES);
    // Every row still got its own function.
    expect(byType['AWS::ApiGatewayV2::Route']).toBe(ROUTES + 1);
    expect(s.stack.api.functions.size).toBe(ROUTES + 1);
    expect(s.stack.workers.functions.size).toBe(WORKERS);
  });

  it('costs each further route four resources: its function, log group, integration and route', SYNTH_TIMEOUT, () => {
    const base = Object.keys(synthesizeStage('test', { routes: routesUpTo(routeList.length + 10) }).resources).length;
    const more = Object.keys(synthesizeStage('test', { routes: routesUpTo(routeList.length + 20) }).resources).length;
    // Ten copied rows share their models' roles; at most a metric-math alarm pair is added with them.
    expect(more - base).toBeLessThanOrEqual(10 * 4 + 2);
    expect(more - base).toBeGreaterThanOrEqual(10 * 4);
  });
});
