// Sizes and measures are words of the product, never quantities: "2m", "1 kg", "500 ml", "27-inch",
// "12 oz", "18V", "80 gsm", "400x300x200 mm", "size 9", "size XL". Each becomes one modifier term
// whose forms are the ways catalogs write it ("2 m", "2m", "2 metre", "2 meter"), matched as a phrase.
import { cut, formKnown, type Extractor, type Term } from './reading.ts';

/** Unit spellings → the forms a catalog may use for them (the first is how the term is shown). */
const UNITS: readonly [RegExp, string[]][] = [
  [/^(?:mm|millimet(?:er|re)s?)$/i, ['mm', 'millimetre', 'millimeter']],
  [/^(?:cm|centimet(?:er|re)s?)$/i, ['cm', 'centimetre', 'centimeter']],
  [/^(?:m|met(?:er|re)s?)$/i, ['m', 'metre', 'meter', 'metres', 'meters']],
  [/^(?:in|inch|inches|")$/i, ['inch', 'in', 'inches']],
  [/^(?:ft|feet|foot)$/i, ['ft', 'feet', 'foot']],
  [/^(?:kgs?|kilos?|kilograms?)$/i, ['kg', 'kilo', 'kilogram']],
  [/^(?:g|grams?|gr)$/i, ['g', 'gram', 'grams']],
  [/^(?:lbs?|pounds?)$/i, ['lb', 'lbs', 'pound']],
  [/^(?:oz|ounces?)$/i, ['oz', 'ounce']],
  [/^(?:ml|millilit(?:er|re)s?)$/i, ['ml', 'millilitre', 'milliliter']],
  [/^(?:l|lit(?:er|re)s?|ltrs?)$/i, ['litre', 'liter', 'l', 'litres', 'liters']],
  [/^(?:gsm)$/i, ['gsm']],
  [/^(?:v|volts?)$/i, ['v', 'volt']],
  [/^(?:w|watts?)$/i, ['w', 'watt']],
  [/^(?:mah)$/i, ['mah']],
  [/^(?:gb)$/i, ['gb']],
  [/^(?:microns?|µm|um)$/i, ['micron', 'microns']],
  [/^(?:ply)$/i, ['ply']],
];
const UNIT_WORDS = 'mm|millimet(?:er|re)s?|cm|centimet(?:er|re)s?|met(?:er|re)s?|m|inch(?:es)?|in|"|ft|feet|foot|kgs?|kilos?|kilograms?|grams?|gr|g|lbs?|oz|ounces?|ml|millilit(?:er|re)s?|lit(?:er|re)s?|ltrs?|l|gsm|volts?|v|watts?|w|mah|gb|microns?|µm|ply';
/** "1kg bags", "5L bottles": the package a measure comes in says nothing more about the product. */
const PACKAGE_AFTER = '(?:\\s+(?:bags?|bottles?|tins?|cans?|jars?|drums?|tubs?|sacks?|pouches|pouch|packs?|packets?|cartons?|containers?|jugs?|canisters?)\\b)?';
const MEASURE = new RegExp(`(?<![\\p{L}\\d.,])(\\d+(?:[.,]\\d+)?)\\s?-?\\s?(${UNIT_WORDS})(?![\\p{L}\\d])${PACKAGE_AFTER}`, 'giu');
const DIMENSIONS = /(?<![\p{L}\d])(\d+(?:[.,]\d+)?(?:\s?[x×]\s?\d+(?:[.,]\d+)?)+)(?:\s?(mm|cm|m)\b)?/giu;
/** A pack size without a count before it ("box of 50", "in packs of 24"): how the catalog describes the product. */
const PACK_SIZE = /\b(box|pack|case|bag|set|roll|carton|tube|tin)(?:e?s)?\s+of\s+(\d+)\b/gi;
/** "24-pack", "12 pk": the catalog says "pack of 24". */
const N_PACK = /\b(\d+)[\s-]?(?:pack|pk|count|ct)\b/gi;
const SIZE = /\bsizes?\s*:?\s*((?:\d{1,2}(?:[.,]5)?)|(?:x{0,3}s|m|x{0,4}l|\d?xl|\d?xs))\b/gi;

function measureTerm(amount: string, unitForms: string[], known: (form: string) => boolean): Term {
  const number = amount.replace(',', '.');
  const forms = unitForms.flatMap((unit) => [`${number} ${unit}`, `${number}${unit}`]);
  return { word: `${number} ${unitForms[0] as string}`, forms, known: forms.some(known), modifier: true, phrase: -1 };
}

export const readMeasures: Extractor = ({ text, reading }, lexicon) => {
  const terms: Term[] = [];
  const known = (form: string) => formKnown(form, lexicon.vocabulary);
  for (const match of [...text.matchAll(PACK_SIZE)]) {
    const form = `${(match[1] as string).toLowerCase()} of ${match[2] as string}`;
    terms.push({ word: form, forms: [form], known: known(form), modifier: true, phrase: -1 });
    text = cut(text, match[0]);
  }
  for (const match of [...text.matchAll(N_PACK)]) {
    const forms = [`pack of ${match[1] as string}`, `${match[1] as string} pack`];
    terms.push({ word: forms[0] as string, forms, known: forms.some(known), modifier: true, phrase: -1 });
    text = cut(text, match[0]);
  }
  for (const match of [...text.matchAll(SIZE)]) {
    const size = (match[1] as string).toLowerCase();
    const form = `size ${size}`;
    terms.push({ word: form, forms: [form], known: known(form), modifier: true, phrase: -1 });
    text = cut(text, match[0]);
  }
  for (const match of [...text.matchAll(DIMENSIONS)]) {
    const dimensions = (match[1] as string).toLowerCase().replace(/\s|×/g, (c) => (c === '×' ? 'x' : ''));
    const unit = match[2]?.toLowerCase();
    const forms = unit ? [`${dimensions} ${unit}`, dimensions] : [dimensions];
    terms.push({ word: forms[0] as string, forms, known: forms.some(known), modifier: true, phrase: -1 });
    text = cut(text, match[0]);
  }
  for (const match of [...text.matchAll(MEASURE)]) {
    const unit = UNITS.find(([pattern]) => pattern.test(match[2] as string));
    if (!unit) continue;
    terms.push(measureTerm(match[1] as string, unit[1], known));
    text = cut(text, match[0]);
  }
  return terms.length === 0 ? { text, reading } : { text, reading: { ...reading, terms: [...reading.terms, ...terms] } };
};
