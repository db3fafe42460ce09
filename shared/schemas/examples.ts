// One consistent example marketplace for the route rows' `examples`: a German seller of nitrile gloves
// and a buyer, whose ids flow from the feed to search, negotiation, order and webhooks, so that an
// agent reading the API document can follow one story through every operation. Prices are integers
// in the currency's minor unit (EUR cents). Each route's document (routeDocument() beside its row)
// takes what it needs; the OpenAPI document, llms.txt and the MCP tools read them, no function does.

const SELLER_ID = 'agt_01M83T4CM0G5QCN6ZW92TBMJ07';
const BUYER_ID = 'agt_01M83T6770RB4X4RJFWXG49JCV';
const FEED_ID = 'feed_01M83T81T0KR7DB33F3ZQMKNC8';
const PRODUCT_ID = 'prd_01M83T9WD0S3SHGK39V7361XHA';
const OFFER_ID = 'ofr_01M83TBQ00SGNK6B3E5ANAP9QW';
const WEBHOOK_ID = 'whk_01M83TH6S0D45S2E8TEBHX8NHR';
const SESSION_ID = 'neg_01M83TK1C0AGPSWHZZWGW1WEGM';
const EVENT_ID = 'evt_01M83TMVZ0KAWZ2R4PPHTGTRWW';
const DELIVERY_ID = 'dlv_01M83TMVZ0FR9RAD0FP0RS7QKV';
const ORDER_ID = 'ord_01M83TRH50MAGDC7K060BRRBKW';
const AUDIT_CREATE_ID = 'aud_01M83TTBR0VGZ63V71DFEQZ6HZ';
const AUDIT_CONFIRM_ID = 'aud_01M83TW6B0BSME3XZGPFJFTCDY';
const REQUEST_ID = 'req_01M83TY0Y0TX5XRW8ET1FYQJBT';
const MAIN_KEY_ID = 'key_01M83T6770QW3H8ZKD2M4N5P6R';
const RESTRICTED_KEY_ID = 'key_01M83TE1B0R4W9D2Y7C6K5H3JN';

/** The ids of the example marketplace, by what they name. */
export const EXAMPLE_IDS = {
  seller: SELLER_ID,
  buyer: BUYER_ID,
  feed: FEED_ID,
  product: PRODUCT_ID,
  offer: OFFER_ID,
  webhook: WEBHOOK_ID,
  session: SESSION_ID,
  event: EVENT_ID,
  delivery: DELIVERY_ID,
  order: ORDER_ID,
  auditCreate: AUDIT_CREATE_ID,
  auditConfirm: AUDIT_CONFIRM_ID,
  request: REQUEST_ID,
  mainKey: MAIN_KEY_ID,
  restrictedKey: RESTRICTED_KEY_ID,
} as const;

export const EXAMPLE_ORGANIZATIONS = {
  seller: { legalName: 'Rhein Safety Supply GmbH', country: 'DE' },
  buyer: { legalName: 'Acme Manufacturing GmbH', country: 'DE' },
} as const;

export const EXAMPLE_SELLER_REGISTRATION = {
  name: 'Rhein Safety catalog agent',
  role: 'seller',
  organization: EXAMPLE_ORGANIZATIONS.seller,
  contactEmail: 'catalog@rhein-safety.example',
} as const;

export const EXAMPLE_BUYER_REGISTRATION = {
  name: 'Acme procurement agent',
  role: 'buyer',
  organization: EXAMPLE_ORGANIZATIONS.buyer,
  contactEmail: 'procurement@acme.example',
} as const;

export const EXAMPLE_BUYER = {
  agentId: BUYER_ID,
  ...EXAMPLE_BUYER_REGISTRATION,
  plan: 'free',
  environment: 'test',
  apiKeyPrefix: 'mk_test_6eYS',
  createdAt: '2026-11-23T09:01:00.000Z',
  updatedAt: '2026-11-23T09:01:00.000Z',
} as const;

/** The buyer after changing its contact e-mail: what PATCH /v1/agents/me answers (GET adds the key that asks: EXAMPLE_BUYER_PROFILE). */
export const EXAMPLE_UPDATED_BUYER = { ...EXAMPLE_BUYER, contactEmail: 'buying@acme.example', updatedAt: '2026-11-23T09:30:00.000Z' } as const;

/** The buyer's main key as a list of keys shows it. */
export const EXAMPLE_MAIN_KEY = { keyId: MAIN_KEY_ID, kind: 'main' } as const;

/** The buyer's restricted key for its reorder program: search, negotiate, order; 500 EUR a day, approval above 200 EUR. */
export const EXAMPLE_RESTRICTED_KEY = {
  keyId: RESTRICTED_KEY_ID,
  kind: 'restricted',
  name: 'Reorder bot',
  apiKeyPrefix: 'mk_test_Rk3m',
  scopes: ['catalog:read', 'negotiations:write', 'orders:write'],
  limits: { spendPerDay: { amount: 50000, currency: 'EUR' }, approvalAbove: { amount: 20000, currency: 'EUR' } },
  status: 'active',
  expiresAt: null,
  createdAt: '2026-11-23T09:03:00.000Z',
  lastUsedAt: '2026-11-23T09:11:00.000Z',
  revokedAt: null,
} as const;

/** GET /v1/agents/me with the buyer's main key, after the PATCH: the profile and the key that asked (a restricted key's has its name, scopes, limits, expiry). */
export const EXAMPLE_BUYER_PROFILE = {
  ...EXAMPLE_UPDATED_BUYER,
  key: { keyId: EXAMPLE_MAIN_KEY.keyId, kind: 'main', name: null, scopes: null, limits: null, expiresAt: null },
} as const;

/** An API key as registration and rotation show it, once (40 base62 characters after the prefix). */
export const EXAMPLE_API_KEY = 'mk_test_6eYSk2Xw9QpL4vN8tR1mZc7Bf3Hd5Jg0AaEoW2x4';

export const EXAMPLE_PRODUCT = {
  productId: PRODUCT_ID,
  sellerId: SELLER_ID,
  sku: 'GLV-NIT-M-100',
  title: 'Nitrile gloves, size M, box of 100',
  description: 'Powder-free, 0.1 mm',
  category: 'safety/gloves',
  brand: 'Rhein Safety',
  attributes: { material: 'nitrile', size: 'M' },
  unit: 'box',
  packSize: 100,
  price: { amount: 1250, currency: 'EUR' },
  availableQuantity: 5000,
  minOrderQuantity: 10,
  leadTimeDays: 3,
  shipsFrom: 'DE',
  imageUrls: ['https://cdn.rhein-safety.example/glv.jpg'],
  status: 'active',
  sourceFeedId: FEED_ID,
  createdAt: '2026-11-23T09:02:03.512Z',
  updatedAt: '2026-11-23T09:02:03.512Z',
} as const;

export const EXAMPLE_OFFER = {
  offerId: OFFER_ID,
  productId: PRODUCT_ID,
  sellerId: SELLER_ID,
  unitPrice: { amount: 1250, currency: 'EUR' },
  minQuantity: 10,
  priceTiers: [{ minQuantity: 200, unitPrice: { amount: 1150, currency: 'EUR' } }],
  negotiable: true,
  validUntil: null,
  status: 'active',
  createdAt: '2026-11-23T09:02:03.512Z',
  updatedAt: '2026-11-23T09:02:03.512Z',
} as const;

/** One row of a JSON feed: the product and offer above as the seller uploads them. */
export const EXAMPLE_FEED_ROW = {
  sku: EXAMPLE_PRODUCT.sku,
  title: EXAMPLE_PRODUCT.title,
  description: EXAMPLE_PRODUCT.description,
  category: EXAMPLE_PRODUCT.category,
  brand: EXAMPLE_PRODUCT.brand,
  unit: 'box',
  packSize: 100,
  price: { amount: 1250, currency: 'EUR' },
  availableQuantity: 5000,
  minOrderQuantity: 10,
  leadTimeDays: 3,
  shipsFrom: 'DE',
  imageUrls: EXAMPLE_PRODUCT.imageUrls,
  attributes: EXAMPLE_PRODUCT.attributes,
  priceTiers: EXAMPLE_OFFER.priceTiers,
  floorUnitPrice: { amount: 1050, currency: 'EUR' },
  autoAcceptUnitPrice: { amount: 1200, currency: 'EUR' },
} as const;

export const EXAMPLE_FEED = {
  feedId: FEED_ID,
  sellerId: SELLER_ID,
  format: 'json',
  status: 'completed',
  filename: 'catalog-2026-11.json',
  sizeBytes: 684,
  rowsTotal: 1,
  rowsSucceeded: 1,
  rowsFailed: 0,
  errors: [],
  warnings: [],
  attempts: 1,
  failureReason: null,
  createdAt: '2026-11-23T09:02:00.000Z',
  startedAt: '2026-11-23T09:02:00.482Z',
  completedAt: '2026-11-23T09:02:03.512Z',
} as const;

export const EXAMPLE_QUEUED_FEED = {
  ...EXAMPLE_FEED,
  status: 'queued',
  rowsTotal: 0,
  rowsSucceeded: 0,
  attempts: 0,
  startedAt: null,
  completedAt: null,
} as const;

const OPENING_MOVE = {
  round: 1,
  by: 'buyer',
  action: 'propose',
  unitPrice: 1100,
  quantity: 500,
  message: 'For our Q1 stock',
  automatic: false,
  at: '2026-11-23T09:08:00.000Z',
} as const;
const SELLER_COUNTER = { ...OPENING_MOVE, round: 2, by: 'seller', action: 'counter', unitPrice: 1160, message: null, at: '2026-11-23T09:09:30.000Z' } as const;
const BUYER_ACCEPT = { ...SELLER_COUNTER, by: 'buyer', action: 'accept', message: 'Agreed', at: '2026-11-23T09:10:00.000Z' } as const;

/** The session as the buyer opened it: the seller must answer. */
export const EXAMPLE_OPEN_SESSION = {
  sessionId: SESSION_ID,
  offerId: OFFER_ID,
  productId: PRODUCT_ID,
  sku: EXAMPLE_PRODUCT.sku,
  title: EXAMPLE_PRODUCT.title,
  buyerId: BUYER_ID,
  sellerId: SELLER_ID,
  status: 'open',
  currency: 'EUR',
  quantity: 500,
  unitPrice: 1100,
  turn: 'seller',
  round: 1,
  maxRounds: 20,
  history: [OPENING_MOVE],
  expiresAt: '2026-11-26T09:08:00.000Z',
  acceptedAt: null,
  orderId: null,
  createdAt: '2026-11-23T09:08:00.000Z',
  updatedAt: '2026-11-23T09:08:00.000Z',
} as const;

/** After the seller's counter-offer: the buyer must answer. */
export const EXAMPLE_COUNTERED_SESSION = {
  ...EXAMPLE_OPEN_SESSION,
  unitPrice: 1160,
  turn: 'buyer',
  round: 2,
  history: [OPENING_MOVE, SELLER_COUNTER],
  expiresAt: '2026-11-26T09:09:30.000Z',
  updatedAt: '2026-11-23T09:09:30.000Z',
} as const;

/** After the buyer accepted the counter: ready to order. */
export const EXAMPLE_ACCEPTED_SESSION = {
  ...EXAMPLE_COUNTERED_SESSION,
  status: 'accepted',
  turn: null,
  history: [OPENING_MOVE, SELLER_COUNTER, BUYER_ACCEPT],
  expiresAt: null,
  acceptedAt: '2026-11-23T09:10:00.000Z',
  updatedAt: '2026-11-23T09:10:00.000Z',
} as const;

export const EXAMPLE_SHIPPING_ADDRESS = {
  name: 'Acme Manufacturing GmbH',
  line1: 'Industriestrasse 12',
  city: 'Köln',
  postalCode: '50667',
  country: 'DE',
} as const;

/** The order placed from the accepted session: 500 boxes at 11.60 EUR, 5,800.00 EUR in all. */
export const EXAMPLE_ORDER = {
  orderId: ORDER_ID,
  sessionId: SESSION_ID,
  offerId: OFFER_ID,
  buyerId: BUYER_ID,
  sellerId: SELLER_ID,
  items: [{ productId: PRODUCT_ID, sku: EXAMPLE_PRODUCT.sku, title: EXAMPLE_PRODUCT.title, quantity: 500, unitPrice: 1160 }],
  totalAmount: { amount: 580000, currency: 'EUR' },
  status: 'pending',
  shipping: null,
  cancellation: null,
  buyerReference: 'PO-2026-0042',
  shippingAddress: null,
  createdAt: '2026-11-23T09:11:00.000Z',
  updatedAt: '2026-11-23T09:11:00.000Z',
} as const;

/** An order its buyer's reorder bot placed over the key's approvalAbove (200.00 EUR): it waits for the main key. */
export const EXAMPLE_AWAITING_ORDER = {
  ...EXAMPLE_ORDER,
  items: [{ productId: PRODUCT_ID, sku: EXAMPLE_PRODUCT.sku, title: EXAMPLE_PRODUCT.title, quantity: 25, unitPrice: 1200 }],
  totalAmount: { amount: 30000, currency: 'EUR' },
  status: 'awaiting_approval',
  buyerReference: null,
  approval: {
    keyId: RESTRICTED_KEY_ID,
    keyName: 'Reorder bot',
    approvalAbove: { amount: 20000, currency: 'EUR' },
    expiresAt: '2026-11-26T09:11:00.000Z',
    decision: null,
    decidedAt: null,
    decidedByKeyId: null,
    reason: null,
  },
} as const;

export const EXAMPLE_SHIPPING = {
  carrier: 'DHL',
  trackingNumber: '00340434161094042557',
  trackingUrl: 'https://www.dhl.de/track?piececode=00340434161094042557',
  shippedAt: '2026-11-24T14:30:00.000Z',
} as const;

export const EXAMPLE_SUBSCRIPTION = {
  id: WEBHOOK_ID,
  url: 'https://hooks.rhein-safety.example/marketplace',
  events: ['order.created', 'negotiation.started', 'negotiation.accepted'],
  description: 'Order desk',
  active: true,
  failingSince: null,
  disabledReason: null,
  disabledAt: null,
  createdAt: '2026-11-23T09:05:00.000Z',
  updatedAt: '2026-11-23T09:05:00.000Z',
} as const;

/** The delivery of order.created to the seller's subscription, delivered at the first attempt. */
export const EXAMPLE_DELIVERY = {
  deliveryId: DELIVERY_ID,
  subscriptionId: WEBHOOK_ID,
  eventId: EVENT_ID,
  eventType: 'order.created',
  status: 'delivered',
  attempts: [{ at: '2026-11-23T09:11:00.418Z', statusCode: 200, error: null, durationMs: 84, responseBody: 'ok', manual: false }],
  nextAttemptAt: null,
  createdAt: '2026-11-23T09:11:00.160Z',
  updatedAt: '2026-11-23T09:11:00.502Z',
} as const;

/** The order.created event as delivered (the envelope of every webhook delivery and event). */
export const EXAMPLE_ORDER_CREATED_EVENT = {
  id: EVENT_ID,
  type: 'order.created',
  timestamp: '2026-11-23T09:11:00.000Z',
  data: {
    orderId: ORDER_ID,
    buyerId: BUYER_ID,
    sellerId: SELLER_ID,
    totalAmount: { amount: 580000, currency: 'EUR' },
    items: EXAMPLE_ORDER.items,
  },
} as const;

/** The price field as the CSV template describes it. */
const CSV_PRICE_FIELD = {
  name: 'price',
  type: 'decimal',
  required: true,
  default: null,
  example: '12.50',
  description: 'List unit price: a decimal in major units (12.50), with no more decimals than the currency has (JPY none, BHD three).',
} as const;

/** The CSV template's envelope, cut to one field and one row. */
export const EXAMPLE_CSV_TEMPLATE = {
  format: 'csv',
  filename: 'agent-marketplace-feed-template.csv',
  content: 'sku,title,unit,price,currency,available_quantity\r\nGLV-NIT-M-100,"Nitrile gloves, size M, box of 100",box,12.50,USD,5000\r\n',
  fields: [CSV_PRICE_FIELD],
} as const;

/** The JSON template's envelope, cut to one field and one row. */
export const EXAMPLE_JSON_TEMPLATE = {
  format: 'json',
  filename: 'agent-marketplace-feed-template.json',
  content: '{"products":[{"sku":"GLV-NIT-M-100","title":"Nitrile gloves, size M, box of 100","unit":"box","price":{"amount":1250,"currency":"USD"},"availableQuantity":5000}]}',
  fields: [{ ...CSV_PRICE_FIELD, type: 'money', example: { amount: 1250, currency: 'USD' }, description: 'List unit price as Money: {amount in minor units, currency (ISO 4217)}.' }],
} as const;

const RFQ_ID = 'rfq_01M83TM3YQ5F0V7D9H2J4K6N8P';
const QUOTE_ID = 'qte_01M83TN5ZR6G1W8E0J3K5M7P9Q';
const AWARDED_SESSION_ID = 'neg_01M83TP7AS7H2X9F1K4M6N8Q0R';

/** A request for quotes as its buyer created it (its sellers are still being found). */
export const EXAMPLE_RFQ = ({
  rfqId: RFQ_ID,
  buyerId: BUYER_ID,
  status: 'open',
  title: '5,000 nitrile gloves, size M',
  description: 'Powder-free, for our Lyon plant',
  category: 'safety/gloves',
  keywords: ['nitrile', 'gloves'],
  quantity: 50,
  unit: 'box',
  currency: 'EUR',
  maxUnitPrice: 1200,
  shipsFrom: ['DE', 'FR'],
  deliverBy: '2027-01-15',
  shipTo: 'FR',
  closesAt: '2026-11-25T09:00:00.000Z',
  invitedSellerIds: [],
  sellerCount: null,
  quotes: [],
  awardedQuoteId: null,
  sessionId: null,
  cancellationReason: null,
  closedAt: null,
  createdAt: '2026-11-23T09:00:00.000Z',
  updatedAt: '2026-11-23T09:00:00.000Z',
} as const);

/** A seller's quote on it. */
export const EXAMPLE_QUOTE = ({
  quoteId: QUOTE_ID,
  rfqId: RFQ_ID,
  sellerId: SELLER_ID,
  offerId: OFFER_ID,
  productId: PRODUCT_ID,
  status: 'submitted',
  currency: 'EUR',
  unitPrice: 1150,
  quantity: 50,
  totalAmount: { amount: 57500, currency: 'EUR' },
  leadTimeDays: 4,
  validUntil: '2026-12-01T00:00:00.000Z',
  message: 'From stock in Cologne',
  revision: 1,
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
} as const);

/** The RFQ after the buyer awarded the quote: order from sessionId. */
export const EXAMPLE_AWARDED_RFQ = ({
  ...EXAMPLE_RFQ,
  status: 'awarded',
  sellerCount: 12,
  quotes: [{ ...EXAMPLE_QUOTE, status: 'accepted' }],
  awardedQuoteId: QUOTE_ID,
  sessionId: AWARDED_SESSION_ID,
  closedAt: '2026-11-24T08:00:00.000Z',
  updatedAt: '2026-11-24T08:00:00.000Z',
} as const);
