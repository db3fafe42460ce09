// Brands the catalog knows, multi-word first ("Nordic Mills" before "Nordic"), with a possessive
// ("Medix's"). The brand filter compares case-insensitively; it is reported as typed.
import { escapeRegExp, type Extractor } from './reading.ts';

export const readBrand: Extractor = ({ text, reading }, lexicon) => {
  if (reading.filters.brand !== undefined) return { text, reading };
  for (const brand of [...lexicon.brands].sort((a, b) => b.length - a.length)) {
    const pattern = new RegExp(`(?:^|[^\\p{L}\\p{N}])(${escapeRegExp(brand)})(?:'s)?(?=$|[^\\p{L}\\p{N}])`, 'iu');
    const match = pattern.exec(text);
    if (!match) continue;
    const start = (match.index ?? 0) + match[0].indexOf(match[1] as string);
    const end = start + (match[1] as string).length;
    const label = text.slice(start, end);
    text = `${text.slice(0, start)} ${text.slice(end).replace(/^'s/, '')}`;
    return { text, reading: { ...reading, filters: { ...reading.filters, brand: label } } };
  }
  return { text, reading };
};
