// GET /.well-known/agent-card.json — built at synth (and by the local runtime at start), never in the
// function; its URLs are set to the origin the request came to, which synth cannot know.
import { apiHandler } from '../../shared/http/handler.ts';
import { AGENT_CARD_ORIGIN, requestOrigin } from '../../shared/http/agent-card.ts';
import { readBundledFile } from '../../shared/resources.ts';
import { route } from './agent-card.route.ts';

const built = readBundledFile('agent-card.json', import.meta.url);

/** Cards by origin; a handful at most (a stage answers on one or two hosts). */
const byOrigin = new Map<string, string>();

function cardFor(origin: string): string {
  let card = byOrigin.get(origin);
  if (card === undefined) {
    card = built.replaceAll(AGENT_CARD_ORIGIN, origin);
    if (byOrigin.size >= 8) byOrigin.clear();
    byOrigin.set(origin, card);
  }
  return card;
}

export const handler = apiHandler(route, ({ headers }) =>
  Promise.resolve({
    raw: { body: cardFor(requestOrigin(headers)), contentType: 'application/json; charset=utf-8' },
    headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
  }),
);
