// One row of a seller's feed (contract §3 "Feed rows"), in its JSON form, and the table of fields
// that the CSV columns, the templates and the documentation are all derived from.
import * as z from './zod.ts';
import type { FieldProblem } from '../failures.ts';
import { CountryCode, text } from './common.ts';
import { Attributes, Category, ImageUrl, NegotiationStrategy, PACK_SIZE_MAX, PriceTier, ProductStatus, Sku, Unit } from './catalog.ts';
import { AMOUNT_NOT_WHOLE, CurrencyCode, Money, minorUnitProblem } from './money.ts';
import { zodProblems } from './problems.ts';

export type FeedFieldType = 'string' | 'integer' | 'decimal' | 'boolean' | 'money' | 'currency' | 'country' | 'list' | 'map' | 'enum';

/** A field of a feed row: its CSV column and JSON name, what it holds, whether required, its default and an example. */
export interface FeedField {
  /** The JSON row's field (dot path for the parts of Money). */
  field: string;
  /** The CSV column, or null when the field has no CSV column. */
  column: string | null;
  /** The type in the CSV file (`decimal` for prices in major units) and in JSON. */
  csvType: FeedFieldType | null;
  jsonType: FeedFieldType;
  required: boolean;
  default: string | number | boolean | null;
  description: string;
  csvExample: string | null;
  jsonExample: unknown;
}

export const FEED_FIELDS: readonly FeedField[] = [
  { field: 'sku', column: 'sku', csvType: 'string', jsonType: 'string', required: true, default: null, description: 'Your stock-keeping unit: 1–100 printable ASCII characters without spaces, unique among your products. The upsert key.', csvExample: 'GLV-NIT-M-100', jsonExample: 'GLV-NIT-M-100' },
  { field: 'title', column: 'title', csvType: 'string', jsonType: 'string', required: true, default: null, description: 'Product name, 1–300 characters.', csvExample: 'Nitrile examination gloves, size M, box of 100', jsonExample: 'Nitrile examination gloves, size M, box of 100' },
  { field: 'description', column: 'description', csvType: 'string', jsonType: 'string', required: false, default: null, description: 'Up to 5,000 characters; line breaks allowed.', csvExample: 'Powder-free, textured fingertips, 0.1 mm', jsonExample: 'Powder-free, textured fingertips, 0.1 mm' },
  { field: 'category', column: 'category', csvType: 'string', jsonType: 'string', required: false, default: null, description: 'Lowercase path of up to 8 segments (letters, digits, hyphens), such as safety/gloves. Uppercase letters are lowercased.', csvExample: 'safety/gloves', jsonExample: 'safety/gloves' },
  { field: 'brand', column: 'brand', csvType: 'string', jsonType: 'string', required: false, default: null, description: 'Up to 100 characters.', csvExample: 'Acme', jsonExample: 'Acme' },
  { field: 'unit', column: 'unit', csvType: 'string', jsonType: 'string', required: false, default: 'each', description: 'What one unit is: each, box, pair, kg… (lowercase).', csvExample: 'box', jsonExample: 'box' },
  { field: 'packSize', column: 'pack_size', csvType: 'integer', jsonType: 'integer', required: false, default: 1, description: 'Pieces in one unit: a box of 100 gloves sold as one unit is 100. A whole number, 1–1,000,000. Buyers see it beside the price, and a search for a price per piece ("under 0.15 EUR each") compares the price ÷ packSize.', csvExample: '100', jsonExample: 100 },
  { field: 'price.amount', column: 'price', csvType: 'decimal', jsonType: 'integer', required: true, default: null, description: 'List unit price. CSV: a decimal in major units (12.50), with no more decimals than the currency has (JPY none, BHD three). JSON: price is Money, amount in minor units (1250).', csvExample: '12.50', jsonExample: 1250 },
  { field: 'price.currency', column: 'currency', csvType: 'currency', jsonType: 'currency', required: true, default: null, description: 'ISO 4217 code in uppercase (USD, EUR, JPY…). Every price of the row is in it.', csvExample: 'USD', jsonExample: 'USD' },
  { field: 'availableQuantity', column: 'available_quantity', csvType: 'integer', jsonType: 'integer', required: true, default: null, description: 'Units in stock: a whole number, 0 or more.', csvExample: '5000', jsonExample: 5000 },
  { field: 'minOrderQuantity', column: 'min_order_quantity', csvType: 'integer', jsonType: 'integer', required: false, default: 1, description: 'Smallest quantity per order: a whole number, 1 or more.', csvExample: '10', jsonExample: 10 },
  { field: 'leadTimeDays', column: 'lead_time_days', csvType: 'integer', jsonType: 'integer', required: false, default: 0, description: 'Days from order to shipment: 0–365.', csvExample: '3', jsonExample: 3 },
  { field: 'shipsFrom', column: 'ships_from', csvType: 'country', jsonType: 'country', required: false, default: null, description: 'ISO 3166-1 alpha-2 country code (DE, US…).', csvExample: 'DE', jsonExample: 'DE' },
  { field: 'imageUrls', column: 'image_urls', csvType: 'list', jsonType: 'list', required: false, default: null, description: 'Absolute http(s) URLs, at most 20. CSV: separated by |.', csvExample: 'https://cdn.example.com/glv-m-1.jpg|https://cdn.example.com/glv-m-2.jpg', jsonExample: ['https://cdn.example.com/glv-m-1.jpg', 'https://cdn.example.com/glv-m-2.jpg'] },
  { field: 'attributes', column: 'attributes', csvType: 'map', jsonType: 'map', required: false, default: null, description: 'Up to 50 typed attributes. CSV: key=value pairs separated by ; (numbers and true/false are typed). JSON: an object of strings, numbers and booleans.', csvExample: 'material=nitrile;size=M;powderFree=true;thicknessMm=0.1', jsonExample: { material: 'nitrile', size: 'M', powderFree: true, thicknessMm: 0.1 } },
  { field: 'negotiable', column: 'negotiable', csvType: 'boolean', jsonType: 'boolean', required: false, default: true, description: 'Whether buyers may negotiate. CSV: true/false (also yes/no, 1/0).', csvExample: 'true', jsonExample: true },
  { field: 'priceTiers', column: null, csvType: null, jsonType: 'list', required: false, default: null, description: 'JSON only: volume prices [{minQuantity, unitPrice: Money}], at most 20, in the row’s currency.', csvExample: null, jsonExample: [{ minQuantity: 1000, unitPrice: { amount: 1100, currency: 'USD' } }] },
  { field: 'floorUnitPrice', column: 'floor_price', csvType: 'decimal', jsonType: 'money', required: false, default: null, description: 'Private: the lowest unit price automatic counter-offers go to, asked only at a session’s last round; at most the list price and the auto-accept price. Never shown to buyers. CSV: major units; JSON: Money.', csvExample: '10.00', jsonExample: { amount: 1000, currency: 'USD' } },
  { field: 'autoAcceptUnitPrice', column: 'auto_accept_price', csvType: 'decimal', jsonType: 'money', required: false, default: null, description: 'Private: a buyer proposal at or above it is accepted at once. Never shown to buyers. CSV: major units; JSON: Money.', csvExample: '12.00', jsonExample: { amount: 1200, currency: 'USD' } },
  { field: 'negotiationStrategy', column: 'negotiation_strategy', csvType: 'enum', jsonType: 'enum', required: false, default: 'linear', description: 'Private: how automatic counters concede over a session’s rounds, from the list price toward the floor. firm: hold the list price; linear: evenly; boulware: hold near the list price until the last rounds; conceder: most in the first rounds. linear, boulware and conceder need a floor price; without one only firm answers automatically. Default linear when a floor price is set, otherwise none (the seller’s agent answers). Never shown to buyers.', csvExample: 'boulware', jsonExample: 'boulware' },
  { field: 'status', column: 'status', csvType: 'enum', jsonType: 'enum', required: false, default: 'active', description: 'active, or inactive to take the product off the marketplace (its offer is withdrawn).', csvExample: 'active', jsonExample: 'active' },
];

/** CSV columns in template order. */
export const CSV_COLUMNS: readonly string[] = FEED_FIELDS.flatMap((field) => (field.column ? [field.column] : []));
export const REQUIRED_CSV_COLUMNS: readonly string[] = FEED_FIELDS.filter((field) => field.required && field.column).map((field) => field.column as string);

/** Top-level fields of a JSON row (Money counts once). */
export const JSON_ROW_FIELDS: readonly string[] = [...new Set(FEED_FIELDS.map((field) => field.field.split('.')[0] as string))];

/** Lowercased before validation: `Safety/Gloves` is the category safety/gloves. */
const LowercasedCategory = z.pipe(z.transform((value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value)), Category);

/**
 * A JSON feed row's fields, each validated on its own. Not strict: an unknown field is a warning
 * (reported once per feed), not an error. Absent and null optional fields take the contract's
 * defaults. The rules between fields are in rowRuleProblems; parseFeedRow applies both.
 */
export const FeedProductRow = z.object({
  sku: Sku,
  title: text({ min: 1, max: 300 }),
  description: z.nullish(text({ max: 5000, multiline: true })),
  category: z.nullish(LowercasedCategory),
  brand: z.nullish(text({ min: 1, max: 100 })),
  unit: z.pipe(z.nullish(Unit), z.transform((unit) => unit ?? 'each')),
  packSize: z.pipe(z.nullish(z.int('Must be a whole number').check(z.gte(1, 'Must be 1 or more'), z.lte(PACK_SIZE_MAX, 'Must be at most 1,000,000'))), z.transform((value) => value ?? 1)),
  price: Money,
  availableQuantity: z.int('Must be a whole number').check(z.gte(0, 'Must be 0 or more'), z.lte(1_000_000_000, 'Must be at most 1,000,000,000')),
  minOrderQuantity: z.pipe(z.nullish(z.int('Must be a whole number').check(z.gte(1, 'Must be 1 or more'), z.lte(1_000_000_000))), z.transform((value) => value ?? 1)),
  leadTimeDays: z.pipe(z.nullish(z.int('Must be a whole number of days').check(z.gte(0, 'Must be 0 or more'), z.lte(365, 'Must be at most 365'))), z.transform((value) => value ?? 0)),
  shipsFrom: z.nullish(CountryCode),
  imageUrls: z.pipe(z.nullish(z.array(ImageUrl).check(z.maxLength(20, 'At most 20 image URLs'))), z.transform((urls) => urls ?? [])),
  attributes: z.pipe(z.nullish(Attributes), z.transform((attributes) => attributes ?? {})),
  negotiable: z.pipe(z.nullish(z.boolean('Must be true or false')), z.transform((value) => value ?? true)),
  priceTiers: z.pipe(z.nullish(z.array(PriceTier).check(z.maxLength(20, 'At most 20 price tiers'))), z.transform((tiers) => tiers ?? [])),
  floorUnitPrice: z.nullish(Money),
  autoAcceptUnitPrice: z.nullish(Money),
  negotiationStrategy: z.nullish(NegotiationStrategy),
  status: z.pipe(z.nullish(ProductStatus), z.transform((status) => status ?? 'active')),
});
export type FeedProductRow = z.output<typeof FeedProductRow>;

type RowField = keyof FeedProductRow;
const FIELD_ORDER: ReadonlyMap<string, number> = new Map(JSON_ROW_FIELDS.map((field, index) => [field, index]));

/**
 * The rules between a row's fields, over the fields that are valid on their own (`valid`), so that a
 * row with a bad cell still hears about every other problem. `given` names the fields the seller
 * filled in, valid or not (a strategy without a floor is a problem only when no floor was given).
 */
export function rowRuleProblems(valid: Partial<FeedProductRow>, input: Readonly<Record<string, unknown>>, given: ReadonlySet<string>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // The row's currency: the price's, even when its amount is bad.
  const rawPrice = input.price;
  const rawCurrency = typeof rawPrice === 'object' && rawPrice !== null ? CurrencyCode.safeParse((rawPrice as { currency?: unknown }).currency) : undefined;
  const currency = valid.price?.currency ?? (rawCurrency?.success ? rawCurrency.data : undefined);
  const sameCurrency = (path: string, money: { currency: string } | null | undefined) => {
    if (money && currency !== undefined && money.currency !== currency) problems.push({ path: `${path}.currency`, message: `Must be in the row’s currency, ${currency}` });
  };
  sameCurrency('floorUnitPrice', valid.floorUnitPrice);
  sameCurrency('autoAcceptUnitPrice', valid.autoAcceptUnitPrice);
  valid.priceTiers?.forEach((tier, index) => sameCurrency(`priceTiers.${index}.unitPrice`, tier.unitPrice));
  const floor = valid.floorUnitPrice;
  if (floor && valid.price && floor.currency === valid.price.currency && floor.amount > valid.price.amount) {
    problems.push({ path: 'floorUnitPrice.amount', message: 'Must not be above the list price: automatic counters concede from the list price down to the floor' });
  }
  if (floor && valid.autoAcceptUnitPrice && floor.currency === valid.autoAcceptUnitPrice.currency && floor.amount > valid.autoAcceptUnitPrice.amount) {
    problems.push({ path: 'floorUnitPrice.amount', message: 'Must not be above the auto-accept price' });
  }
  const strategy = valid.negotiationStrategy;
  if (strategy && strategy !== 'firm' && !given.has('floorUnitPrice')) {
    problems.push({ path: 'negotiationStrategy', message: `${strategy} concedes toward a floor price: set the floor price, or use firm to hold the list price` });
  }
  return problems;
}

/** The value at a dot path of a row (`priceTiers.0.unitPrice.amount`). */
function valueAt(input: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined), input);
}

/**
 * An amount that is not a whole number is refused in words that name its currency's unit (EUR cents,
 * whole yen for JPY), which the field's schema alone does not know: the Money object's own currency, or
 * the row's.
 */
function nameMinorUnits(problems: FieldProblem[], input: Readonly<Record<string, unknown>>, rowCurrency: string | undefined): void {
  for (const problem of problems) {
    if (problem.message !== AMOUNT_NOT_WHOLE || !problem.path.endsWith('.amount')) continue;
    const own = CurrencyCode.safeParse(valueAt(input, `${problem.path.slice(0, -'.amount'.length)}.currency`));
    const currency = own.success ? own.data : rowCurrency;
    const amount = valueAt(input, problem.path);
    if (currency !== undefined && typeof amount === 'number') problem.message = minorUnitProblem(amount, currency) ?? problem.message;
  }
}

export type RowParse = { ok: true; row: FeedProductRow } | { ok: false; problems: FieldProblem[] };

/**
 * A row (JSON fields, or a CSV record converted to them) → the row, or every problem it has, each under
 * its field's path. `given`: the fields the seller filled in (default: those not absent or null in `input`).
 */
export function parseFeedRow(input: Readonly<Record<string, unknown>>, given?: ReadonlySet<string>): RowParse {
  const problems: FieldProblem[] = [];
  const whole = FeedProductRow.safeParse(input);
  const valid: Partial<FeedProductRow> = whole.success ? whole.data : {};
  if (!whole.success) {
    // Field by field, to know which fields are valid for the rules between them.
    const fields = valid as Record<string, unknown>;
    for (const [name, schema] of Object.entries(FeedProductRow.shape) as [RowField, z.ZodMiniType][]) {
      const parsed = schema.safeParse(input[name]);
      if (parsed.success) fields[name] = parsed.data;
      else problems.push(...zodProblems(parsed.error.issues, [name]));
    }
  }
  const filled = given ?? new Set(Object.keys(input).filter((name) => input[name] !== undefined && input[name] !== null));
  problems.push(...rowRuleProblems(valid, input, filled));
  nameMinorUnits(problems, input, valid.price?.currency);
  // In the template's field order, as the seller reads the row.
  const order = (path: string) => FIELD_ORDER.get(path.split('.')[0] as string) ?? FIELD_ORDER.size;
  problems.sort((a, b) => order(a.path) - order(b.path));
  return problems.length === 0 ? { ok: true, row: valid as FeedProductRow } : { ok: false, problems };
}

/** JSON rows' field → the CSV column that carries it, for reporting CSV errors under the column's name. */
export function csvColumnFor(jsonPath: string): string {
  for (const field of FEED_FIELDS) {
    if (field.column && (jsonPath === field.field || jsonPath.startsWith(`${field.field}.`))) return field.column;
  }
  const top = jsonPath.split('.')[0] ?? jsonPath;
  if (top === 'price') return 'price';
  if (top === 'floorUnitPrice') return 'floor_price';
  if (top === 'autoAcceptUnitPrice') return 'auto_accept_price';
  if (top === 'imageUrls') return 'image_urls';
  if (top === 'attributes') return 'attributes';
  return FEED_FIELDS.find((field) => field.field === top)?.column ?? top;
}
