// preview_order: POST /v1/create-order with `dryRun: true` (contract §5.2): the order as place_order
// would create it and what is left of the key's limits, or the error it would get; nothing is written.
// A composition, since its arguments are place_order's without dryRun and idempotencyKey (a dry run
// stores no answer) (docs/decisions/mcp-compositions.md).
import * as createOrderModule from '../../create-order/run.route.ts';
import { withDocument } from '../../../shared/http/route-table.ts';
import { CreateOrderRequest } from '../../../shared/schemas/trade.ts';
import * as z from '../../../shared/schemas/zod.ts';
import { MONEY, READ, defineTool, type RequestBody } from '../tool-declaration.ts';
import { argumentsSchema, problemsOf, toolInput } from '../tool-arguments.ts';
import { dataOf, toolOutput } from '../tool-results.ts';

const PreviewArguments = z.omit(CreateOrderRequest, { dryRun: true });

export const tool = defineTool({
  name: 'preview_order',
  title: 'Preview an order',
  description: `What place_order would do with the same arguments, without doing it: the order as it would be created (status pending, or awaiting_approval when it is over your key's approvalAbove) with dryRun true, and limits: what is left of each of your key's limits before it (null for a key without limits). If place_order would be refused, this answers the same error (spending-limit: details name the limit and what is left; order less, or ask the key's owner to raise it). Nothing is written, nothing is reserved. ${MONEY} Next: place_order.`,
  routes: [createOrderModule.route],
  input: toolInput(
    () => argumentsSchema([PreviewArguments]),
    (args) => {
      const parsed = PreviewArguments.safeParse(args);
      return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problems: problemsOf(parsed.error) };
    },
  ),
  output: toolOutput(() => dataOf(withDocument(createOrderModule))),
  annotations: READ,
  // A dry run changes nothing: no Idempotency-Key, so that the API stores no answer for it.
  call: (mk, args) => mk.orders.preview(args as Omit<RequestBody<'createOrder'>, 'dryRun'>, { idempotencyKey: null }),
});
