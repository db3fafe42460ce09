// The feed templates (GET /v1/seller/templates/csv|json), built from the one table of feed fields:
// every column with its type, whether it is required, its default and an example, and a file with
// two example rows that is a valid feed as it is.
import { FEED_FIELDS } from '../schemas/feed-rows.ts';
import type { FeedFormat } from '../schemas/catalog.ts';

export interface FeedTemplate {
  format: FeedFormat;
  filename: string;
  content: string;
  fields: { name: string; type: string; required: boolean; default: string | number | boolean | null; example: unknown; description: string }[];
}

/** A second example row: a product sold by weight in euros, from another country. */
const SECOND_ROW: Record<string, string> = {
  sku: 'ABS-GRN-25KG',
  title: 'Absorbent granules, 25 kg sack',
  description: 'Oil and chemical spill absorbent',
  category: 'safety/spill-control',
  brand: 'Acme',
  unit: 'kg',
  pack_size: '',
  price: '1.85',
  currency: 'EUR',
  available_quantity: '1200',
  min_order_quantity: '25',
  lead_time_days: '5',
  ships_from: 'NL',
  image_urls: 'https://cdn.example.com/abs-25.jpg',
  attributes: 'material=clay;absorbencyLitresPerKg=0.9',
  negotiable: 'false',
  floor_price: '',
  auto_accept_price: '',
  negotiation_strategy: '',
  status: 'active',
};

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

function csvTemplate(): FeedTemplate {
  const columns = FEED_FIELDS.filter((field) => field.column);
  const header = columns.map((field) => field.column as string);
  const first = columns.map((field) => field.csvExample ?? '');
  const second = header.map((column) => SECOND_ROW[column] ?? '');
  return {
    format: 'csv',
    filename: 'agent-marketplace-feed-template.csv',
    content: `${[header, first, second].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`,
    fields: columns.map((field) => ({
      name: field.column as string,
      type: field.csvType as string,
      required: field.required,
      default: field.default,
      example: field.csvExample,
      description: field.description,
    })),
  };
}

function jsonTemplate(): FeedTemplate {
  const first: Record<string, unknown> = {};
  for (const field of FEED_FIELDS) {
    if (field.field === 'price.amount') first.price = { amount: field.jsonExample, currency: 'USD' };
    else if (field.field !== 'price.currency') first[field.field] = field.jsonExample;
  }
  const second = {
    sku: 'ABS-GRN-25KG',
    title: 'Absorbent granules, 25 kg sack',
    category: 'safety/spill-control',
    brand: 'Acme',
    unit: 'kg',
    price: { amount: 185, currency: 'EUR' },
    availableQuantity: 1200,
    minOrderQuantity: 25,
    leadTimeDays: 5,
    shipsFrom: 'NL',
    attributes: { material: 'clay', absorbencyLitresPerKg: 0.9 },
    negotiable: false,
  };
  const fields = FEED_FIELDS.filter((field) => field.field !== 'price.currency').map((field) => ({
    name: field.field === 'price.amount' ? 'price' : field.field,
    type: field.field === 'price.amount' ? 'money' : field.jsonType,
    required: field.required,
    default: field.default,
    example: field.field === 'price.amount' ? { amount: field.jsonExample, currency: 'USD' } : field.jsonExample,
    description: field.field === 'price.amount' ? 'List unit price as Money: {amount in minor units, currency (ISO 4217)}. Every price of the row is in this currency.' : field.description,
  }));
  return {
    format: 'json',
    filename: 'agent-marketplace-feed-template.json',
    content: `${JSON.stringify({ products: [first, second] }, null, 2)}\n`,
    fields,
  };
}

export function feedTemplate(format: FeedFormat): FeedTemplate {
  return format === 'csv' ? csvTemplate() : jsonTemplate();
}
