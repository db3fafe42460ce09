// The minor-unit table the bundles carry (shared/schemas/currency-digits.ts) is the currency-codes
// package's ISO 4217 list, currency for currency: a package update that changes one fails here.
import currencyCodes from 'currency-codes';
import { describe, expect, it } from 'vitest';
import { isCurrency, minorUnitDigits } from '../../shared/schemas/money.ts';

const priceable = currencyCodes.data.filter((currency) => !currency.code.startsWith('X') && Number.isInteger(currency.digits));

describe('ISO 4217 minor units', () => {
  it('has every currency of the package with a numeric minor unit, with its digits', () => {
    expect(priceable.length).toBeGreaterThan(150);
    for (const currency of priceable) expect(minorUnitDigits(currency.code), currency.code).toBe(currency.digits);
  });

  it('has no currency the package does not list, and none of the X codes', () => {
    const known = new Set(priceable.map((currency) => currency.code));
    for (const currency of currencyCodes.data) {
      if (!known.has(currency.code)) expect(isCurrency(currency.code), currency.code).toBe(false);
    }
    for (const code of ['XAU', 'XXX', 'XTS', 'ABC', 'usd']) expect(isCurrency(code), code).toBe(false);
    expect([...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].flatMap((a) => [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].flatMap((b) => [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c) => a + b + c))).filter(isCurrency).sort()).toEqual([...known].sort());
  });
});
