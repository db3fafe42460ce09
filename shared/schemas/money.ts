// Money (contract §1): an integer amount in the currency's minor unit and an ISO 4217 code. The minor
// unit exponent comes from the ISO 4217 list (currency-codes, copied in currency-digits.ts), never a
// guess: JPY has none, BHD three.
import * as z from './zod.ts';
import { CODES_BY_MINOR_UNIT_DIGITS } from './currency-digits.ts';

/**
 * ISO 4217 currencies a price can be in: every code with a numeric minor unit, except the X codes
 * (precious metals, funds, testing and "no currency"), which are not money a buyer pays with.
 */
const MINOR_UNITS: ReadonlyMap<string, number> = new Map(
  Object.entries(CODES_BY_MINOR_UNIT_DIGITS).flatMap(([digits, codes]) => codes.split(' ').map((code) => [code, Number(digits)] as const)),
);

export function isCurrency(code: string): boolean {
  return MINOR_UNITS.has(code);
}

/** Decimal places of the currency's minor unit (USD 2, JPY 0, BHD 3); undefined for an unknown code. */
export function minorUnitDigits(code: string): number | undefined {
  return MINOR_UNITS.get(code);
}

export const CurrencyCode = z.annotated(
  z.string({ error: (issue) => (issue.input === undefined ? undefined : 'Must be an ISO 4217 currency code in uppercase, such as USD') }).check(z.refine(isCurrency, 'Must be an ISO 4217 currency code in uppercase, such as USD')),
  { description: 'ISO 4217 currency code, uppercase', example: 'EUR', maxLength: 3, pattern: '^[A-Z]{3}$' },
);

/** The largest amount we accept: well inside JavaScript's safe integers, far above any B2B unit price. */
export const MAX_AMOUNT = 1_000_000_000_000;

/** An amount's refusal when it is not a whole number and its currency is not known yet (a field of a record names it: minorUnitProblem). */
export const AMOUNT_NOT_WHOLE = 'Must be a whole number in the currency’s minor unit (cents for USD and EUR, whole yen for JPY)';

export const Amount = z.int(AMOUNT_NOT_WHOLE).check(
  z.gte(0, 'Must not be negative'),
  z.lte(MAX_AMOUNT, `Must be at most ${MAX_AMOUNT}`),
);

export const Money = z.annotated(z.strictObject({
  amount: z.withMeta(Amount, { description: 'Integer amount in the currency’s minor unit (e.g. cents)', example: 1250 }),
  currency: CurrencyCode,
}), { id: 'Money', description: 'An amount in the minor unit of an ISO 4217 currency' });
export type Money = z.infer<typeof Money>;

/**
 * A decimal in major units ("12.50") as an integer in minor units, using the currency's exponent;
 * undefined when the text is not a plain non-negative decimal or has more decimals than the currency.
 */
export function majorToMinor(text: string, currency: string): number | undefined {
  const digits = minorUnitDigits(currency);
  if (digits === undefined) return undefined;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > digits) return undefined;
  const minor = Number(whole + fraction.padEnd(digits, '0'));
  return Number.isSafeInteger(minor) && minor <= MAX_AMOUNT ? minor : undefined;
}

/** Minor units as a decimal in major units: 1250 USD → "12.50", 500 JPY → "500". */
export function minorToMajor(amount: number, currency: string): string {
  const digits = minorUnitDigits(currency) ?? 2;
  if (digits === 0) return String(amount);
  const text = String(amount).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** The common name of the minor unit of the currencies most traded; others are named by their digits. */
const MINOR_UNIT_NAMES: Readonly<Record<string, string>> = {
  USD: 'cents', EUR: 'cents', CAD: 'cents', AUD: 'cents', NZD: 'cents', HKD: 'cents', SGD: 'cents', ZAR: 'cents', TWD: 'cents',
  GBP: 'pence', CHF: 'centimes', SEK: 'öre', NOK: 'øre', DKK: 'øre', PLN: 'grosze', CZK: 'haléře', HUF: 'fillér', INR: 'paise',
  CNY: 'fen', MXN: 'centavos', BRL: 'centavos', RUB: 'kopecks', TRY: 'kuruş', ILS: 'agorot', AED: 'fils',
  BHD: 'fils', KWD: 'fils', JOD: 'fils', IQD: 'fils', OMR: 'baisa', TND: 'millimes', LYD: 'dirhams',
};

/** Currencies without a minor unit: what their unit is called. */
const WHOLE_UNIT_NAMES: Readonly<Record<string, string>> = {
  JPY: 'yen', KRW: 'won', VND: 'dong', CLP: 'pesos', ISK: 'krónur', PYG: 'guaraníes', UGX: 'shillings', VUV: 'vatu',
  BIF: 'francs', DJF: 'francs', GNF: 'francs', KMF: 'francs', RWF: 'francs',
};

const FRACTIONS: Readonly<Record<number, string>> = { 1: 'tenths', 2: 'hundredths', 3: 'thousandths', 4: 'ten-thousandths' };

/**
 * The unit amounts of a currency are counted in, as a person says it: "EUR cents", "BHD fils (thousandths
 * of a BHD)", "the smallest unit of JPY (whole yen)", "hundredths of a CHE".
 */
export function minorUnitName(currency: string): string {
  const digits = minorUnitDigits(currency);
  if (digits === 0) return `the smallest unit of ${currency} (whole ${WHOLE_UNIT_NAMES[currency] ?? currency})`;
  const fraction = `${FRACTIONS[digits ?? 2] ?? 'hundredths'} of a ${currency}`;
  const name = MINOR_UNIT_NAMES[currency];
  if (!name) return fraction;
  return digits === 2 ? `${currency} ${name}` : `${currency} ${name} (${fraction})`;
}

/** An amount with its meaning: "1250 (12.50 EUR)", "1250 (1250 JPY)". */
export function describeAmount(amount: number, currency: string): string {
  return `${amount} (${minorToMajor(amount, currency)} ${currency})`;
}

/** Why an amount in `currency` is refused for not being a whole number of its minor unit, or undefined. */
export function minorUnitProblem(amount: number, currency: string): string | undefined {
  if (Number.isInteger(amount)) return undefined;
  return `Must be a whole number in ${minorUnitName(currency)}, not ${amount}: 1250 is ${minorToMajor(1250, currency)} ${currency}`;
}
/** Minor units as people read money: 12000 EUR → "120.00 EUR", 1500 JPY → "1500 JPY". */
export function formatMoney(amount: number, currency: string): string {
  return `${minorToMajor(Math.max(0, amount), currency)} ${currency}`;
}
