// What text the index holds for a product, and how words are read from text (the vocabulary's words
// and the quoted words of a match expression alike).
import type { Product } from '../../schemas/catalog.ts';

/** Words as the vocabulary keeps them: lowercase letters and digits, accents removed. */
export function surfaceWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

function attributeText(attributes: Record<string, unknown>): string {
  return Object.entries(attributes)
    .map(([name, value]) => (typeof value === 'boolean' ? (value ? name : '') : String(value)))
    .join(' ');
}

/** What a unit sold holds, in words ("box of 50", "ream of 500"), for products sold in packs. */
function packText(product: Product): string {
  const pieces = product.packSize ?? 1;
  return pieces > 1 ? `${product.unit === 'each' ? 'pack' : product.unit} of ${pieces}` : '';
}

/** A product's full-text columns: title (title and brand) and body (category words, attribute values, pack size, description). */
export function searchableText(product: Product): { title: string; body: string } {
  return {
    title: `${product.title} ${product.brand ?? ''}`,
    body: [product.category?.replaceAll('/', ' ').replaceAll('-', ' ') ?? '', attributeText(product.attributes), packText(product), product.description ?? ''].join(' \n'),
  };
}
