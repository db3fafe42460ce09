// A realistic generated B2B catalog: several sellers in different countries and currencies, about 40
// product types across safety, office, packaging, hardware, cleaning, electronics, food and textiles,
// with near-duplicates (the same kind of product from several sellers and brands, worded differently).
// Deterministic for a seed, so the seed command, the labelled intent set and the benchmarks all see
// the same products. Rows are in the JSON feed format (shared/schemas/feed-rows.ts). Products sold in
// packs say how many pieces a unit holds (`packSize`: pens 50 to a box, wipes 100 to a pack, copy paper
// 500 sheets to a ream…), as their titles and attributes do.

export interface DemoSeller {
  /** Stable handle for tests and the seed command. */
  key: string;
  name: string;
  legalName: string;
  country: string;
  currency: string;
  contactEmail: string;
}

export const DEMO_SELLERS: readonly DemoSeller[] = [
  { key: 'rhein', name: 'Rhein Industrial Supply', legalName: 'Rhein Industriebedarf GmbH', country: 'DE', currency: 'EUR', contactEmail: 'agents@rhein-supply.example' },
  { key: 'lakeshore', name: 'Lakeshore Wholesale', legalName: 'Lakeshore Wholesale Inc.', country: 'US', currency: 'USD', contactEmail: 'agents@lakeshore.example' },
  { key: 'sakura', name: 'Sakura Trading', legalName: 'Sakura Trading K.K.', country: 'JP', currency: 'JPY', contactEmail: 'agents@sakura-trading.example' },
  { key: 'dutchpack', name: 'Dutch Pack & Supply', legalName: 'Dutch Pack B.V.', country: 'NL', currency: 'EUR', contactEmail: 'agents@dutchpack.example' },
  { key: 'thames', name: 'Thames Trade Supplies', legalName: 'Thames Trade Supplies Ltd', country: 'GB', currency: 'GBP', contactEmail: 'agents@thames-trade.example' },
  { key: 'pearl', name: 'Pearl River Manufacturing', legalName: 'Pearl River Manufacturing Co., Ltd.', country: 'CN', currency: 'USD', contactEmail: 'agents@pearl-river.example' },
];

/** US cents → the seller's currency's minor units (rounded). */
const RATE_FROM_USD_CENTS: Record<string, number> = { USD: 1, EUR: 0.92, GBP: 0.79, JPY: 1.5 };

interface ProductType {
  code: string;
  category: string;
  /** Singular and plural nouns; titles use the plural or singular by pattern. */
  noun: [string, string];
  unit: string;
  /** Pieces in one unit sold (a box of 50 pens: 50); absent: 1. */
  packSize?: number;
  /** Price range per unit in US cents. */
  price: [number, number];
  variants: readonly string[];
  sizes?: readonly string[];
  brands: readonly string[];
  extras?: readonly string[];
  attributes: (variant: string, size: string | undefined, random: () => number) => Record<string, string | number | boolean>;
  /** Typical order sizes: min order quantity choices. */
  moq: readonly number[];
  stock: [number, number];
}

const GLOVE_SIZES = ['S', 'M', 'L', 'XL'] as const;
const material = (variant: string) => ({ material: variant.toLowerCase() });

export const PRODUCT_TYPES: readonly ProductType[] = [
  { code: 'GLV-NIT', category: 'safety/gloves', noun: ['glove', 'gloves'], unit: 'each', price: [5, 22], variants: ['Nitrile'], sizes: GLOVE_SIZES, brands: ['Medix', 'SafeHand', 'Gripwell', 'ProTouch'], extras: ['Examination', 'Disposable', 'Powder-Free'], attributes: (v, s, r) => ({ ...material(v), size: s ?? 'M', powderFree: r() < 0.8, thicknessMm: [0.08, 0.1, 0.12][Math.floor(r() * 3)] ?? 0.1 }), moq: [100, 500, 1000], stock: [5_000, 2_000_000] },
  { code: 'GLV-LTX', category: 'safety/gloves', noun: ['glove', 'gloves'], unit: 'each', price: [4, 16], variants: ['Latex'], sizes: GLOVE_SIZES, brands: ['Medix', 'SafeHand', 'Gripwell'], extras: ['Examination', 'Disposable'], attributes: (v, s, r) => ({ ...material(v), size: s ?? 'M', powderFree: r() < 0.5 }), moq: [100, 500, 1000], stock: [5_000, 1_000_000] },
  { code: 'GLV-VNL', category: 'safety/gloves', noun: ['glove', 'gloves'], unit: 'each', price: [3, 10], variants: ['Vinyl'], sizes: GLOVE_SIZES, brands: ['SafeHand', 'ProTouch'], extras: ['Disposable', 'Food-Safe'], attributes: (v, s) => ({ ...material(v), size: s ?? 'M' }), moq: [100, 1000], stock: [10_000, 1_000_000] },
  { code: 'GLV-LTH', category: 'safety/gloves', noun: ['work glove', 'work gloves'], unit: 'pair', price: [300, 950], variants: ['Leather', 'Cowhide Leather'], sizes: GLOVE_SIZES, brands: ['Gripwell', 'Kraftwerk', 'IronGrip'], extras: ['Heavy-Duty', 'Reinforced'], attributes: (v, s) => ({ material: 'leather', size: s ?? 'L' }), moq: [12, 24, 120], stock: [200, 20_000] },
  { code: 'GLV-CUT', category: 'safety/gloves', noun: ['cut-resistant glove', 'cut-resistant gloves'], unit: 'pair', price: [400, 1300], variants: ['HPPE', 'Kevlar'], sizes: GLOVE_SIZES, brands: ['IronGrip', 'Gripwell'], extras: ['Level 5', 'Level 3'], attributes: (v, s) => ({ material: v.toLowerCase(), size: s ?? 'L', cutLevel: 5 }), moq: [12, 60], stock: [200, 10_000] },
  { code: 'MSK-FFP2', category: 'safety/masks', noun: ['mask', 'masks'], unit: 'each', price: [30, 120], variants: ['FFP2', 'FFP3'], brands: ['Medix', 'AirSafe', 'BreatheWell'], extras: ['Respirator', 'Foldable'], attributes: (v) => ({ rating: v }), moq: [20, 100, 500], stock: [1_000, 500_000] },
  { code: 'MSK-SRG', category: 'safety/masks', noun: ['surgical mask', 'surgical masks'], unit: 'each', price: [5, 25], variants: ['3-Ply', 'Type IIR'], brands: ['Medix', 'BreatheWell'], extras: ['Disposable'], attributes: (v) => ({ layers: v === '3-Ply' ? 3 : 4 }), moq: [50, 500], stock: [10_000, 2_000_000] },
  { code: 'MSK-N95', category: 'safety/masks', noun: ['respirator', 'respirators'], unit: 'each', price: [60, 210], variants: ['N95', 'KN95'], brands: ['AirSafe', 'BreatheWell'], extras: ['NIOSH-approved', 'Valved'], attributes: (v) => ({ rating: v }), moq: [20, 200], stock: [1_000, 300_000] },
  { code: 'EYE-GLS', category: 'safety/eyewear', noun: ['safety glasses', 'safety glasses'], unit: 'each', price: [200, 800], variants: ['Clear', 'Tinted', 'Anti-Fog'], brands: ['ClearView', 'Kraftwerk'], attributes: (v) => ({ lens: v.toLowerCase() }), moq: [10, 50], stock: [500, 50_000] },
  { code: 'EYE-GOG', category: 'safety/eyewear', noun: ['safety goggle', 'safety goggles'], unit: 'each', price: [350, 1200], variants: ['Indirect-Vent', 'Sealed'], brands: ['ClearView', 'AirSafe'], attributes: (v) => ({ ventilation: v.toLowerCase() }), moq: [10, 50], stock: [300, 30_000] },
  { code: 'BOOT-SFT', category: 'safety/footwear', noun: ['safety boot', 'safety boots'], unit: 'pair', price: [4000, 12000], variants: ['Steel Toe', 'Composite Toe'], sizes: ['40', '42', '44', '46'], brands: ['Kraftwerk', 'IronGrip', 'TerraStep'], extras: ['S3', 'Waterproof'], attributes: (v, s) => ({ toeCap: v.toLowerCase(), size: s ?? '42' }), moq: [1, 6, 12], stock: [50, 5_000] },
  { code: 'VEST-HV', category: 'safety/clothing', noun: ['high-visibility vest', 'high-visibility vests'], unit: 'each', price: [250, 900], variants: ['Yellow', 'Orange'], sizes: ['M', 'L', 'XL'], brands: ['BrightGuard', 'Kraftwerk'], extras: ['Class 2', 'Reflective'], attributes: (v, s) => ({ color: v.toLowerCase(), size: s ?? 'L' }), moq: [10, 50], stock: [200, 40_000] },
  { code: 'COV-DSP', category: 'safety/clothing', noun: ['coverall', 'coveralls'], unit: 'each', price: [400, 1800], variants: ['Disposable', 'Polypropylene', 'Cotton'], sizes: ['M', 'L', 'XL', 'XXL'], brands: ['BrightGuard', 'Medix'], attributes: (v, s) => ({ material: v.toLowerCase(), size: s ?? 'L' }), moq: [10, 25], stock: [100, 20_000] },
  { code: 'PAP-CPY', category: 'office/paper', noun: ['copy paper', 'copy paper'], unit: 'ream', packSize: 500, price: [300, 900], variants: ['A4', 'Letter'], brands: ['PaperWorks', 'Nordic Mills', 'OfficePro'], extras: ['80 gsm', '75 gsm', 'Recycled', 'Bright White'], attributes: (v, _s, r) => ({ format: v, gsm: r() < 0.7 ? 80 : 75, sheets: 500 }), moq: [5, 10, 50], stock: [500, 100_000] },
  { code: 'NB-SPR', category: 'office/paper', noun: ['notebook', 'notebooks'], unit: 'each', price: [80, 450], variants: ['Spiral', 'Hardcover'], brands: ['PaperWorks', 'OfficePro'], extras: ['A5', 'A4', 'Lined'], attributes: (v) => ({ binding: v.toLowerCase() }), moq: [10, 50], stock: [500, 50_000] },
  { code: 'PEN-BLP', category: 'office/writing', noun: ['ballpoint pen', 'ballpoint pens'], unit: 'box', packSize: 50, price: [150, 800], variants: ['Blue', 'Black', 'Red'], brands: ['OfficePro', 'Inkwell'], extras: ['Box of 50', 'Retractable'], attributes: (v) => ({ color: v.toLowerCase(), perBox: 50 }), moq: [1, 10], stock: [100, 20_000] },
  { code: 'MRK-PRM', category: 'office/writing', noun: ['permanent marker', 'permanent markers'], unit: 'box', packSize: 12, price: [300, 1200], variants: ['Black', 'Assorted'], brands: ['Inkwell', 'OfficePro'], attributes: (v) => ({ color: v.toLowerCase(), perBox: 12 }), moq: [1, 10], stock: [100, 10_000] },
  { code: 'BOX-COR', category: 'packaging/boxes', noun: ['corrugated box', 'corrugated boxes'], unit: 'each', price: [40, 320], variants: ['Single-Wall', 'Double-Wall'], sizes: ['300x200x150 mm', '400x300x200 mm', '600x400x400 mm'], brands: ['BoxCo', 'PackRight', 'Nordic Mills'], extras: ['Kraft', 'Shipping'], attributes: (v, s) => ({ wall: v.toLowerCase(), dimensions: s ?? '400x300x200 mm' }), moq: [50, 100, 500], stock: [1_000, 500_000] },
  { code: 'BOX-MAIL', category: 'packaging/boxes', noun: ['mailer box', 'mailer boxes'], unit: 'each', price: [30, 150], variants: ['White', 'Kraft'], brands: ['BoxCo', 'PackRight'], extras: ['Die-Cut', 'Recyclable'], attributes: (v) => ({ color: v.toLowerCase() }), moq: [100, 500], stock: [1_000, 300_000] },
  { code: 'TAPE-PCK', category: 'packaging/tape', noun: ['packing tape', 'packing tape'], unit: 'roll', price: [90, 400], variants: ['Clear', 'Brown'], brands: ['StickFast', 'PackRight'], extras: ['48 mm x 66 m', 'Acrylic', 'Low-Noise'], attributes: (v) => ({ color: v.toLowerCase(), widthMm: 48 }), moq: [6, 36, 72], stock: [500, 200_000] },
  { code: 'TAPE-MSK', category: 'packaging/tape', noun: ['masking tape', 'masking tape'], unit: 'roll', price: [70, 300], variants: ['Beige', 'Blue'], brands: ['StickFast'], extras: ['Painters', '24 mm'], attributes: (v) => ({ color: v.toLowerCase() }), moq: [12, 48], stock: [500, 100_000] },
  { code: 'PAL-WOD', category: 'packaging/pallets', noun: ['pallet', 'pallets'], unit: 'each', price: [800, 2600], variants: ['Wooden', 'Heat-Treated Wooden'], brands: ['PalletPro', 'Nordic Mills'], extras: ['EUR', 'ISPM 15'], attributes: (v) => ({ material: 'wood', heatTreated: v.startsWith('Heat') }), moq: [10, 50], stock: [100, 10_000] },
  { code: 'FILM-STR', category: 'packaging/stretch-film', noun: ['stretch film', 'stretch film'], unit: 'roll', price: [900, 3200], variants: ['Cast', 'Blown'], brands: ['PackRight', 'WrapMaster'], extras: ['500 mm', '23 micron'], attributes: (v) => ({ type: v.toLowerCase(), widthMm: 500 }), moq: [6, 24], stock: [100, 20_000] },
  { code: 'SCR-WOD', category: 'hardware/fasteners/screws', noun: ['wood screw', 'wood screws'], unit: 'box', packSize: 200, price: [300, 1500], variants: ['Zinc-Plated', 'Stainless Steel'], sizes: ['4x30 mm', '4x40 mm', '5x50 mm'], brands: ['Kraftwerk', 'BoltHaus', 'FixIt'], extras: ['Box of 200', 'Torx'], attributes: (v, s) => ({ finish: v.toLowerCase(), size: s ?? '4x40 mm' }), moq: [1, 10, 50], stock: [100, 50_000] },
  { code: 'SCR-MCH', category: 'hardware/fasteners/screws', noun: ['machine screw', 'machine screws'], unit: 'box', price: [250, 1200], variants: ['Stainless Steel', 'Zinc-Plated'], sizes: ['M4', 'M5', 'M6'], brands: ['BoltHaus', 'FixIt'], attributes: (v, s) => ({ finish: v.toLowerCase(), thread: s ?? 'M5' }), moq: [1, 10], stock: [100, 50_000] },
  { code: 'BLT-HEX', category: 'hardware/fasteners/bolts', noun: ['hex bolt', 'hex bolts'], unit: 'box', price: [400, 2000], variants: ['Stainless Steel', 'Galvanized'], sizes: ['M8', 'M10', 'M12'], brands: ['BoltHaus', 'Kraftwerk'], extras: ['DIN 933', 'Grade 8.8'], attributes: (v, s) => ({ finish: v.toLowerCase(), thread: s ?? 'M10' }), moq: [1, 10], stock: [100, 20_000] },
  { code: 'DRL-CRD', category: 'hardware/tools', noun: ['cordless drill', 'cordless drills'], unit: 'each', price: [5000, 20000], variants: ['18V', '12V'], brands: ['Kraftwerk', 'Voltix', 'FixIt'], extras: ['Brushless', 'with 2 batteries'], attributes: (v) => ({ voltage: Number.parseInt(v, 10) }), moq: [1, 5], stock: [20, 2_000] },
  { code: 'HMR-CLW', category: 'hardware/tools', noun: ['hammer', 'hammers'], unit: 'each', price: [700, 3000], variants: ['Claw', 'Sledge'], brands: ['Kraftwerk', 'FixIt'], extras: ['Fiberglass Handle', '16 oz'], attributes: (v) => ({ type: v.toLowerCase() }), moq: [1, 10], stock: [50, 5_000] },
  { code: 'WIP-DIS', category: 'cleaning/wipes', noun: ['disinfectant wipe', 'disinfectant wipes'], unit: 'pack', packSize: 100, price: [200, 800], variants: ['Alcohol', 'Alcohol-Free'], brands: ['CleanPro', 'Medix', 'SparkleCo'], extras: ['Pack of 100', 'Lemon'], attributes: (v) => ({ alcohol: v === 'Alcohol' }), moq: [10, 48], stock: [500, 100_000] },
  { code: 'SAN-HND', category: 'cleaning/chemicals', noun: ['hand sanitizer', 'hand sanitizers'], unit: 'bottle', price: [200, 900], variants: ['Gel', 'Liquid', 'Foam'], brands: ['CleanPro', 'SparkleCo', 'Medix'], extras: ['500 ml', '70% Alcohol', 'Pump Bottle'], attributes: (v) => ({ form: v.toLowerCase(), volumeMl: 500 }), moq: [12, 24], stock: [500, 100_000] },
  { code: 'CLN-FLR', category: 'cleaning/chemicals', noun: ['floor cleaner', 'floor cleaners'], unit: 'bottle', price: [300, 1500], variants: ['Concentrated', 'Ready-to-Use'], brands: ['CleanPro', 'SparkleCo'], extras: ['5 litre', 'Pine'], attributes: (v) => ({ form: v.toLowerCase() }), moq: [4, 12], stock: [200, 20_000] },
  { code: 'TWL-PAP', category: 'cleaning/paper', noun: ['paper towel', 'paper towels'], unit: 'case', packSize: 24, price: [1500, 4500], variants: ['2-Ply', 'Interfold'], brands: ['Nordic Mills', 'SoftTouch'], extras: ['Case of 24 rolls'], attributes: (v) => ({ ply: v === '2-Ply' ? 2 : 1 }), moq: [1, 10], stock: [100, 10_000] },
  { code: 'CBL-USBC', category: 'electronics/cables', noun: ['USB-C cable', 'USB-C cables'], unit: 'each', price: [200, 1200], variants: ['1 m', '2 m'], brands: ['Voltix', 'LinkWire', 'Cablix'], extras: ['Braided', '100W', 'USB 3.2'], attributes: (v) => ({ lengthM: Number.parseInt(v, 10), connector: 'USB-C' }), moq: [10, 50, 100], stock: [500, 100_000] },
  { code: 'CBL-HDMI', category: 'electronics/cables', noun: ['HDMI cable', 'HDMI cables'], unit: 'each', price: [250, 1500], variants: ['2 m', '5 m'], brands: ['LinkWire', 'Cablix'], extras: ['4K', 'High Speed'], attributes: (v) => ({ lengthM: Number.parseInt(v, 10), connector: 'HDMI' }), moq: [10, 50], stock: [500, 50_000] },
  { code: 'CBL-ETH', category: 'electronics/cables', noun: ['Ethernet cable', 'Ethernet cables'], unit: 'each', price: [150, 900], variants: ['Cat6', 'Cat5e'], sizes: ['1 m', '3 m', '10 m'], brands: ['LinkWire', 'Cablix', 'Voltix'], extras: ['Patch', 'Shielded'], attributes: (v, s) => ({ category: v, length: s ?? '3 m' }), moq: [10, 100], stock: [500, 100_000] },
  { code: 'BAT-AA', category: 'electronics/batteries', noun: ['AA battery', 'AA batteries'], unit: 'pack', packSize: 24, price: [300, 1200], variants: ['Alkaline', 'Lithium', 'Rechargeable NiMH'], brands: ['Voltix', 'PowerCell'], extras: ['Pack of 24', 'Long-Life'], attributes: (v) => ({ chemistry: v.toLowerCase(), size: 'AA' }), moq: [10, 50], stock: [500, 100_000] },
  { code: 'LED-BLB', category: 'electronics/lighting', noun: ['LED bulb', 'LED bulbs'], unit: 'each', price: [100, 600], variants: ['E27', 'E14', 'GU10'], brands: ['Lumina', 'BrightLite', 'Voltix'], extras: ['Warm White', '9W', 'Dimmable'], attributes: (v) => ({ socket: v }), moq: [10, 100], stock: [500, 200_000] },
  { code: 'LED-PNL', category: 'electronics/lighting', noun: ['LED panel', 'LED panels'], unit: 'each', price: [1500, 6000], variants: ['600x600', '300x1200'], brands: ['Lumina', 'BrightLite'], extras: ['40W', 'Flicker-Free'], attributes: (v) => ({ dimensions: v }), moq: [4, 20], stock: [50, 10_000] },
  { code: 'COF-BNS', category: 'food/coffee', noun: ['coffee beans', 'coffee beans'], unit: 'kg', price: [1200, 4200], variants: ['Arabica', 'Robusta', 'Decaf Arabica'], brands: ['Bean & Co', 'Roastery Nord', 'Kilimanjaro Farms'], extras: ['Whole Bean', 'Medium Roast', 'Fair Trade'], attributes: (v) => ({ variety: v.toLowerCase() }), moq: [1, 5, 20], stock: [50, 20_000] },
  { code: 'TEA-GRN', category: 'food/tea', noun: ['green tea', 'green tea'], unit: 'kg', price: [1500, 6000], variants: ['Sencha', 'Matcha', 'Gunpowder'], brands: ['Sakura Leaf', 'Teaworks'], extras: ['Organic', 'Loose Leaf'], attributes: (v) => ({ variety: v.toLowerCase() }), moq: [1, 5], stock: [20, 5_000] },
  { code: 'CUP-PAP', category: 'food/packaging', noun: ['paper cup', 'paper cups'], unit: 'case', price: [1500, 4200], variants: ['8 oz', '12 oz'], brands: ['EcoServe', 'PackRight'], extras: ['Compostable', 'Double-Wall'], attributes: (v) => ({ size: v }), moq: [1, 10], stock: [100, 20_000] },
  { code: 'BRG-BALL', category: 'industrial/bearings', noun: ['ball bearing', 'ball bearings'], unit: 'each', price: [100, 2200], variants: ['6204', '6205', '6306'], brands: ['RotaTech', 'Kraftwerk'], extras: ['2RS Sealed', 'Deep Groove'], attributes: (v) => ({ designation: v }), moq: [10, 100], stock: [500, 100_000] },
  { code: 'OIL-LUB', category: 'industrial/lubricants', noun: ['lubricating oil', 'lubricating oils'], unit: 'litre', price: [400, 1500], variants: ['ISO VG 46', 'ISO VG 68'], brands: ['RotaTech', 'SlickLine'], extras: ['Hydraulic', '20 litre drum'], attributes: (v) => ({ grade: v }), moq: [20, 200], stock: [200, 50_000] },
  { code: 'CHR-OFC', category: 'furniture/office', noun: ['office chair', 'office chairs'], unit: 'each', price: [8000, 32000], variants: ['Ergonomic', 'Mesh'], brands: ['SitWell', 'OfficePro'], extras: ['Adjustable Armrests', 'Lumbar Support'], attributes: (v) => ({ style: v.toLowerCase() }), moq: [1, 5], stock: [10, 2_000] },
  { code: 'TSH-COT', category: 'textiles/apparel', noun: ['T-shirt', 'T-shirts'], unit: 'each', price: [200, 900], variants: ['Cotton', 'Organic Cotton'], sizes: ['S', 'M', 'L', 'XL'], brands: ['WeaveWorks', 'Basics Co'], extras: ['180 gsm', 'Crew Neck'], attributes: (v, s) => ({ material: v.toLowerCase(), size: s ?? 'L' }), moq: [50, 100], stock: [500, 100_000] },
];

export interface GenerateOptions {
  /** Total products over all sellers. */
  products: number;
  sellers?: readonly DemoSeller[];
  seed?: number;
}

export interface DemoFeedRow {
  sku: string;
  title: string;
  description: string;
  category: string;
  brand: string;
  unit: string;
  /** Pieces in one unit sold, for products sold in packs (absent: 1). */
  packSize?: number;
  price: { amount: number; currency: string };
  availableQuantity: number;
  minOrderQuantity: number;
  leadTimeDays: number;
  shipsFrom: string;
  attributes: Record<string, string | number | boolean>;
  negotiable: boolean;
  floorUnitPrice?: { amount: number; currency: string };
  autoAcceptUnitPrice?: { amount: number; currency: string };
  negotiationStrategy?: 'linear' | 'boulware' | 'conceder';
}

/** Mulberry32: a small seeded generator, so the same seed gives the same catalog everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const between = (random: () => number, [low, high]: readonly [number, number]) => low + Math.floor(random() * (high - low + 1));

/** Title wordings, so that sellers describe the same product differently (near-duplicates). */
const TITLE_PATTERNS: readonly ((parts: { brand: string; variant: string; noun: string; extra: string; size: string }) => string)[] = [
  (p) => `${p.brand} ${p.variant} ${p.noun}${p.extra ? `, ${p.extra}` : ''}${p.size ? `, ${p.size}` : ''}`,
  (p) => `${p.variant} ${p.extra ? `${p.extra} ` : ''}${p.noun}${p.size ? ` ${p.size}` : ''} by ${p.brand}`,
  (p) => `${p.brand} ${p.extra ? `${p.extra} ` : ''}${p.variant} ${p.noun}${p.size ? ` (${p.size})` : ''}`,
];

/** Products for each seller, as JSON feed rows. Sellers sell overlapping types, so similar products compete. */
export function generateCatalog(options: GenerateOptions): Map<DemoSeller, DemoFeedRow[]> {
  const sellers = options.sellers ?? DEMO_SELLERS;
  const random = seededRandom(options.seed ?? 42);
  const bySeller = new Map<DemoSeller, DemoFeedRow[]>(sellers.map((seller) => [seller, []]));
  // Each seller carries about two thirds of the types, so most types have several sellers.
  const assortment = new Map(sellers.map((seller) => [seller, PRODUCT_TYPES.filter(() => random() < 0.67)]));
  for (let index = 0; index < options.products; index += 1) {
    const seller = sellers[index % sellers.length] as DemoSeller;
    const types = assortment.get(seller) ?? PRODUCT_TYPES;
    const type = pick(random, types.length > 0 ? types : PRODUCT_TYPES);
    const rows = bySeller.get(seller) as DemoFeedRow[];
    rows.push(productRow(type, seller, rows.length + 1, random));
  }
  return bySeller;
}

function productRow(type: ProductType, seller: DemoSeller, serial: number, random: () => number): DemoFeedRow {
  const brand = pick(random, type.brands);
  const variant = pick(random, type.variants);
  const size = type.sizes ? pick(random, type.sizes) : undefined;
  const extra = type.extras && random() < 0.7 ? pick(random, type.extras) : '';
  const plural = random() < 0.75;
  const noun = plural ? type.noun[1] : type.noun[0];
  const title = pick(random, TITLE_PATTERNS)({ brand, variant, noun: capitalize(noun), extra, size: size ? sizeLabel(type, size) : '' }).replace(/\s+/g, ' ').trim();
  const usdCents = between(random, type.price);
  const currency = seller.currency;
  const amount = Math.max(1, Math.round(usdCents * (RATE_FROM_USD_CENTS[currency] ?? 1)));
  const negotiable = random() < 0.85;
  // Some sellers ship part of their stock from a warehouse in another country.
  const shipsFrom = random() < 0.85 ? seller.country : pick(random, ['DE', 'NL', 'US', 'CN', 'PL', 'VN', 'IT', 'FR']);
  const row: DemoFeedRow = {
    sku: `${type.code}-${String(serial).padStart(6, '0')}`,
    title,
    description: `${variant} ${type.noun[1]} from ${brand}${extra ? `, ${extra.toLowerCase()}` : ''}. ${describe(type)}`,
    category: type.category,
    brand,
    unit: type.unit,
    // From the type, not drawn: the generated catalog stays the same for a seed.
    ...(type.packSize ? { packSize: type.packSize } : {}),
    price: { amount, currency },
    availableQuantity: between(random, type.stock),
    minOrderQuantity: pick(random, type.moq),
    leadTimeDays: pick(random, [1, 2, 3, 5, 7, 10, 14, 21, 30, 45]),
    shipsFrom,
    attributes: type.attributes(variant, size, random),
    negotiable,
  };
  if (negotiable) {
    row.floorUnitPrice = { amount: Math.max(1, Math.floor(amount * 0.8)), currency };
    row.autoAcceptUnitPrice = { amount: Math.max(1, Math.floor(amount * 0.95)), currency };
    // Each conceding strategy on a share of the catalog, without drawing from the generator (the catalog stays the same).
    row.negotiationStrategy = (['linear', 'boulware', 'conceder'] as const)[amount % 3];
  }
  return row;
}

const sizeLabel = (type: ProductType, size: string) => (type.category === 'safety/gloves' || type.category === 'textiles/apparel' || type.category === 'safety/clothing' ? `Size ${size}` : size);
const capitalize = (text: string) => (/^[a-z]/.test(text) ? text.replace(/(^|\s)([a-z])/g, (_m, space: string, letter: string) => space + letter.toUpperCase()) : text);

const DESCRIPTIONS: Record<string, string> = {
  safety: 'Meets EN standards for workplace protection; packed for distribution.',
  office: 'Everyday office supply for businesses, schools and print rooms.',
  packaging: 'Packaging material for warehouses, e-commerce fulfilment and shipping.',
  hardware: 'For construction, maintenance and assembly lines.',
  cleaning: 'Professional cleaning supply for facilities and hospitality.',
  electronics: 'Tested for reliability; RoHS compliant.',
  food: 'Food service supply for cafés, offices and catering.',
  industrial: 'Industrial component for machinery and maintenance.',
  furniture: 'Commercial-grade furniture with a 5-year warranty.',
  textiles: 'Blank apparel for uniforms and printing.',
};
const describe = (type: ProductType) => DESCRIPTIONS[type.category.split('/')[0] as string] ?? '';
