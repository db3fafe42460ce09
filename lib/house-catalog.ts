// The sandbox house seller's standing catalog ("Sandbox Supply Co.", contract §5.3), from the demo
// catalog's generator (lib/demo/catalog.ts): 240 active products over its every category, priced in
// EUR, USD and GBP and shipped from warehouses in the Netherlands, Germany, the United States and
// Great Britain (and, for part of the stock, a few other countries), with negotiation policies of every
// strategy. Deterministic: the same rows at every synth and every start, so the house setup loads
// them only when the generator changes (their digest is the catalog's version). Built into
// house-catalog.json (lib/bundled-files.ts) for the houseSetup worker.
import { generateCatalog, type DemoFeedRow, type DemoSeller } from './demo/catalog.ts';

/** The house seller's warehouses: each prices its stock in its own currency. */
const WAREHOUSES: readonly DemoSeller[] = [
  { key: 'nl', name: 'Sandbox Supply Co.', legalName: 'Sandbox Supply Co.', country: 'NL', currency: 'EUR', contactEmail: 'house-seller@sandbox.agent-marketplace.example' },
  { key: 'us', name: 'Sandbox Supply Co.', legalName: 'Sandbox Supply Co.', country: 'US', currency: 'USD', contactEmail: 'house-seller@sandbox.agent-marketplace.example' },
  { key: 'gb', name: 'Sandbox Supply Co.', legalName: 'Sandbox Supply Co.', country: 'GB', currency: 'GBP', contactEmail: 'house-seller@sandbox.agent-marketplace.example' },
  { key: 'de', name: 'Sandbox Supply Co.', legalName: 'Sandbox Supply Co.', country: 'DE', currency: 'EUR', contactEmail: 'house-seller@sandbox.agent-marketplace.example' },
];

export const HOUSE_CATALOG_PRODUCTS = 240;

export type HouseCatalogRow = Omit<DemoFeedRow, 'negotiationStrategy'> & { status: 'active'; negotiationStrategy?: 'firm' | 'linear' | 'boulware' | 'conceder' };

/** The house catalog as JSON feed rows. Every fourth negotiable row holds its price (`firm`); the others concede as the generator chose. */
export function houseCatalogRows(): HouseCatalogRow[] {
  const bySeller = generateCatalog({ products: HOUSE_CATALOG_PRODUCTS, sellers: WAREHOUSES, seed: 35 });
  let negotiable = 0;
  return [...bySeller].flatMap(([warehouse, rows]) =>
    rows.map((row) => {
      const strategy = row.negotiable && negotiable++ % 4 === 0 ? 'firm' : row.negotiationStrategy;
      const { negotiationStrategy: _chosen, ...rest } = row;
      return {
        ...rest,
        sku: `SBX-${warehouse.country}-${row.sku}`,
        description: `${row.description} Sold by Sandbox Supply Co., the sandbox's house seller.`,
        status: 'active' as const,
        ...(strategy ? { negotiationStrategy: strategy } : {}),
      };
    }),
  );
}
