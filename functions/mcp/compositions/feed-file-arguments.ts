// The feed file inline, as upload_feed and retry_feed take it: `csv` (text) or `products` (JSON rows,
// described by the feed row schema, checked while the feed is processed, as over HTTP), with an
// optional `filename`; larger files go through the SDK or the REST API's presigned upload
// (docs/decisions/mcp-compositions.md).
import type { FieldProblem } from '../../../shared/failures.ts';
import { InlineJsonFeedRequest, UploadFeedQuery } from '../../../shared/schemas/catalog.ts';
import { FeedProductRow } from '../../../shared/schemas/feed-rows.ts';
import * as z from '../../../shared/schemas/zod.ts';
import { IdempotencyKeyArgument, argumentSchema, keysOf, outline, parseIdempotencyKey, problemsOf, propertyOf, toolInput, type JsonSchema, type Parsed, type ToolInput } from '../tool-arguments.ts';

export interface FeedFileArguments {
  upload: { csv: string; filename?: string } | { products: unknown[]; filename?: string } | undefined;
  idempotencyKey: string | undefined;
}

const CsvText = z.string('Must be the CSV file’s text').check(z.minLength(1, 'Send the CSV file’s text: a header row, then one row per product'));

/** The names of the inline feed arguments, as feedFileProperties describes them. */
const FEED_FILE_ARGUMENTS = ['csv', 'products', 'filename'] as const;

/** The JSON Schema of the inline feed arguments: `csv` (text) or `products` (JSON rows, described by the feed row schema). */
function feedFileProperties(): Record<(typeof FEED_FILE_ARGUMENTS)[number], JsonSchema> {
  const products = propertyOf(InlineJsonFeedRequest, 'products');
  return {
    csv: { ...argumentSchema(CsvText), description: 'The feed as CSV text (the header row from get_feed_template, then one row per product; prices as decimals in major units, e.g. 12.50 with a currency column). Use csv or products' },
    products: {
      ...products,
      items: outline(argumentSchema(FeedProductRow)),
      description: 'The feed as JSON product rows, each field as get_feed_template with format json describes it (prices as Money objects in minor units: {"amount": 1250, "currency": "EUR"}). Use csv or products',
    },
    filename: { ...propertyOf(UploadFeedQuery, 'filename'), description: 'A name for the file, shown on the feed' },
  };
}

/** The check of the inline feed arguments (required: one of csv and products must be sent). */
function feedFileArguments(required: boolean): { parse: (args: Record<string, unknown>) => Parsed<FeedFileArguments['upload']> } {
  return {
    parse(args) {
      const problems: FieldProblem[] = [];
      const has = (name: string) => args[name] !== undefined;
      if (has('csv') && has('products')) return { ok: false, problems: [{ path: 'products', message: 'Send either csv or products, not both' }] };
      if (!has('csv') && !has('products')) {
        return required ? { ok: false, problems: [{ path: 'csv', message: 'Required: the feed as csv (text) or products (JSON rows)' }] } : { ok: true, value: undefined };
      }
      const filename = args.filename as string | undefined;
      if (has('csv')) {
        const csv = CsvText.safeParse(args.csv);
        if (!csv.success) problems.push(...problemsOf(csv.error, ['csv']));
        const query = UploadFeedQuery.safeParse(filename === undefined ? {} : { filename });
        if (!query.success) problems.push(...problemsOf(query.error));
        return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { csv: args.csv as string, ...(filename === undefined ? {} : { filename }) } };
      }
      const body = InlineJsonFeedRequest.safeParse({ products: args.products, ...(filename === undefined ? {} : { filename }) });
      return body.success ? { ok: true, value: { products: args.products as unknown[], ...(filename === undefined ? {} : { filename }) } } : { ok: false, problems: problemsOf(body.error) };
    },
  };
}

/**
 * The arguments of a tool that sends a feed file inline: the feed's id as `feedId` when the route has
 * an `{id}` (`params`), the file, `idempotencyKey`.
 */
export function feedFileInput(options: { params?: z.ZodMiniObject | undefined; required: boolean }): ToolInput<FeedFileArguments & { id?: string }> {
  const file = feedFileArguments(options.required);
  const params = options.params;
  if (params && [...keysOf(params)].join() !== 'id') throw new Error('A feed file tool takes the feed\'s id as its one path parameter');
  const known = new Set<string>([...FEED_FILE_ARGUMENTS, 'idempotencyKey', ...(params ? ['feedId'] : [])]);
  return toolInput(
    () => {
      const feedId = params ? propertyOf(params, 'id') : undefined;
      return {
        type: 'object',
        properties: { ...(feedId ? { feedId } : {}), ...feedFileProperties(), ...IdempotencyKeyArgument },
        ...(feedId ? { required: ['feedId'] } : {}),
        additionalProperties: false,
      };
    },
    (args) => {
      const problems: FieldProblem[] = Object.keys(args).filter((name) => !known.has(name)).map((name) => ({ path: name, message: 'Unknown field; remove it' }));
      let feedId: string | undefined;
      if (params) {
        const parsed = params.safeParse({ id: args.feedId });
        if (parsed.success) feedId = args.feedId as string;
        else problems.push(...problemsOf(parsed.error).map((problem) => ({ ...problem, path: problem.path.replace(/^id\b/, 'feedId') })));
      }
      problems.push(...parseIdempotencyKey(args.idempotencyKey));
      const upload = file.parse(args);
      if (!upload.ok) problems.push(...upload.problems);
      if (problems.length > 0 || !upload.ok) return { ok: false, problems };
      return { ok: true, value: { upload: upload.value, idempotencyKey: args.idempotencyKey as string | undefined, ...(feedId ? { id: feedId } : {}) } };
    },
  );
}
