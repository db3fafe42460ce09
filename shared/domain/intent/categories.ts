// A category filter, only when a category is named as one: "cleaning supplies", "category: hardware",
// "in electronics". Otherwise a category word is part of a product's name ("safety boots", "office
// chairs") and stays a product word. Only broader segments of the catalog's paths count (a leaf such as
// "gloves" is a product word), and a segment that is also some path's leaf ("office") is ambiguous.
import { escapeRegExp, type Extractor } from './reading.ts';

const AFTER = '(?:\\s*:?\\s*(?:supplies|supply|products|equipment|items|gear|goods|category|section|department|range|stuff))';
const BEFORE = '(?:\\b(?:category|section|department)\\s*:?\\s*|\\bin\\s+(?:the\\s+)?)';

/** Category segment words (and their singular) → the path prefix they name. */
export function categoryPrefixes(categories: readonly string[]): Map<string, string> {
  const prefixes = new Map<string, string>();
  for (const category of categories) {
    const segments = category.split('/');
    segments.slice(0, -1).forEach((segment, index) => {
      if (!prefixes.has(segment)) prefixes.set(segment, segments.slice(0, index + 1).join('/'));
    });
  }
  for (const category of categories) prefixes.delete(category.split('/').at(-1) as string);
  return prefixes;
}

export const readCategory: Extractor = ({ text, reading }, lexicon) => {
  if (reading.filters.category !== undefined) return { text, reading };
  for (const [segment, path] of categoryPrefixes(lexicon.categories)) {
    const word = segment.replace(/-/g, '[ -]');
    const named = new RegExp(`(?:${BEFORE}(${word})s?\\b(?:${AFTER})?|\\b(${word})s?${AFTER}\\b)`, 'i');
    const match = named.exec(text);
    if (!match) continue;
    // "in electronics" names a category; "in" before anything else is left alone.
    if (match[1] && !/category|section|department/i.test(match[0]) && !new RegExp(`^\\s*in\\s+(?:the\\s+)?${escapeRegExp(segment)}`, 'i').test(match[0].trimStart())) continue;
    return { text: `${text.slice(0, match.index)} ${text.slice((match.index ?? 0) + match[0].length)}`, reading: { ...reading, filters: { ...reading.filters, category: path } } };
  }
  return { text, reading };
};
