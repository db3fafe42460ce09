// get_feed_template: the CSV or the JSON template (GET /v1/seller/templates/csv and …/json), by
// `format` (csv by default) (docs/decisions/mcp-compositions.md).
import * as getCsvFeedTemplateModule from '../../seller-templates/get-csv.route.ts';
import * as getJsonFeedTemplateModule from '../../seller-templates/get-json.route.ts';
import { withDocument } from '../../../shared/http/route-table.ts';
import { FeedFormat } from '../../../shared/schemas/catalog.ts';
import * as z from '../../../shared/schemas/zod.ts';
import { READ, defineTool } from '../tool-declaration.ts';
import { argumentsSchema, problemsOf, toolInput } from '../tool-arguments.ts';
import { dataOf, toolOutput } from '../tool-results.ts';


const Arguments = z.strictObject({ format: z.annotated(z._default(FeedFormat, 'csv'), { description: 'csv (default) or json' }) });

export const tool = defineTool({
  name: 'get_feed_template',
  title: 'Get the feed template',
  description: 'The catalog feed template, csv (default) or json: content is a valid file you can edit and upload, fields describes every column (type, required, example). In CSV, prices are decimals in major units (12.50) with a currency column; in JSON, Money objects in minor units. Next: upload_feed.',
  routes: [getCsvFeedTemplateModule.route, getJsonFeedTemplateModule.route],
  input: toolInput(
    () => argumentsSchema([Arguments]),
    (args) => {
      const parsed = Arguments.safeParse(args);
      return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problems: problemsOf(parsed.error) };
    },
  ),
  output: toolOutput(() => dataOf(withDocument(getCsvFeedTemplateModule))),
  annotations: READ,
  call: (mk, args) => (args.format === 'json' ? mk.templates.json() : mk.templates.csv()),
});
