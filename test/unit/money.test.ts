// Price conversion between CSV decimals in major units and integer minor units, by each currency's
// ISO 4217 exponent (property tests over every currency we accept).
import currencyCodes from 'currency-codes';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeAmount, isCurrency, majorToMinor, MAX_AMOUNT, minorToMajor, minorUnitDigits, minorUnitName, minorUnitProblem } from '../../shared/schemas/money.ts';

const CURRENCIES = currencyCodes.codes().filter(isCurrency);
const currency = fc.constantFrom(...CURRENCIES);
const amount = fc.integer({ min: 0, max: MAX_AMOUNT });

describe('price conversion', () => {
  it('knows the exponents that matter: USD 2, JPY 0, BHD 3, and refuses X codes and unknown ones', () => {
    expect([minorUnitDigits('USD'), minorUnitDigits('JPY'), minorUnitDigits('BHD')]).toEqual([2, 0, 3]);
    for (const code of ['XAU', 'XXX', 'ABC', 'usd', '']) expect(isCurrency(code), code).toBe(false);
    expect(majorToMinor('12.50', 'USD')).toBe(1250);
    expect(minorToMajor(1250, 'USD')).toBe('12.50');
    expect(minorToMajor(500, 'JPY')).toBe('500');
  });

  it('round-trips every amount in every currency: minor → major text → minor (property)', () => {
    fc.assert(
      fc.property(amount, currency, (minor, code) => {
        const text = minorToMajor(minor, code);
        expect(text).toMatch((minorUnitDigits(code) ?? 0) === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${minorUnitDigits(code)}}$`));
        expect(majorToMinor(text, code)).toBe(minor);
      }),
    );
  });

  it('reads a decimal with fewer decimals than the currency as if padded, and refuses more (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 999 }), fc.integer({ min: 1, max: 3 }), currency, (whole, fraction, places, code) => {
        const digits = minorUnitDigits(code) as number;
        const decimals = String(fraction).padStart(3, '0').slice(0, places);
        const read = majorToMinor(`${whole}.${decimals}`, code);
        if (places > digits) expect(read).toBeUndefined();
        else expect(read).toBe(whole * 10 ** digits + Number(decimals.padEnd(digits, '0')));
      }),
    );
  });

  it('never returns anything but a safe integer within the amount limit, whatever the text (property)', () => {
    const text = fc.oneof(fc.string(), fc.stringMatching(/^-?\d{0,16}(\.\d{0,5})?(e\d)?$/), fc.double().map(String));
    fc.assert(
      fc.property(text, currency, (input, code) => {
        const read = majorToMinor(input, code);
        if (read !== undefined) {
          expect(Number.isSafeInteger(read)).toBe(true);
          expect(read).toBeGreaterThanOrEqual(0);
          expect(read).toBeLessThanOrEqual(MAX_AMOUNT);
        }
      }),
    );
  });

  it('refuses amounts over the limit and any unknown currency (property)', () => {
    fc.assert(
      fc.property(currency, (code) => {
        expect(majorToMinor(minorToMajor(MAX_AMOUNT + 1, code), code)).toBeUndefined();
        expect(majorToMinor('1.00', code.toLowerCase())).toBeUndefined();
      }),
    );
  });
});

describe('naming a currency’s unit', () => {
  it('names the minor unit people use, and whole units for currencies without one', () => {
    expect(minorUnitName('EUR')).toBe('EUR cents');
    expect(minorUnitName('USD')).toBe('USD cents');
    expect(minorUnitName('GBP')).toBe('GBP pence');
    expect(minorUnitName('JPY')).toBe('the smallest unit of JPY (whole yen)');
    expect(minorUnitName('KRW')).toBe('the smallest unit of KRW (whole won)');
    expect(minorUnitName('BHD')).toBe('BHD fils (thousandths of a BHD)');
    expect(minorUnitName('CLF')).toBe('ten-thousandths of a CLF');
  });

  it('never calls a unit cents unless the currency counts in hundredths (property)', () => {
    fc.assert(fc.property(currency, (code) => {
      const name = minorUnitName(code);
      if (name.includes('cents')) expect(minorUnitDigits(code)).toBe(2);
      if (minorUnitDigits(code) === 0) expect(name).toContain('whole');
      expect(name).toContain(code);
    }));
  });

  it('refuses only amounts that are not whole, with an example in the currency', () => {
    expect(minorUnitProblem(1250, 'JPY')).toBeUndefined();
    expect(minorUnitProblem(12.5, 'JPY')).toBe('Must be a whole number in the smallest unit of JPY (whole yen), not 12.5: 1250 is 1250 JPY');
    expect(minorUnitProblem(0.5, 'EUR')).toBe('Must be a whole number in EUR cents, not 0.5: 1250 is 12.50 EUR');
    expect(describeAmount(1250, 'BHD')).toBe('1250 (1.250 BHD)');
  });
});
