// Feed rows from either format to one validated shape. A CSV record (strings by column) is first
// converted to the JSON row's shape (prices from major to minor units with the currency's exponent,
// `|` lists, `key=value;…` attributes, typed cells), then both go through the same field schemas and
// rules. A row's every problem is reported, each under the name the seller used: the CSV column, or
// the JSON field path — not only the first one met.
import type { FeedRowError } from '../schemas/catalog.ts';
import { csvColumnFor, CSV_COLUMNS, FEED_FIELDS, JSON_ROW_FIELDS, parseFeedRow, type FeedProductRow } from '../schemas/feed-rows.ts';
import { majorToMinor, minorUnitDigits } from '../schemas/money.ts';

export type RowOutcome = { ok: true; row: FeedProductRow } | { ok: false; errors: FeedRowError[] };

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };
const INTEGER = /^\d+$/;
const NUMBER = /^-?\d+(?:\.\d+)?$/;
const DECIMAL = /^\d+(?:\.\d+)?$/;

/** `material=nitrile;size=M;powderFree=true;thicknessMm=0.1` → typed attributes, or every malformed pair. */
export function parseAttributes(cell: string): { value: Record<string, string | number | boolean> } | { problem: string } {
  const attributes: Record<string, string | number | boolean> = {};
  const problems: string[] = [];
  for (const pair of cell.split(';')) {
    if (pair.trim() === '') continue;
    const separator = pair.indexOf('=');
    if (separator <= 0) {
      problems.push(`"${pair.trim()}" is not key=value`);
      continue;
    }
    const key = pair.slice(0, separator).trim();
    const raw = pair.slice(separator + 1).trim();
    if (key in attributes) {
      problems.push(`the attribute ${key} appears twice`);
      continue;
    }
    const lower = raw.toLowerCase();
    attributes[key] = lower === 'true' ? true : lower === 'false' ? false : NUMBER.test(raw) && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  }
  if (problems.length === 0) return { value: attributes };
  const text = problems.join('; ');
  return { problem: `${text.charAt(0).toUpperCase()}${text.slice(1)}; write pairs like material=nitrile;size=M` };
}

function csvError(row: number, column: string, message: string): FeedRowError {
  return { row, field: column, message };
}

/**
 * A CSV record (cells by column name; empty cells absent) → a validated row or its errors.
 * `undecodable`: columns whose cells are not UTF-8 (absent from `record`), each reported once.
 */
export function validateCsvRecord(record: Readonly<Record<string, string>>, row: number, undecodable: readonly string[] = []): RowOutcome {
  const errors: FeedRowError[] = undecodable.map((column) =>
    csvError(row, column, 'Is not UTF-8 text: the cell holds bytes of another encoding (such as Latin-1 or Windows-1252); save the file as CSV UTF-8'),
  );
  const cell = (column: string): string | undefined => {
    const value = record[column]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const input: Record<string, unknown> = {};
  const integer = (column: string, field: string) => {
    const value = cell(column);
    if (value === undefined) return;
    if (!INTEGER.test(value)) errors.push(csvError(row, column, `Must be a whole number written in digits, not "${value}"`));
    else input[field] = Number(value);
  };

  for (const [column, field] of [['sku', 'sku'], ['title', 'title'], ['description', 'description'], ['category', 'category'], ['brand', 'brand'], ['unit', 'unit'], ['ships_from', 'shipsFrom'], ['status', 'status'], ['negotiation_strategy', 'negotiationStrategy']] as const) {
    const value = cell(column);
    if (value !== undefined) input[field] = column === 'status' || column === 'negotiation_strategy' ? value.toLowerCase() : column === 'ships_from' ? value.toUpperCase() : value;
  }
  // The title and description may hold line breaks only in the description.
  if (record.description !== undefined && cell('description') !== undefined) input.description = record.description.trim();

  integer('pack_size', 'packSize');
  integer('available_quantity', 'availableQuantity');
  integer('min_order_quantity', 'minOrderQuantity');
  integer('lead_time_days', 'leadTimeDays');

  const currency = cell('currency')?.toUpperCase();
  const digits = currency === undefined ? undefined : minorUnitDigits(currency);
  if (currency === undefined) {
    if (!undecodable.includes('currency')) errors.push(csvError(row, 'currency', 'Required: the currency of the row’s prices, such as USD'));
  }
  else if (digits === undefined) errors.push(csvError(row, 'currency', `"${currency}" is not an ISO 4217 currency code; use a code such as USD, EUR or JPY`));
  /** Price cells that hold a decimal but could not be converted for want of a currency: the currency's error covers them. */
  const unconverted = new Set<string>();
  const money = (column: string, field: string) => {
    const value = cell(column);
    if (value === undefined) return;
    if (currency === undefined || digits === undefined) {
      if (DECIMAL.test(value)) unconverted.add(column);
      else errors.push(csvError(row, column, `Must be a decimal in major units, such as 12.50; got "${value}"`));
      return;
    }
    const amount = majorToMinor(value, currency);
    if (amount === undefined) {
      const example = digits === 0 ? '1250' : `12.${'5'.padEnd(digits, '0')}`;
      errors.push(csvError(row, column, `Must be a decimal in major units with at most ${digits} decimal place${digits === 1 ? '' : 's'} for ${currency}, such as ${example}; got "${value}"`));
    } else input[field] = { amount, currency };
  };
  money('price', 'price');
  money('floor_price', 'floorUnitPrice');
  money('auto_accept_price', 'autoAcceptUnitPrice');

  const images = cell('image_urls');
  if (images !== undefined) input.imageUrls = images.split('|').map((url) => url.trim()).filter((url) => url !== '');
  const attributes = cell('attributes');
  if (attributes !== undefined) {
    const parsed = parseAttributes(attributes);
    if ('problem' in parsed) errors.push(csvError(row, 'attributes', parsed.problem));
    else input.attributes = parsed.value;
  }
  const negotiable = cell('negotiable');
  if (negotiable !== undefined) {
    const value = BOOLEAN_WORDS[negotiable.toLowerCase()];
    if (value === undefined) errors.push(csvError(row, 'negotiable', `Must be true or false, not "${negotiable}"`));
    else input.negotiable = value;
  }

  // Cells already reported (or covered by the currency's error) were left out of `input`: their fields'
  // "Required" would only repeat that. Every other problem of the row is reported under its column.
  const reported = new Set([...errors.map((error) => error.field), ...unconverted]);
  // The fields whose cells have a value, converted or not.
  const given = new Set(FEED_FIELDS.flatMap((field) => (field.column && (cell(field.column) !== undefined || undecodable.includes(field.column)) ? [field.field.split('.')[0] as string] : [])));
  const parsed = parseFeedRow(input, given);
  if (parsed.ok && errors.length === 0) return { ok: true, row: parsed.row };
  if (!parsed.ok) {
    for (const problem of parsed.problems) {
      const column = csvColumnFor(problem.path);
      if (reported.has(column) && input[problem.path.split('.')[0] as string] === undefined) continue;
      const message = problem.message.startsWith('Required') ? 'Required: this column must have a value' : problem.message;
      errors.push(csvError(row, column, problem.path.includes('.') && column === 'image_urls' ? `Image ${Number(problem.path.split('.')[1]) + 1}: ${message}` : message));
    }
  }
  // In the template's column order, as the seller reads the row.
  const order = (field: string | null) => (field === null ? CSV_COLUMNS.length : CSV_COLUMNS.indexOf(field) === -1 ? CSV_COLUMNS.length : CSV_COLUMNS.indexOf(field));
  return { ok: false, errors: dedupe(errors).sort((a, b) => order(a.field) - order(b.field)) };
}

/** A JSON row → a validated row or its errors (field paths as in the row), plus the unknown fields it has. */
export function validateJsonRow(value: unknown, row: number): RowOutcome & { unknownFields: string[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, errors: [{ row, field: null, message: 'Each entry of products must be an object with sku, title, price and availableQuantity' }], unknownFields: [] };
  }
  const unknownFields = Object.keys(value).filter((key) => !JSON_ROW_FIELDS.includes(key));
  const parsed = parseFeedRow(value as Record<string, unknown>);
  if (parsed.ok) return { ok: true, row: parsed.row, unknownFields };
  return { ok: false, errors: dedupe(parsed.problems.map((problem) => ({ row, field: problem.path || null, message: problem.message }))), unknownFields };
}

function dedupe(errors: FeedRowError[]): FeedRowError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${error.field}\u0000${error.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Known CSV columns, for telling unknown ones apart. */
export const KNOWN_CSV_COLUMNS: ReadonlySet<string> = new Set(FEED_FIELDS.flatMap((field) => (field.column ? [field.column] : [])));
