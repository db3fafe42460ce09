// Each extractor of the intent reader on its own: what it records and what it leaves of the text for
// the next one. The lexicon is a small catalog's, with the real English and country words.
import { describe, expect, it } from 'vitest';
import { readBrand } from '../../shared/domain/intent/brands.ts';
import { applyBudget } from '../../shared/domain/intent/budget.ts';
import { readCategory } from '../../shared/domain/intent/categories.ts';
import { leadDays, readLeadTime } from '../../shared/domain/intent/lead-times.ts';
import { readMeasures } from '../../shared/domain/intent/measures.ts';
import { readNegations } from '../../shared/domain/intent/negations.ts';
import { dropNoise } from '../../shared/domain/intent/noise.ts';
import { normalize } from '../../shared/domain/intent/normalize.ts';
import { digitsToNumber, wordsToNumber } from '../../shared/domain/intent/numbers.ts';
import { readOrigin } from '../../shared/domain/intent/origins.ts';
import { readPrices } from '../../shared/domain/intent/prices.ts';
import { readQuantity } from '../../shared/domain/intent/quantities.ts';
import { emptyReading, tokens, type Extractor, type IntentLexicon, type Reading } from '../../shared/domain/intent/reading.ts';
import { readSort } from '../../shared/domain/intent/sorts.ts';
import { inflectedForm, spellingVariant, synonymForms, typoCorrection } from '../../shared/domain/intent/spelling.ts';
import { readWords } from '../../shared/domain/intent/words.ts';
import { headTerm, readIntent } from '../../shared/domain/search-intent.ts';
import { testSearchWords } from '../support/intent-evaluation.ts';

const TITLES = [
  'Medix Nitrile Gloves, Powder-Free, Size L', 'SafeHand Latex Gloves (Size M)', 'Vinyl Gloves Food-Safe', 'Nordic Mills A4 Copy Paper 80 gsm',
  'LinkWire 2 m USB-C cables, Braided', 'Cablix Cat6 Ethernet cables (10 m)', 'CleanPro 5 litre Concentrated Floor Cleaner', 'Hand Sanitizer 500 ml',
  'RotaTech 6204 Ball Bearings', 'BoltHaus Galvanized Hex Bolts, M10', 'Ballpoint Pens Box of 50', 'Alcohol-Free Disinfectant Wipes', 'Office Chair Ergonomic',
  'Kraftwerk Safety Boots 18V', 'Assorted Permanent Markers', 'Green Tea Matcha', 'Arabica Coffee Beans', 'Pack of 24 AA batteries', 'Machine Screws', '4K HDMI cables', 'Cordless Drill',
];
const PHRASES = TITLES.map((title) => tokens(title).join(' '));

function lexicon(): IntentLexicon {
  const vocabulary = new Map<string, number>();
  for (const word of TITLES.flatMap(tokens)) vocabulary.set(word, (vocabulary.get(word) ?? 0) + 1);
  const words = testSearchWords();
  return {
    brands: ['medix', 'safehand', 'nordic mills', 'linkwire', 'cablix', 'cleanpro', 'rotatech', 'bolthaus', 'kraftwerk'],
    categories: ['safety/gloves', 'safety/footwear', 'office/paper', 'office/writing', 'electronics/cables', 'cleaning/chemicals', 'cleaning/wipes', 'food/tea', 'food/coffee', 'furniture/office', 'hardware/fasteners/bolts', 'industrial/bearings'],
    vocabulary,
    ...words,
    hasPhrase: (phrase) => PHRASES.some((title) => ` ${title} `.includes(` ${phrase.join(' ')} `)),
    hasAll: (all) => PHRASES.some((title) => all.every((word) => title.split(' ').includes(word))),
  };
}
const LEXICON = lexicon();

/** Runs one extractor over a normalized text; returns what it recorded and what it left (trimmed, single-spaced). */
function run(extractor: Extractor, text: string, reading: Partial<Reading> = {}) {
  const { text: normalized } = normalize({ text, reading: emptyReading() }, LEXICON);
  const result = extractor({ text: normalized, reading: { ...emptyReading(), ...reading } }, LEXICON);
  return { left: result.text.replace(/\s+/g, ' ').trim(), reading: result.reading };
}

describe('numbers', () => {
  it('reads digits with separators and shorthand, and number words', () => {
    expect(digitsToNumber('2,500')).toBe(2500);
    expect(digitsToNumber('10k')).toBe(10_000);
    expect(digitsToNumber('1.5k')).toBe(1500);
    expect(wordsToNumber('two thousand five hundred')).toBe(2500);
    expect(wordsToNumber('a dozen')).toBe(12);
    expect(wordsToNumber('half a dozen')).toBe(6);
    expect(wordsToNumber('gloves')).toBeUndefined();
  });
});

describe('normalize', () => {
  it('evens out dashes, the multiplication sign, quotes and w/o', () => {
    expect(normalize({ text: 'USB–C  cables × 10 w/o logo', reading: emptyReading() }, LEXICON).text).toBe(' USB-C cables x 10 without logo ');
  });

  it('writes dotted abbreviations as their letters', () => {
    expect(normalize({ text: 'gloves from the U.S., not the U.K.', reading: emptyReading() }, LEXICON).text).toBe(' gloves from the US, not the UK ');
  });
});

describe('prices', () => {
  it.each([
    ['nitrile gloves under €0.15 each', { maxPrice: 15, currency: 'EUR', pricePer: 'piece' }, 'nitrile gloves'],
    ['max 5 USD per unit', { maxPrice: 500, currency: 'USD' }, ''],
    ['no more than 20 dollars', { maxPrice: 2000, currency: 'USD' }, ''],
    ['cheaper than 2 euro', { maxPrice: 200, currency: 'EUR' }, ''],
    ['USB-C cable $5 max', { maxPrice: 500, currency: 'USD' }, 'USB-C cable'],
    ['surgical masks under 5 cents', { maxPrice: 5, currency: 'USD' }, 'surgical masks'],
    ['tape between 1 and 2 euros', { minPrice: 100, maxPrice: 200, currency: 'EUR' }, 'tape'],
    ['tea between ¥2000 and ¥6000', { minPrice: 2000, maxPrice: 6000, currency: 'JPY' }, 'tea'],
    ['chairs at least $100', { minPrice: 10000, currency: 'USD' }, 'chairs'],
    ['pens priced in euros', { currency: 'EUR' }, 'pens'],
    ['paper less than £6 a ream', { maxPrice: 600, currency: 'GBP' }, 'paper'],
    ['vinyl gloves for less than 8p each', { maxPrice: 8, currency: 'GBP', pricePer: 'piece' }, 'vinyl gloves for'],
    ['surgical masks 50 euro cents max', { maxPrice: 50, currency: 'EUR' }, 'surgical masks'],
    ['gloves 80 cents max', { maxPrice: 80, currency: 'USD' }, 'gloves'],
    ['nitrile gloves, budget in EUR, max 8 cents per glove', { maxPrice: 8, currency: 'EUR', pricePer: 'piece' }, 'nitrile gloves, budget ,'],
    // The currency after the amount, decimal commas, a code glued on, amounts in words.
    ['nitrile gloves, max 0,12 € each', { maxPrice: 12, currency: 'EUR', pricePer: 'piece' }, 'nitrile gloves,'],
    ['copy paper under 5 € a ream', { maxPrice: 500, currency: 'EUR' }, 'copy paper'],
    ['hammers under 15$', { maxPrice: 1500, currency: 'USD' }, 'hammers'],
    ['masks 0.50$ max', { maxPrice: 50, currency: 'USD' }, 'masks'],
    ['copy paper less than 1000円', { maxPrice: 1000, currency: 'JPY' }, 'copy paper'],
    ['tape, 1,20 EUR max', { maxPrice: 120, currency: 'EUR' }, 'tape,'],
    ['chairs under 1.200,00 €', { maxPrice: 120000, currency: 'EUR' }, 'chairs'],
    ['chairs below 1,000 USD', { maxPrice: 100000, currency: 'USD' }, 'chairs'],
    ['masks between 0,40 € and 0,80 €', { minPrice: 40, maxPrice: 80, currency: 'EUR' }, 'masks'],
    ['EUR0.09 max per glove', { maxPrice: 9, currency: 'EUR', pricePer: 'piece' }, ''],
    ['gloves cheaper than 0.09€/pc', { maxPrice: 9, currency: 'EUR', pricePer: 'piece' }, 'gloves'],
    ['gloves ≤ 0.15 EUR/unit', { maxPrice: 15, currency: 'EUR' }, 'gloves'],
    ['masks for under a dime each', { maxPrice: 10, currency: 'USD', pricePer: 'piece' }, 'masks for'],
    ['tape under a dollar', { maxPrice: 100, currency: 'USD' }, 'tape'],
    ['cables under five euros', { maxPrice: 500, currency: 'EUR' }, 'cables'],
    // Minor-unit words, each of its currency.
    ['gloves, max 6 US cents', { maxPrice: 6, currency: 'USD' }, 'gloves,'],
    ['masks under 15 centimes', { maxPrice: 15, currency: 'EUR' }, 'masks'],
    ['gloves max 10 ct each', { maxPrice: 10, currency: 'EUR', pricePer: 'piece' }, 'gloves'],
    ['gloves for 8 Eurocent or less', { maxPrice: 8, currency: 'EUR' }, 'gloves'],
    ['gloves under 12 Rappen', { maxPrice: 12, currency: 'CHF' }, 'gloves'],
    ['gloves max 50 öre each', { maxPrice: 50, currency: 'SEK', pricePer: 'piece' }, 'gloves'],
    ['gloves under 20 groszy', { maxPrice: 20, currency: 'PLN' }, 'gloves'],
    // Per piece or per unit sold, whatever comes after the amount; a noun the request names is the piece.
    ['pens, 5 EUR max per box', { maxPrice: 500, currency: 'EUR' }, 'pens,'],
    ['bolts, 5 USD or less per box', { maxPrice: 500, currency: 'USD' }, 'bolts,'],
    ['markers, 8 dollars or less for a box', { maxPrice: 800, currency: 'USD' }, 'markers,'],
    ['gloves €0.10 or less per glove', { maxPrice: 10, currency: 'EUR', pricePer: 'piece' }, 'gloves'],
    ['blue pens, max 8 cents a pen', { maxPrice: 8, currency: 'USD', pricePer: 'piece' }, 'blue pens,'],
    ['AA batteries below 0.30 EUR per battery', { maxPrice: 30, currency: 'EUR', pricePer: 'piece' }, 'AA batteries'],
    ['¥300 or less per LED bulb', { maxPrice: 300, currency: 'JPY' }, 'per LED bulb'],
    ['500 boxes of gloves under 13 EUR each', { maxPrice: 1300, currency: 'EUR' }, '500 boxes of gloves'],
    // A price named per unit or "at" one, without a cap word, is what the buyer pays at most; a currency before a product is no price.
    ['gloves USD 0.08/pc', { maxPrice: 8, currency: 'USD', pricePer: 'piece' }, 'gloves'],
    ['gloves 0.08 EUR each', { maxPrice: 8, currency: 'EUR', pricePer: 'piece' }, 'gloves'],
    ['gloves @ $0.10', { maxPrice: 10, currency: 'USD' }, 'gloves'],
    ['gloves max. 5 EUR', { maxPrice: 500, currency: 'EUR' }, 'gloves'],
    ['10 EUR pallets', {}, '10 EUR pallets'],
  ])('%s', (text, filters, left) => {
    const result = run(readPrices, text);
    expect(result.reading.filters).toEqual(filters);
    expect(result.left).toBe(left);
  });

  it('takes a total budget as a budget, not as a unit price', () => {
    const result = run(readPrices, '1000 gloves, budget 150 EUR total');
    expect(result.reading.budget).toEqual({ amount: 15000, currency: 'EUR' });
    expect(result.reading.filters).toEqual({ currency: 'EUR' });
    expect(result.left).toBe('1000 gloves,');
  });

  it('reads "200 dollar budget" as a budget', () => {
    expect(run(readPrices, '200 dollar budget for 400 gloves').reading.budget).toEqual({ amount: 20000, currency: 'USD' });
  });

  it('reads a total spend as a budget', () => {
    const result = run(readPrices, '500 latex gloves, total spend no more than 50 EUR');
    expect(result.reading.budget).toEqual({ amount: 5000, currency: 'EUR' });
    expect(result.left).toBe('500 latex gloves,');
  });

  it('needs a currency: a bare number is no price', () => {
    expect(run(readPrices, 'gloves under 5').reading.filters).toEqual({});
  });
});

describe('budget', () => {
  it('divides a total budget by the quantity, or caps a unit at the whole budget', () => {
    const budget = { amount: 15000, currency: 'EUR' };
    expect(applyBudget({ text: '', reading: { ...emptyReading(), budget, quantity: 1000 } }, LEXICON).reading.filters).toEqual({ currency: 'EUR', maxPrice: 15 });
    expect(applyBudget({ text: '', reading: { ...emptyReading(), budget } }, LEXICON).reading.filters).toEqual({ currency: 'EUR', maxPrice: 15000 });
    // An explicit unit ceiling wins.
    expect(applyBudget({ text: '', reading: { ...emptyReading(), budget, quantity: 10, filters: { maxPrice: 9, currency: 'EUR' } } }, LEXICON).reading.filters.maxPrice).toBe(9);
  });
});

describe('lead times', () => {
  it.each([
    ['delivered within a week', 7],
    ['in 3 days', 3],
    ['next-day delivery', 1],
    ['within 48 hours', 2],
    ['5 business days', 7],
    ['within 2 weeks', 14],
    ['within a month', 30],
    ['3 days or less', 3],
    ['same day', 0],
    ['in a fortnight', 14],
    ['by next week', 7],
    ['by next month', 30],
  ])('%s → %i days', (text, days) => {
    const result = run(readLeadTime, `gloves ${text}`);
    expect(result.reading.filters.maxLeadTimeDays).toBe(days);
    expect(result.left).toBe('gloves');
  });

  it('converts units', () => {
    expect(leadDays('2', 'weeks')).toBe(14);
    expect(leadDays('a', 'month')).toBe(30);
    expect(leadDays('10', 'working days')).toBe(14);
  });
});

describe('sorts', () => {
  it.each([
    ['cheapest gloves', 'price_asc'],
    ['gloves, price low to high', 'price_asc'],
    ['gloves sorted by price', 'price_asc'],
    ['chairs price high to low', 'price_desc'],
    ['most expensive chairs', 'price_desc'],
    ['newest masks', 'newest'],
    ['bulbs quick delivery', 'lead_time'],
    ['fastest shipping of bulbs', 'lead_time'],
    ['permanent markers, sorted newest first', 'newest'],
    ['chairs sorted by price descending', 'price_desc'],
    ['pens ordered cheapest first', 'price_asc'],
    ['copy paper, sort by price low-high', 'price_asc'],
    ['chairs, price high-low', 'price_desc'],
  ])('%s → %s', (text, sort) => {
    const result = run(readSort, text);
    expect(result.reading.sort).toBe(sort);
    expect(result.left).not.toMatch(/cheapest|sorted|high to low|expensive|newest|quick|fastest/);
  });

  it('leaves "assorted" alone', () => {
    expect(run(readSort, 'assorted markers').reading.sort).toBe('relevance');
  });
});

describe('origins', () => {
  it.each([
    ['gloves from Germany', 'DE', []],
    ['gloves from a German supplier', 'DE', []],
    ['coffee from an Italian roaster', 'IT', []],
    ['paper, British supplier', 'GB', []],
    ['German-made drills', 'DE', []],
    ['gloves made in the USA', 'US', []],
    ['gloves shipping from NL', 'NL', []],
    ['pens from a UK vendor', 'GB', []],
    ['gloves Deutschland', 'DE', []],
    ['gloves aus Deutschland', 'DE', []],
    ['tea from Britain', 'GB', []],
    ['gloves from Germny', 'DE', [{ from: 'germny', to: 'germany', kind: 'country' }]],
    ['tea from Itally', 'IT', [{ from: 'itally', to: 'italy', kind: 'country' }]],
  ])('%s → %s', (text, code, corrections) => {
    const result = run(readOrigin, text);
    expect(result.reading.filters.shipsFrom).toBe(code);
    expect(result.reading.corrections).toEqual(corrections);
    expect(result.left).not.toMatch(/german|italian|british|usa|\bnl\b|\buk\b|deutschland|britain|germny|itally|supplier|roaster|vendor/i);
  });

  it('reads several countries and regions as any of them', () => {
    expect(run(readOrigin, 'drills from Germany or the Netherlands').reading.filters.shipsFrom).toEqual(['DE', 'NL']);
    const eu = run(readOrigin, 'stretch film from the EU').reading.filters.shipsFrom as string[];
    expect(eu).toContain('DE');
    expect(eu).not.toContain('GB');
  });

  it('takes a name that is also a word only when said as an origin or capitalised', () => {
    expect(run(readOrigin, 'floor polish').reading.filters.shipsFrom).toBeUndefined();
    expect(run(readOrigin, 'gloves from a Polish supplier').reading.filters.shipsFrom).toBe('PL');
    expect(run(readOrigin, 'gloves in stock').reading.filters.shipsFrom).toBeUndefined();
  });

  it('reports "not from X" as not understood instead of filtering on X', () => {
    const result = run(readOrigin, 'nitrile gloves not from China');
    expect(result.reading.filters.shipsFrom).toBeUndefined();
    expect(result.reading.unparsed).toEqual(['not from China']);
  });
});

describe('negations', () => {
  it.each([
    ['gloves, not latex', ['latex']],
    ['non-latex gloves', ['latex']],
    ['latex-free gloves', ['latex']],
    ['gloves without latex', ['latex']],
    ['masks excluding vinyl', ['vinyl']],
  ])('%s rules out %j', (text, excluded) => {
    const result = run(readNegations, text);
    expect(result.reading.excluded).toEqual(excluded);
    expect(result.left).not.toMatch(/latex|vinyl/);
  });

  it('asks for "X-free" where the catalog says it, instead of ruling X out', () => {
    for (const text of ['nitrile gloves without powder', 'powder-free nitrile gloves', 'wipes, alcohol free']) {
      const result = run(readNegations, text);
      expect(result.reading.excluded).toEqual([]);
      expect(result.reading.terms.map((term) => term.forms)).toEqual([[expect.stringMatching(/^(powder|alcohol) free$/)]]);
    }
  });

  it('reads a negated describing word as the catalog\'s "X-free", or drops it, and never makes it a product word', () => {
    const powdered = run(readNegations, 'nitrile gloves not powdered');
    expect(powdered.reading.terms.map((term) => term.word)).toEqual(['powder-free']);
    expect(powdered.reading.excluded).toEqual([]);
    expect(powdered.left).toBe('nitrile gloves');
    const scented = run(readNegations, 'wipes, not scented');
    expect(scented.reading.terms).toEqual([]);
    expect(scented.reading.excluded).toEqual([]);
    expect(scented.reading.unparsed).toEqual(['not scented']);
    expect(scented.left).not.toMatch(/scented/);
  });

  it('leaves "no more than" and "not urgent" alone', () => {
    expect(run(readNegations, 'no more than 20 gloves, not urgent').reading.excluded).toEqual([]);
  });
});

describe('quantities', () => {
  it.each([
    ['500 nitrile gloves', 500],
    ['10k latex gloves', 10_000],
    ['2,500 pcs vinyl gloves', 2500],
    ['five hundred gloves', 500],
    ['a dozen safety boots', 12],
    ['a dozen 5 litre refills', 12],
    ['half a dozen chairs', 6],
    ['qty: 250 masks', 250],
    ['10 x 27-inch monitors', 10],
    ['notebooks a5 x 50', 50],
    ['3 boxes of 100 nitrile gloves', 300],
    ['40 boxes of wood screws', 40],
    ['need about 5k paper cups', 5000],
    ['20 kg of coffee', 20],
    ['coffee beans 20 kg', 20],
    ['wooden pallets, 20, from Poland', 20],
    ['gloves, 50 million', 50_000_000],
    ['leather work gloves, 10 dozen', 120],
    ['letter paper, 500 sheets a ream, 50 reams', 50],
    ['copy paper, total for 10', 10],
    ['blue ballpoint pens, 10 boxes', 10],
    ['kitchen roll, 10 cases', 10],
    ['safety boots size 44 x 6 pairs', 6],
    ['box of 100 nitrile gloves', 100],
    ['I need a pack of 24 AA batteries', 24],
  ])('%s → %i', (text, quantity) => {
    expect(run(readQuantity, text).reading.quantity).toBe(quantity);
  });

  it.each([
    ['18V cordless drill'],
    ['12 oz cups'],
    ['floor cleaner 5 litre'],
    ['6204 bearings'],
    ['bearings 6204'],
    ['safety boots size 9'],
    ['cut-resistant gloves level 5'],
    ['drill with 2 batteries'],
    ['pens box of 50'],
    ['LED panels 600 x 600 mm'],
    ['HDMI cables 4K'],
    ['ethernet switch 24 port'],
    ['ball bearings 6210'],
    ['two pallets of copy paper'],
    ['5 cartons of nitrile gloves'],
  ])('%s has no quantity', (text) => {
    expect(run(readQuantity, text).reading.quantity).toBeNull();
  });

  it('takes a shipping container and a per-unit count out of the text', () => {
    expect(run(readQuantity, 'two pallets of copy paper').left).toBe('copy paper');
    expect(run(readQuantity, 'letter paper, 500 sheets a ream, 50 reams').left).toBe('letter paper, ,');
  });
});

describe('measures', () => {
  it.each([
    ['USB-C cable 2m', '2 m', ['2 m', '2m', '2 metre']],
    ['coffee 1kg', '1 kg', ['1 kg', '1kg', '1 kilo']],
    ['sanitizer 500 ml', '500 ml', ['500 ml', '500ml']],
    ['27-inch monitors', '27 inch', ['27 inch', '27inch', '27 in']],
    ['drill 18V', '18 v', ['18 v', '18v']],
    ['boots size 9', 'size 9', ['size 9']],
    ['boxes 400x300x200 mm', '400x300x200 mm', ['400x300x200 mm', '400x300x200']],
    ['pens box of 50', 'box of 50', ['box of 50']],
    ['batteries 24-pack', 'pack of 24', ['pack of 24', '24 pack']],
    ['gloves in boxes of 100', 'box of 100', ['box of 100']],
    ['coffee beans 1kg bags', '1 kg', ['1 kg', '1kg']],
  ])('%s → %s', (text, word, forms) => {
    const result = run(readMeasures, text);
    const [term] = result.reading.terms;
    expect(result.left).not.toMatch(/bags/);
    expect(term?.word).toBe(word);
    expect(term?.modifier).toBe(true);
    for (const form of forms) expect(term?.forms).toContain(form);
  });
});

describe('brands', () => {
  it('reads the catalog brands, longest first, with a possessive', () => {
    expect(run(readBrand, 'Nordic Mills copy paper').reading.filters.brand).toBe('Nordic Mills');
    const result = run(readBrand, "Medix's nitrile gloves");
    expect(result.reading.filters.brand).toBe('Medix');
    expect(result.left).toBe('nitrile gloves');
    expect(run(readBrand, 'Bosch drill').reading.filters.brand).toBeUndefined();
  });
});

describe('categories', () => {
  it('filters on a category only when named as one', () => {
    expect(run(readCategory, 'cleaning supplies: wipes').reading.filters.category).toBe('cleaning');
    expect(run(readCategory, 'category: electronics cables').reading.filters.category).toBe('electronics');
    expect(run(readCategory, 'safety boots').reading.filters.category).toBeUndefined();
  });
});

describe('noise', () => {
  it('drops who is asking and why', () => {
    expect(run(dropNoise, 'gloves for our warehouse').left).toBe('gloves');
    expect(run(dropNoise, 'any kind of gloves in stock').left).toBe('gloves');
    expect(run(dropNoise, 'can you find me gloves').left).toBe('gloves');
    expect(run(dropNoise, 'leather gloves for construction workers').left).toBe('leather gloves');
  });
});

describe('words', () => {
  const words = (text: string) => run(readWords, text).reading;

  it('keeps catalog words, drops noise words, and reads hyphenated and run-together codes as the catalog writes them', () => {
    expect(words('I need some nitrile gloves please').terms.map((term) => term.word)).toEqual(['nitrile', 'gloves']);
    expect(words('USB-C cables').terms.map((term) => term.forms)).toEqual([['usb c'], ['cables']]);
    expect(words('Cat 6 cable').terms[0]?.forms).toEqual(['cat6']);
    expect(words('usbc cable').terms[0]?.forms).toEqual(['usb c']);
    expect(words('M10x50 bolts').terms.map((term) => term.word)).toEqual(['m10', '50 mm', 'bolts']);
  });

  it('corrects typos only for words that are neither catalog words nor English', () => {
    expect(words('nitril glvoes').corrections).toEqual([
      { from: 'nitril', to: 'nitrile', kind: 'spelling' },
      { from: 'glvoes', to: 'gloves', kind: 'spelling' },
    ]);
    const bulk = words('bulb');
    expect(bulk.corrections).toEqual([]);
    const english = words('ear plugs');
    expect(english.terms.map((term) => [term.word, term.known])).toEqual([['ear', false], ['plugs', false]]);
    expect(english.corrections).toEqual([]);
    expect(english.unparsed).toEqual([]);
  });

  it('reads a typo that leaves out one s of the catalog word’s -ss as that word, reporting it', () => {
    const result = words('cordles drill');
    expect(result.terms.map((term) => term.word)).toEqual(['cordless', 'drill']);
    expect(result.corrections).toEqual([{ from: 'cordles', to: 'cordless', kind: 'spelling' }]);
  });

  it('reads spelling variants and synonyms the catalog uses, reporting them', () => {
    expect(words('hand sanitiser').corrections).toEqual([{ from: 'sanitiser', to: 'sanitizer', kind: 'variant' }]);
    expect(words('black biros').terms.at(-1)?.forms).toContain('ballpoint pens');
    expect(words('printer paper').terms[0]?.forms).toContain('copy paper');
  });

  it('reports words it cannot read, and still searches them', () => {
    const result = words('xyzzy gloves');
    expect(result.unparsed).toEqual(['xyzzy']);
    expect(result.terms.map((term) => [term.word, term.known])).toEqual([['xyzzy', false], ['gloves', true]]);
  });

  it('finds the catalog\'s word where its stemmer would ("sanitising" → sanitizer, "disinfecting" → disinfectant)', () => {
    expect(words('hand sanitising gel').terms.map((term) => term.forms)).toContainEqual(['sanitizer']);
    expect(words('disinfecting wipes').terms.map((term) => term.forms)).toEqual([['disinfectant'], ['wipes']]);
  });

  it('reads a standard and its number as one code, a describing hyphenated word by its catalog part, and "anti X" as one word', () => {
    const standard = words('safety boots EN 20345').terms.at(-1);
    expect(standard).toMatchObject({ word: 'en 20345', modifier: true });
    expect(words('ethernet-style cables').terms.map((term) => [term.word, term.forms, term.modifier])).toEqual([['ethernet-style', ['ethernet'], true], ['cables', ['cables'], false]]);
    expect(words('anti fog glasses').terms[0]).toMatchObject({ word: 'anti-fog', modifier: true });
  });

  it('keeps a model number and a decimal grade the catalog writes', () => {
    expect(words('ball bearings 6210').terms.map((term) => term.word)).toEqual(['ball', 'bearings', '6210']);
    expect(words('bolts grade 8.8').terms.map((term) => term.word)).not.toContain('8.8');
  });

  it('joins "X or Y" into one term either satisfies', () => {
    expect(words('nitrile or latex gloves').terms.map((term) => term.forms)).toEqual([['nitrile', 'latex'], ['gloves']]);
  });
});

describe('the head of a request', () => {
  const head = (text: string) => headTerm(readIntent(text, LEXICON).terms, LEXICON.qualifiers)?.word;

  it('is the last plain noun of the first noun phrase', () => {
    expect(head('blue nitrile gloves')).toBe('gloves');
    expect(head('nitrile gloves, blue')).toBe('gloves');
    expect(head('ear plugs')).toBe('plugs');
    expect(head('nitrile gloves for the lab')).toBe('gloves');
    expect(head('a dozen 5 litre refills of floor cleaner')).toBe('cleaner');
    expect(head('unscented hand sanitizer')).toBe('sanitizer');
    expect(head('USB-C cable 2m')).toBe('cable');
    expect(head('bolts m8 zinc')).toBe('bolts');
    expect(head("I'd like some protective eyewear")).toBe('eyewear');
    // A colour that is also a thing is the thing where the catalog does not use it as a colour.
    expect(head('hand cream')).toBe('cream');
    expect(head('olive oil')).toBe('oil');
    expect(readIntent('olive oil', LEXICON).terms[0]?.modifier).toBe(false);
  });
});

describe('spelling helpers', () => {
  it('finds inflections, variants, synonyms and typos against the vocabulary', () => {
    const vocabulary = LEXICON.vocabulary;
    expect(inflectedForm('glove', vocabulary)).toBe('gloves');
    expect(inflectedForm('concentrate', vocabulary)).toBe('concentrated');
    expect(spellingVariant('galvanised', vocabulary)).toBe('galvanized');
    expect(synonymForms('display', vocabulary, LEXICON.synonyms)).toEqual([]);
    expect(synonymForms('goggles', new Map([['safety', 1], ['glasses', 1]]), LEXICON.synonyms)).toContain('safety glasses');
    expect(typoCorrection('glvoes', vocabulary)).toBe('gloves');
    // Two neighbouring letters swapped are one edit, so short words are corrected too.
    expect(typoCorrection('vinly', vocabulary)).toBe('vinyl');
    expect(typoCorrection('cabels', vocabulary)).toBe('cables');
    expect(typoCorrection('zzzzzz', vocabulary)).toBeUndefined();
  });
});
