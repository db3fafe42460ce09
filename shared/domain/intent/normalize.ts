// Evens out how the request is typed before any extractor reads it: dashes and the multiplication
// sign as ASCII, curly quotes straight, dotted abbreviations undotted ("U.S." → US), "w/" and "w/o"
// spelled out, whitespace single, and a space at both ends so every phrase can be matched at a word
// boundary.
import type { Extractor } from './reading.ts';

export const normalize: Extractor = ({ text, reading }) => ({
  text: ` ${text
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[×]/g, 'x')
    .replace(/[‘’´`]/g, "'")
    .replace(/[“”„]/g, '"')
    // Dotted abbreviations ("U.S.", "U.K.", "E.U.") as their letters.
    .replace(/\b((?:[A-Z]\.){2,3})(?=[\s,;:!?)]|$)/g, (dotted: string) => dotted.replace(/\./g, ''))
    .replace(/\bw\/o\b/gi, 'without')
    .replace(/\bw\/(?=\s)/gi, 'with')
    .replace(/\s+/g, ' ')
    .trim()} `,
  reading,
});
