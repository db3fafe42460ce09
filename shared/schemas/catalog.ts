// Catalog records (contract §3 "Product", "Offer", "Feed"): what sellers load and buyers read.
import * as z from './zod.ts';
import { idPattern } from '../ids.ts';
import { PaginationQuery, TEXT_PATTERN_MULTI_LINE, TEXT_PATTERN_SINGLE_LINE, Timestamp, bounded, boundedInt, idOf, idParam, textProblem, unlessMissing } from './common.ts';
import { Money } from './money.ts';

/** Most bytes an inline upload (CSV, JSON or multipart file) may have: 5 MiB. Larger files go presigned. */
export const INLINE_FEED_MAX_BYTES = 5 * 1024 * 1024;
/** Most bytes a presigned upload may have: 100 MiB. */
export const PRESIGNED_FEED_MAX_BYTES = 100 * 1024 * 1024;
/** What Filename refuses (slashes, control and bidirectional control characters), as a JSON Schema pattern for the API document. */
const FILENAME_PATTERN = '^[^/\\\\\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]+$';

/** Most rows a feed can have: a row takes at least a byte of the largest (presigned) file. */
export const MAX_FEED_ROWS = 100 * 1024 * 1024;
/** Longest name or text of the feed templates' field table (feed-rows.ts), which is ours. */
const TEMPLATE_TEXT_MAX_LENGTH = 1000;

export const SKU_PATTERN = /^[\x21-\x7E]{1,100}$/;
export const Sku = z.annotated(
  z.string().check(z.regex(SKU_PATTERN, 'Must be 1 to 100 printable ASCII characters without spaces')),
  { maxLength: 100, description: 'The seller’s stock-keeping unit: unique per seller, the feed’s upsert key', example: 'GLV-NIT-M-100' },
);

/** Lowercase path segments of letters, digits and hyphens: `safety/gloves/nitrile`. */
export const CATEGORY_MAX_LENGTH = 200;
export const CATEGORY_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*){0,7}$/;
export const Category = z.annotated(z.string().check(
  z.regex(CATEGORY_PATTERN, 'Must be a lowercase path of up to 8 segments of letters, digits and hyphens, such as safety/gloves'),
  z.maxLength(CATEGORY_MAX_LENGTH, `Must be at most ${CATEGORY_MAX_LENGTH} characters`),
), { example: 'safety/gloves' });

/** Attribute names: a letter, then letters, digits, `_` or `-` (up to 64). */
export const ATTRIBUTE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const Attributes = z.annotated(z.record(
  z.annotated(z.string().check(z.regex(ATTRIBUTE_NAME_PATTERN, 'Attribute names start with a letter and hold letters, digits, _ or - (at most 64)')), { maxLength: 64 }),
  z.union([z.string().check(z.maxLength(200)), z.number(), z.boolean()]),
).check(z.refine((attributes) => Object.keys(attributes).length <= 50, 'At most 50 attributes')), { description: 'Typed attributes (string, number or boolean)' });

export const Unit = z.annotated(
  z.string().check(z.regex(/^[a-z][a-z0-9-]{0,19}$/, 'Must be a lowercase unit name such as each, box, pair or kg')),
  { maxLength: 20, example: 'box' },
);

/** Most pieces one unit sold may hold. */
export const PACK_SIZE_MAX = 1_000_000;
/** Pieces in one unit sold: a box of 100 gloves is one unit of 100 pieces. */
export const PackSize = boundedInt(1, PACK_SIZE_MAX, {
  description: 'Pieces in one unit sold (a box of 100: 100)',
  example: 100,
});

export const ImageUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: 'Must be an absolute http(s) URL' }).check(z.maxLength(2048));

export const ProductStatus = z.annotated(z.enum(['active', 'inactive']), { id: 'ProductStatus' });
export const OfferStatus = z.annotated(z.enum(['active', 'withdrawn', 'expired']), { id: 'OfferStatus' });

export const PriceTier = z.annotated(
  z.object({ minQuantity: z.annotated(z.int().check(z.gte(1)), { override: { maximum: 1_000_000_000, format: 'int32' } }), unitPrice: Money }),
  { id: 'PriceTier', description: 'From minQuantity units on, each costs unitPrice' },
);

/** The offer as a compact search item shows it (docs/decisions/search-fields.md); Offer adds the rest. */
export const OfferCompact = z.annotated(z.object({
  offerId: idOf('offer'),
  unitPrice: Money,
  minQuantity: boundedInt(1, 1_000_000_000),
  priceTiers: z.annotated(z.array(PriceTier), { maxItems: 20 }),
  negotiable: z.boolean(),
  validUntil: z.annotated(z.nullable(Timestamp), { description: 'Null: a standing offer without an end' }),
}), { id: 'OfferCompact' });

export const Offer = z.annotated(z.extend(OfferCompact, {
  productId: idOf('product'),
  sellerId: idOf('agent'),
  status: OfferStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
}), { id: 'Offer' });
export type Offer = z.infer<typeof Offer>;

/** How the seller's automatic counters concede over a session's rounds (docs/decisions/concession-curves.md). */
export const NEGOTIATION_STRATEGIES = ['firm', 'linear', 'boulware', 'conceder'] as const;
export const NegotiationStrategy = z.annotated(z.enum(NEGOTIATION_STRATEGIES, { error: 'Must be firm, linear, boulware or conceder' }), {
  id: 'NegotiationStrategy',
  description:
    'firm: hold the list price; linear: concede evenly; boulware: hold until late; conceder: concede early. The floor comes only at the last round.',
});
export type NegotiationStrategy = z.infer<typeof NegotiationStrategy>;

/** The offer as its own seller sees it: with the private negotiation policy. */
export const SellerOffer = z.annotated(z.extend(Offer, {
  floorUnitPrice: z.annotated(z.nullable(Money), { description: 'Private: the lowest unit price automatic counters reach (last round only)' }),
  autoAcceptUnitPrice: z.annotated(z.nullable(Money), { description: 'Private: a proposal at or above it is accepted at once' }),
  negotiationStrategy: z.annotated(z.nullable(NegotiationStrategy), {
    description: 'Private: how automatic counters concede toward the floor (linear by default); null: none',
  }),
}), { id: 'SellerOffer' });
export type SellerOffer = z.infer<typeof SellerOffer>;

/** The product as a compact search item shows it (docs/decisions/search-fields.md); Product adds the rest. */
export const ProductCompact = z.annotated(z.object({
  productId: idOf('product'),
  sellerId: idOf('agent'),
  sku: bounded(100, { pattern: SKU_PATTERN.source }),
  title: bounded(300, { pattern: TEXT_PATTERN_SINGLE_LINE }),
  category: z.nullable(bounded(CATEGORY_MAX_LENGTH, { pattern: CATEGORY_PATTERN.source })),
  brand: z.nullable(bounded(100, { pattern: TEXT_PATTERN_SINGLE_LINE })),
  attributes: Attributes,
  unit: bounded(20, { pattern: '^[a-z][a-z0-9-]{0,19}$' }),
  packSize: PackSize,
  price: z.withMeta(Money, { description: 'List unit price' }),
  availableQuantity: boundedInt(0, 1_000_000_000),
  minOrderQuantity: boundedInt(1, 1_000_000_000),
  leadTimeDays: boundedInt(0, 365),
  shipsFrom: z.nullable(bounded(2, { pattern: '^[A-Z]{2}$' })),
}), { id: 'ProductCompact' });

export const Product = z.annotated(z.extend(ProductCompact, {
  description: z.nullable(bounded(5000, { pattern: TEXT_PATTERN_MULTI_LINE })),
  imageUrls: z.annotated(z.array(bounded(2048, { format: 'uri' })), { maxItems: 20 }),
  status: ProductStatus,
  sourceFeedId: z.nullable(idOf('feed')),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}), { id: 'Product' });
export type Product = z.infer<typeof Product>;

export const ProductWithOffers = z.annotated(z.extend(Product, { offers: z.annotated(z.array(Offer), { maxItems: 1 }) }), { id: 'ProductWithOffers' });
export const SellerProductWithOffers = z.annotated(
  z.extend(Product, { offers: z.annotated(z.array(SellerOffer), { maxItems: 1 }) }),
  { id: 'SellerProductWithOffers' },
);

export const FeedFormat = z.annotated(z.enum(['csv', 'json']), { id: 'FeedFormat' });
export type FeedFormat = z.infer<typeof FeedFormat>;
export const FeedStatus = z.annotated(z.enum(['awaiting_upload', 'queued', 'processing', 'completed', 'failed']), { id: 'FeedStatus' });
export type FeedStatus = z.infer<typeof FeedStatus>;

export const FeedRowError = z.annotated(z.object({
  row: boundedInt(1, MAX_FEED_ROWS, { description: 'Row in the file: the first data row is 1 (the CSV header 0)' }),
  field: z.annotated(z.nullable(z.string()), { description: 'Column or JSON field; null: the whole row' }),
  message: z.string(),
}), { id: 'FeedRowError' });
export type FeedRowError = z.infer<typeof FeedRowError>;

export const FeedWarning = z.annotated(
  z.object({ row: z.nullable(boundedInt(1, MAX_FEED_ROWS)), field: z.nullable(z.string()), message: z.string() }),
  { id: 'FeedWarning', description: 'Accepted but worth a look: an unknown column, a repeated sku' },
);
export type FeedWarning = z.infer<typeof FeedWarning>;

export const Feed = z.annotated(z.object({
  feedId: idOf('feed'),
  sellerId: idOf('agent'),
  format: FeedFormat,
  status: FeedStatus,
  filename: z.nullable(bounded(255, { pattern: FILENAME_PATTERN })),
  sizeBytes: z.nullable(boundedInt(0, PRESIGNED_FEED_MAX_BYTES)),
  rowsTotal: boundedInt(0, MAX_FEED_ROWS),
  rowsSucceeded: boundedInt(0, MAX_FEED_ROWS),
  rowsFailed: boundedInt(0, MAX_FEED_ROWS),
  errors: z.annotated(z.array(FeedRowError), { maxItems: 100, description: 'The first 100 row errors; rowsFailed counts all' }),
  warnings: z.annotated(z.array(FeedWarning), { maxItems: 100, description: 'The first 100' }),
  attempts: boundedInt(0, 2_147_483_647),
  failureReason: z.nullable(z.string()),
  createdAt: Timestamp,
  startedAt: z.nullable(Timestamp),
  completedAt: z.nullable(Timestamp),
}), { id: 'Feed' });
export type Feed = z.infer<typeof Feed>;

/** The answer to a presigned upload request: the feed plus where to PUT the file. */
export const FeedWithUpload = z.annotated(z.extend(Feed, {
  uploadUrl: bounded(8192, { format: 'uri', description: 'PUT the file here, without Authorization, before uploadExpiresAt' }),
  uploadMethod: z.literal('PUT'),
  uploadHeaders: z.annotated(z.record(bounded(256), bounded(8192)), { description: 'Send these with the PUT, unchanged' }),
  uploadExpiresAt: Timestamp,
  uploadMaxBytes: boundedInt(0, PRESIGNED_FEED_MAX_BYTES),
}), { id: 'FeedWithUpload' });

export const FeedIdParams = z.strictObject({ id: idParam(idPattern('feed'), 'a feed id (feed_…)', 'feed_01M83T81T0KR7DB33F3ZQMKNC8') });
export const ProductIdParams = z.strictObject({ id: idParam(idPattern('product'), 'a product id (prd_…)', 'prd_01M83T9WD0S3SHGK39V7361XHA') });
export const OfferIdParams = z.strictObject({ id: idParam(idPattern('offer'), 'an offer id (ofr_…)', 'ofr_01M83TBQ00SGNK6B3E5ANAP9QW') });

export const ListFeedsQuery = z.extend(PaginationQuery, { status: z.optional(FeedStatus) });
export const ListSellerProductsQuery = z.extend(PaginationQuery, { status: z.optional(ProductStatus), sku: z.optional(Sku) });

/** What a feed upload's 413 says after the limit: how to send the file presigned instead, to the same path. */
export function presignedUploadAdvice(path: string): string {
  const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;
  return (
    `An inline upload may have at most ${mib(INLINE_FEED_MAX_BYTES)}; send a larger file (up to ${mib(PRESIGNED_FEED_MAX_BYTES)}) as a presigned upload: ` +
    `POST ${path} with {"format":"csv","upload":"presigned"} ("json" for a JSON file), then PUT the file to the uploadUrl of the answer ` +
    'before its uploadExpiresAt, as it is and without other headers (curl -X PUT --upload-file catalog.csv "<uploadUrl>")'
  );
}

/**
 * A feed's file name, from whichever source named it (the JSON body, `?filename=`, Content-Disposition
 * or a multipart part): shown to the seller as it is, so held to the rules of single-line text, and a
 * name rather than a path.
 */
export const Filename = z.annotated(z.string({ error: unlessMissing('Must be a string') }).check(
  z.minLength(1, 'Must be at least 1 character'),
  z.maxLength(255, 'Must be at most 255 characters'),
  z.superRefine((name, context) => {
    const problem = /[/\\]/.test(name) ? 'Must be a file name, without slashes' : textProblem(name, false);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  }),
), { example: 'catalog-2026-11.csv', pattern: FILENAME_PATTERN });

/** Query of POST /v1/seller/feeds for bodies that carry no name of their own (a CSV body). */
export const UploadFeedQuery = z.strictObject({
  filename: z.annotated(z.optional(Filename), { description: 'A name for the uploaded file, shown on the feed (multipart parts carry their own)' }),
});

/** POST /v1/seller/feeds with a JSON body: an inline JSON feed, or a request for a presigned upload. */
export const InlineJsonFeedRequest = z.annotated(z.strictObject({
  products: z.annotated(
    z.array(z.unknown(), { error: 'Must be an array of product rows' }).check(z.minLength(1, 'Send at least one product row')),
    { description: 'Rows; a bad row is reported in the feed’s `errors`' },
  ),
  filename: z.optional(Filename),
}), { id: 'InlineJsonFeedRequest' });
export const PresignedFeedRequest = z.annotated(z.strictObject({
  format: FeedFormat,
  upload: z.literal('presigned', { error: 'Must be "presigned"' }),
  filename: z.optional(Filename),
}), { id: 'PresignedFeedRequest', description: 'Answers 202 with uploadUrl: PUT the file there (up to 100 MiB) within 15 min' });
export const CreateFeedJsonRequest = z.union([InlineJsonFeedRequest, PresignedFeedRequest]);
export type CreateFeedJsonRequest = z.infer<typeof CreateFeedJsonRequest>;

export const FeedTemplateField = z.annotated(z.object({
  name: bounded(TEMPLATE_TEXT_MAX_LENGTH, { description: 'CSV column or JSON field', pattern: '^[a-zA-Z_.]+$' }),
  type: z.enum(['string', 'integer', 'decimal', 'boolean', 'money', 'currency', 'country', 'list', 'map', 'enum']),
  required: z.boolean(),
  default: z.nullable(z.union([bounded(TEMPLATE_TEXT_MAX_LENGTH), z.number(), z.boolean()])),
  example: z.unknown(),
  description: bounded(TEMPLATE_TEXT_MAX_LENGTH, { pattern: TEXT_PATTERN_SINGLE_LINE }),
}), { id: 'FeedTemplateField' });
export const FeedTemplate = z.annotated(z.object({
  format: FeedFormat,
  filename: bounded(255, { pattern: FILENAME_PATTERN }),
  content: bounded(INLINE_FEED_MAX_BYTES, { description: 'The file; uploaded unchanged, a valid feed' }),
  fields: z.annotated(z.array(FeedTemplateField), { maxItems: 50 }),
}), { id: 'FeedTemplate' });
