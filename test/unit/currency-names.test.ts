// The currency names the intent reader carries (shared/domain/intent/currency-names.ts) are the
// currency-codes package's ISO 4217 names, currency for currency and in its order (the first currency
// with a name keeps the word): a package update that changes one fails here.
import currencyCodes from 'currency-codes';
import { describe, expect, it } from 'vitest';
import { CURRENCY_NAMES } from '../../shared/domain/intent/currency-names.ts';
import { CURRENCY_WORDS } from '../../shared/domain/intent/money.ts';
import { isCurrency } from '../../shared/schemas/money.ts';

describe('ISO 4217 names for the intent reader', () => {
  it('is the package’s list of priceable currencies, name for name, in its order', () => {
    const fromPackage = currencyCodes.data.filter((currency) => isCurrency(currency.code)).map((currency) => [currency.code, currency.currency]);
    expect(fromPackage.length).toBeGreaterThan(150);
    expect(CURRENCY_NAMES).toEqual(fromPackage);
  });

  it('reads every priceable currency by its code and by its name, singular and plural', () => {
    for (const [code, name] of CURRENCY_NAMES) {
      expect(CURRENCY_WORDS.get(code.toLowerCase()), code).toBe(code);
      // A name two currencies share (US Dollar: USD, and USN "US Dollar (Next day)" is another) goes to the first.
      const first = CURRENCY_NAMES.find(([, other]) => other.toLowerCase() === name.toLowerCase())![0];
      const common = ['dollar', 'euro', 'pound', 'yen', 'yuan', 'rupee'].some((word) => name.toLowerCase() === word);
      if (!common) expect(CURRENCY_WORDS.get(name.toLowerCase()), name).toBe(first);
    }
    expect(CURRENCY_WORDS.get('swiss francs')).toBe('CHF');
    expect(CURRENCY_WORDS.get('euros')).toBe('EUR');
  });
});
