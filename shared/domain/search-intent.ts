// Reading a buyer's plain-language intent, deterministically and without an external service: an
// ordered list of small extractors (./intent/), each taking its kind of phrase out of the text and
// recording it, so that what is left for the word reader at the end is product words and noise. The
// rules: docs/search.md.
import { readBrand } from './intent/brands.ts';
import { applyBudget } from './intent/budget.ts';
import { readCategory } from './intent/categories.ts';
import { readLeadTime } from './intent/lead-times.ts';
import { readMeasures } from './intent/measures.ts';
import { readNegations } from './intent/negations.ts';
import { dropNoise } from './intent/noise.ts';
import { normalize } from './intent/normalize.ts';
import { readOrigin } from './intent/origins.ts';
import { readPrices } from './intent/prices.ts';
import { readQuantity } from './intent/quantities.ts';
import { emptyReading, type Correction, type Extractor, type IntentLexicon, type Reading, type Term } from './intent/reading.ts';
import { readSort } from './intent/sorts.ts';
import { readWords } from './intent/words.ts';

export type { Correction, IntentLexicon, Reading, Term };

/** The extractors, in the order they read: each sees only what the ones before it left. */
export const EXTRACTORS: readonly [name: string, extractor: Extractor][] = [
  ['normalize', normalize],
  ['prices', readPrices], // before quantities: "under $5" is no quantity of 5
  ['lead times', readLeadTime], // before quantities: "in 3 days" is no quantity of 3
  ['sorts', readSort],
  ['origins', readOrigin],
  ['negations', readNegations], // after prices: "no more than 20 dollars" is no negation
  ['quantities', readQuantity],
  ['budget', applyBudget], // after quantities: a total budget divided by the quantity
  ['measures', readMeasures], // after quantities: what is left of "N unit" is a size ("5 litre")
  ['brands', readBrand],
  ['categories', readCategory],
  ['noise', dropNoise],
  ['words', readWords],
];

/** The reading as answered: its terms as the keywords searched for. */
export interface Interpretation extends Omit<Reading, 'terms'> {
  keywords: string[];
}

export function readIntent(intent: string, lexicon: IntentLexicon): Reading {
  let step = { text: intent, reading: emptyReading() };
  for (const [, extractor] of EXTRACTORS) step = extractor(step, lexicon);
  return step.reading;
}

/**
 * The head of the request: the last plain noun (not a size, code, colour, measure or describing word)
 * of its first noun phrase that has one ("nitrile gloves for the lab" → gloves; "ear plugs" → plugs;
 * "bolts m8 zinc" → bolts: materials and other describing nouns are skipped).
 * Every item returned must match it; other words may be dropped when no product has them all.
 */
export function headTerm(terms: readonly Term[], qualifiers: ReadonlySet<string> = new Set()): Term | undefined {
  const phrases = [...new Set(terms.filter((t) => t.phrase >= 0).map((t) => t.phrase))].sort((a, b) => a - b);
  for (const phrase of phrases) {
    // A material or other describing noun after the product ("bolts m8 zinc") is not its head.
    const nouns = terms.filter((t) => t.phrase === phrase && !t.modifier && !qualifiers.has(t.word));
    if (nouns.length > 0) return nouns.at(-1);
  }
  return undefined;
}
