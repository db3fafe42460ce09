// Feed rows: a row with several problems reports every one of them, each under its CSV column or JSON
// field, including the rules between fields, which are checked whatever else is wrong with the row.
import { describe, expect, it } from 'vitest';
import { validateCsvRecord, validateJsonRow } from '../../shared/domain/feed-rows.ts';
import { CSV_COLUMNS } from '../../shared/schemas/feed-rows.ts';

const good = { sku: 'GLV-1', title: 'Gloves', price: '10.00', currency: 'USD', available_quantity: '5' };

describe('CSV rows', () => {
  it('report every bad cell of a row, one error each, in the template’s column order', () => {
    const outcome = validateCsvRecord(
      {
        sku: 'has space',
        title: '',
        price: '1.234',
        currency: 'USD',
        available_quantity: 'ten',
        lead_time_days: '400',
        ships_from: 'ZZ',
        image_urls: 'notaurl',
        attributes: 'material;size=M;size=L',
        negotiable: 'maybe',
        floor_price: '9.00',
        auto_accept_price: '8.00',
        negotiation_strategy: 'stubborn',
        status: 'gone',
      },
      7,
    );
    expect(outcome.ok).toBe(false);
    const errors = outcome.ok ? [] : outcome.errors;
    expect(errors.map((error) => error.field)).toEqual([
      'sku', 'title', 'price', 'available_quantity', 'lead_time_days', 'ships_from', 'image_urls', 'attributes', 'negotiable', 'floor_price', 'negotiation_strategy', 'status',
    ]);
    expect(errors.every((error) => error.row === 7)).toBe(true);
    const byColumn = Object.fromEntries(errors.map((error) => [error.field, error.message]));
    expect(byColumn.attributes).toMatch(/"material" is not key=value; the attribute size appears twice/);
    expect(byColumn.floor_price).toMatch(/auto-accept price/);
    expect(byColumn.negotiation_strategy).toMatch(/firm, linear, boulware or conceder/);
    // Order follows the template's columns.
    expect(errors.map((error) => CSV_COLUMNS.indexOf(error.field as string))).toEqual([...errors.map((error) => CSV_COLUMNS.indexOf(error.field as string))].sort((a, b) => a - b));
  });

  it('report an empty required cell of each column, and a price that is no decimal even when the currency is unknown', () => {
    const empty = validateCsvRecord({ sku: 'A' }, 1);
    expect(empty.ok ? [] : empty.errors.map((error) => error.field)).toEqual(['title', 'price', 'currency', 'available_quantity']);
    const badCurrency = validateCsvRecord({ ...good, currency: 'XYZ', price: 'ten', floor_price: '8.00' }, 2);
    expect(badCurrency.ok ? [] : badCurrency.errors).toEqual([
      { row: 2, field: 'price', message: expect.stringContaining('"ten"') },
      { row: 2, field: 'currency', message: expect.stringContaining('ISO 4217') },
    ]);
  });

  it('check the floor against the list and auto-accept prices, and a conceding strategy against a floor', () => {
    const above = validateCsvRecord({ ...good, floor_price: '12.00', auto_accept_price: '11.00' }, 3);
    expect(above.ok ? [] : above.errors.map((error) => error.message)).toEqual([expect.stringMatching(/above the list price/), expect.stringMatching(/above the auto-accept price/)]);
    const noFloor = validateCsvRecord({ ...good, negotiation_strategy: 'Boulware' }, 4);
    expect(noFloor.ok ? [] : noFloor.errors).toEqual([{ row: 4, field: 'negotiation_strategy', message: expect.stringContaining('floor price') }]);
    // A floor that is there but malformed is reported as such, not as missing.
    const badFloor = validateCsvRecord({ ...good, floor_price: '8.001', negotiation_strategy: 'linear' }, 5);
    expect(badFloor.ok ? [] : badFloor.errors.map((error) => error.field)).toEqual(['floor_price']);
    const firm = validateCsvRecord({ ...good, negotiation_strategy: 'FIRM' }, 6);
    expect(firm).toMatchObject({ ok: true, row: { negotiationStrategy: 'firm' } });
    const conceder = validateCsvRecord({ ...good, floor_price: '8.00', negotiation_strategy: 'conceder' }, 7);
    expect(conceder).toMatchObject({ ok: true, row: { negotiationStrategy: 'conceder', floorUnitPrice: { amount: 800, currency: 'USD' } } });
  });
});

describe('pack sizes', () => {
  it('read pack_size and packSize as the pieces in one unit, 1 when absent, and report one that is no whole number of at least 1', () => {
    expect(validateCsvRecord({ ...good, unit: 'box', pack_size: '100' }, 1)).toMatchObject({ ok: true, row: { unit: 'box', packSize: 100 } });
    expect(validateCsvRecord(good, 2)).toMatchObject({ ok: true, row: { packSize: 1 } });
    for (const [cell, message] of [['0', /1 or more/], ['ten', /whole number/], ['2.5', /whole number/], ['2000000', /at most 1,000,000/]] as const) {
      const outcome = validateCsvRecord({ ...good, pack_size: cell }, 3);
      expect(outcome.ok ? [] : outcome.errors, cell).toEqual([{ row: 3, field: 'pack_size', message: expect.stringMatching(message) }]);
    }
    expect(validateJsonRow({ sku: 'GLV-1', title: 'Gloves', price: { amount: 1250, currency: 'EUR' }, availableQuantity: 5, unit: 'box', packSize: 100 }, 1)).toMatchObject({ ok: true, row: { packSize: 100 } });
    expect(validateJsonRow({ sku: 'GLV-1', title: 'Gloves', price: { amount: 1250, currency: 'EUR' }, availableQuantity: 5, packSize: null }, 2)).toMatchObject({ ok: true, row: { packSize: 1 } });
    const bad = validateJsonRow({ sku: 'GLV-1', title: 'Gloves', price: { amount: 1250, currency: 'EUR' }, availableQuantity: 5, packSize: 0 }, 3);
    expect(bad.ok ? [] : bad.errors).toEqual([{ row: 3, field: 'packSize', message: expect.stringMatching(/1 or more/) }]);
  });
});

describe('CSV cells that are not UTF-8', () => {
  it('are reported once each under their column, never as missing, and the row’s other problems still are', () => {
    const outcome = validateCsvRecord({ sku: 'GLV-1', price: '1.234', available_quantity: '5', floor_price: '1.00' }, 4, ['title', 'currency']);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? [] : outcome.errors).toEqual([
      { row: 4, field: 'title', message: expect.stringContaining('not UTF-8') },
      { row: 4, field: 'currency', message: expect.stringContaining('not UTF-8') },
    ]);
    // A strategy needs a floor: a floor cell that is not UTF-8 was still given.
    const strategy = validateCsvRecord({ ...good, negotiation_strategy: 'linear' }, 5, ['floor_price']);
    expect(strategy.ok ? [] : strategy.errors).toEqual([{ row: 5, field: 'floor_price', message: expect.stringContaining('not UTF-8') }]);
  });
});

describe('JSON rows', () => {
  it('report every problem of a row with its field path, the rules between fields included', () => {
    const outcome = validateJsonRow(
      {
        sku: 'has space',
        title: '',
        price: { amount: 5.5, currency: 'USD' },
        availableQuantity: -1,
        floorUnitPrice: { amount: 900, currency: 'EUR' },
        autoAcceptUnitPrice: { amount: 800, currency: 'USD' },
        priceTiers: [{ minQuantity: 10, unitPrice: { amount: 400, currency: 'GBP' } }],
        negotiationStrategy: 'boulware',
        colour: 'red',
      },
      3,
    );
    expect(outcome.unknownFields).toEqual(['colour']);
    expect(outcome.ok ? [] : outcome.errors.map((error) => error.field)).toEqual([
      'sku', 'title', 'price.amount', 'availableQuantity', 'priceTiers.0.unitPrice.currency', 'floorUnitPrice.currency',
    ]);
    const rules = validateJsonRow({ sku: 'OK-1', title: 'Fine', price: { amount: 1000, currency: 'USD' }, availableQuantity: -1, floorUnitPrice: { amount: 900, currency: 'USD' }, autoAcceptUnitPrice: { amount: 800, currency: 'USD' } }, 4);
    expect(rules.ok ? [] : rules.errors).toEqual([
      { row: 4, field: 'availableQuantity', message: expect.any(String) },
      { row: 4, field: 'floorUnitPrice.amount', message: expect.stringContaining('auto-accept') },
    ]);
    const strategy = validateJsonRow({ sku: 'OK-2', title: 'Fine', price: { amount: 1000, currency: 'USD' }, availableQuantity: 1, negotiationStrategy: 'Linear' }, 5);
    expect(strategy.ok ? [] : strategy.errors).toEqual([{ row: 5, field: 'negotiationStrategy', message: 'Must be firm, linear, boulware or conceder' }]);
  });
});
