// The labelled intent set (test/fixtures/labelled-intents.ts) over 3,000 generated products: field
// accuracy and top-3 hit rate must stay at or above the targets (0.95 and 0.9).
import { afterAll, describe, expect, it } from 'vitest';
import { LABELLED_INTENTS } from '../fixtures/labelled-intents.ts';
import { evaluateIntentSet, generatedIndex } from '../support/intent-evaluation.ts';

describe('labelled intent set', () => {
  const { index, dispose } = generatedIndex(3000);
  afterAll(dispose);

  it('has at least 80 intents', () => {
    expect(LABELLED_INTENTS.length).toBeGreaterThanOrEqual(80);
  });

  it('reads the intents as labelled and finds an answer in the top three', () => {
    const result = evaluateIntentSet(index);
    console.log(`intentFieldAccuracy ${result.intentFieldAccuracy.toFixed(3)}, intentTop3 ${result.intentTop3.toFixed(3)} over ${result.intents} intents`);
    for (const miss of result.misses) console.log(`  ${miss.hit ? '   ' : 'NO3'} ${miss.intent}: ${miss.wrongFields.join('; ')}`);
    expect(result.intentFieldAccuracy).toBeGreaterThanOrEqual(0.95);
    expect(result.intentTop3).toBeGreaterThanOrEqual(0.9);
  });
});
