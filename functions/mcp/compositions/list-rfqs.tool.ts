// list_rfqs: a page of requests for quotes (GET /v1/rfqs), or with rfqId the one request with its quotes
// (GET /v1/rfqs/{id}) as a page of one. One tool for both reads, since a separate get_rfq would list the
// request's result schema a second time in every buyer's and seller's tools/list
// (docs/decisions/mcp-rfq-tools.md).
import * as getRfqModule from '../../rfqs/get.route.ts';
import * as listRfqsModule from '../../rfqs/list.route.ts';
import { withDocument } from '../../../shared/http/route-table.ts';
import { ListRfqsQuery, RfqIdParams } from '../../../shared/schemas/rfqs.ts';
import { PAGED, READ, defineTool, firstPage, type QueryParams } from '../tool-declaration.ts';
import { argumentsSchema, problemsOf, propertyOf, toolInput, type JsonSchema, type Parsed } from '../tool-arguments.ts';
import { dataOf, toolOutput } from '../tool-results.ts';

type ListRfqsArguments = { rfqId: string } | { query: QueryParams<'listRfqs'> };

export const tool = defineTool({
  name: 'list_rfqs',
  title: 'List requests for quotes',
  description: `Requests for quotes (RFQs), newest first, without quotes: a buyer's own (any status); a seller's, those sent to it (open by default: to submit_quote on). With rfqId alone: that RFQ as items[0] with its quotes (a buyer's: all, best first; a seller's: its own). ${PAGED}`,
  routes: [listRfqsModule.route, getRfqModule.route],
  input: toolInput(
    () => {
      const listed = argumentsSchema([ListRfqsQuery], { rfqId: { ...propertyOf(RfqIdParams, 'id'), description: 'One RFQ with its quotes' } });
      // The tool's description says each role's default status.
      const { description: _description, ...status } = listed.properties.status as JsonSchema;
      return { ...listed, properties: { ...listed.properties, status } };
    },
    (args): Parsed<ListRfqsArguments> => {
      if ('rfqId' in args) {
        const others = Object.keys(args).filter((name) => name !== 'rfqId');
        if (others.length > 0) return { ok: false, problems: others.map((name) => ({ path: name, message: 'Send rfqId alone (one RFQ), or the list’s arguments without it' })) };
        const parsed = RfqIdParams.safeParse({ id: args.rfqId });
        return parsed.success ? { ok: true, value: { rfqId: parsed.data.id } } : { ok: false, problems: problemsOf(parsed.error).map((problem) => ({ ...problem, path: 'rfqId' })) };
      }
      // The query's own schema reads text: integers are written as the query string carries them.
      const parsed = ListRfqsQuery.safeParse(Object.fromEntries(Object.entries(args).map(([name, value]) => [name, typeof value === 'number' ? String(value) : value])));
      return parsed.success ? { ok: true, value: { query: args } } : { ok: false, problems: problemsOf(parsed.error) };
    },
  ),
  output: toolOutput(() => dataOf(withDocument(listRfqsModule))),
  annotations: READ,
  call: async (mk, args) => ('rfqId' in args ? { items: [await mk.rfqs.get(args.rfqId)], nextCursor: null } : firstPage(mk.rfqs.list(args.query))),
});
