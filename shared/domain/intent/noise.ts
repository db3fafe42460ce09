// Phrases that say who is asking and why, not what: "for our warehouse", "for my team", "any kind of",
// "in stock", "if possible", "can you find me". (Single noise words — "please", "need", "some" — are
// dropped by the word reader, ./words.ts.)
import type { Extractor } from './reading.ts';

const PHRASES = [
  /\bfor\s+(?:our|my|your|their|his|her)\s+(?:[\p{L}'-]+\s*){1,3}?(?=[,;.!?]|\s(?:from|in|with|under|within|by|at|and|or)\s|\s*$)/giu,
  /\bfor\s+(?:(?:the|a|an)\s+)?(?:[\p{L}-]+\s+)?(?:staff|workers|employees|crews?|teams?|technicians|cleaners|builders|contractors|nurses|visitors|guests)\b/giu,
  /\bfor\s+(?:the|a|an)\s+(?:warehouse|team|staff|site|store|shop|restaurant|kitchen|clinic|hospital|factory|plant|workshop|crew|employees|workers|company|business|project|customers?|clients?|school|lab|laboratory|fleet|event|hotel|building|facility|job)s?\b/giu,
  /\b(?:any|some|a|the|all)?\s*(?:types?|kinds?|sorts?)\s+of\b/giu,
  /\b(?:in stock|if possible|if available|as well|asap please|thank you|thanks)\b/giu,
  /\b(?:can|could|would)\s+you\s+(?:please\s+)?(?:find|get|show|give|source|quote|send)(?:\s+(?:me|us))?\b/giu,
  /\b(?:do|does)\s+(?:you|anyone|anybody)\s+(?:have|sell|stock|carry|offer)\b/giu,
  /\b(?:i'm|i am|we're|we are)\s+(?:looking|searching)\s+for\b/giu,
];

export const dropNoise: Extractor = ({ text, reading }) => {
  for (const pattern of PHRASES) text = text.replace(pattern, ' ');
  return { text, reading };
};
