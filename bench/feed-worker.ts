// One function alone, as Lambda runs it, for bench/feeds.ts (`feedPeakRssMb`): a child of the harness
// that imports a deployed bundle (its path, the function's name and timeout are the arguments after
// the data folder) and, on `invoke`, calls its handler with the event and a Lambda-shaped context.
// bench/feeds.ts runs it bundled as JavaScript (bundleWorkerHost: no type stripper in the process).
// It imports nothing else of ours that the bundle does not hold, so its resident set is the
// function's: node, this file, the harness (node built-ins only) and the bundle.
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { lambdaContext } from '../lib/local/lambda.ts';
import { isBenchChild, processMemoryMb, serveChild } from './harness.ts';

const MIB = 1024 * 1024;
/** How often the heap is sampled during an invocation (the resident peak is the kernel's, exact). */
const SAMPLE_MS = 100;

if (isBenchChild()) {
  await serveChild(async ({ args }) => {
    const [bundle, functionName, timeoutMs] = args as [string, string, string];
    const rssBeforeImportMb = processMemoryMb().peakRssMb;
    const loaded = (await import(pathToFileURL(bundle).href)) as { handler: (event: unknown, context: Context) => Promise<unknown> };
    const rssAfterImportMb = processMemoryMb().peakRssMb;
    return {
      ready: { rssBeforeImportMb, rssAfterImportMb },
      commands: {
        invoke: async (event: unknown) => {
          const peaks = { heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 };
          const sample = () => {
            const usage = process.memoryUsage();
            for (const key of Object.keys(peaks) as (keyof typeof peaks)[]) peaks[key] = Math.max(peaks[key], usage[key]);
          };
          const sampler = setInterval(sample, SAMPLE_MS);
          const started = performance.now();
          try {
            await loaded.handler(event, lambdaContext(functionName, Number(timeoutMs)));
          } finally {
            clearInterval(sampler);
          }
          const seconds = (performance.now() - started) / 1000;
          sample();
          return {
            seconds,
            peakRssMb: processMemoryMb().peakRssMb,
            heapUsedPeakMb: peaks.heapUsed / MIB,
            heapTotalPeakMb: peaks.heapTotal / MIB,
            externalPeakMb: peaks.external / MIB,
            arrayBuffersPeakMb: peaks.arrayBuffers / MIB,
          };
        },
      },
    };
  });
}
