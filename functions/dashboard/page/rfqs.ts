/// <reference lib="dom" />
// The RFQs view (a buyer): its requests for quotes, newest first (GET /v1/rfqs), with their status, when
// they close and how many sellers they reached; one opens to its quotes, best first as the API ranks them
// (GET /v1/rfqs/{id}), each awardable while the request is open or closed and the quote still valid
// (POST /v1/rfqs/{id}/award), which makes an accepted negotiation session to order from.
import { api, ApiFailure, type Money, type Page } from './api.ts';
import { $, addRow, button, cell, say } from './dom.ts';
import { counted, formatMoney, timeLeft } from './format.ts';

interface QuoteRow {
  quoteId: string;
  sellerId: string;
  status: string;
  currency: string;
  unitPrice: number;
  quantity: number;
  totalAmount: Money;
  leadTimeDays: number;
  validUntil: string;
  message: string | null;
}

interface RfqRow {
  rfqId: string;
  title: string;
  status: string;
  quantity: number;
  unit: string | null;
  currency: string;
  maxUnitPrice: number | null;
  closesAt: string;
  sellerCount?: number | null;
  awardedQuoteId: string | null;
  sessionId: string | null;
  quotes?: QuoteRow[];
}

const line = 'rfqs-status';
const note = (message: string, isError = false) => say(message, isError, line);

/** The RFQ whose quotes are shown, if any: a reload of the list reloads it too. */
let shown: string | undefined;

const statusClass = (status: string) => (status === 'awarded' ? 'status-delivered' : status === 'cancelled' ? 'status-failed' : status === 'open' ? 'status-pending' : '');

/** Shows the view for a buyer; a key that may not read RFQs is told so. */
export async function setUpRfqsFor(role: string): Promise<void> {
  const panel = $('rfqs-panel');
  if (role !== 'buyer') {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  try {
    await loadRfqs();
  } catch (error) {
    if (error instanceof ApiFailure && error.code === 'auth/insufficient-scope') {
      $('rfqs-table').hidden = true;
      note('This key may not read requests for quotes (it needs rfqs:read).');
      return;
    }
    throw error;
  }
}

export async function loadRfqs(): Promise<void> {
  note('Loading requests for quotes…');
  const page = await api<Page<RfqRow>>('GET', '/v1/rfqs?limit=50');
  $('rfqs-table').hidden = false;
  const body = $('rfqs');
  body.replaceChildren();
  const now = Date.now();
  for (const rfq of page.items) {
    const row = document.createElement('tr');
    row.dataset.rfqId = rfq.rfqId;
    const title = cell(row, rfq.title, 'long');
    title.append(document.createElement('br'), Object.assign(document.createElement('span'), { className: 'url muted', textContent: rfq.rfqId }));
    cell(row, `${rfq.quantity.toLocaleString('en-US')}${rfq.unit ? ` ${rfq.unit}` : ''}${rfq.maxUnitPrice !== null ? ` at most ${formatMoney({ amount: rfq.maxUnitPrice, currency: rfq.currency })} each` : ` in ${rfq.currency}`}`);
    cell(row, rfq.status, statusClass(rfq.status));
    cell(row, `${new Date(rfq.closesAt).toLocaleString()}${rfq.status === 'open' ? ` (${timeLeft(rfq.closesAt, now)})` : ''}`);
    cell(row, rfq.sellerCount === null || rfq.sellerCount === undefined ? 'being found…' : counted(rfq.sellerCount, 'seller', 'sellers'));
    const actions = document.createElement('div');
    actions.className = 'actions';
    actions.append(button('Quotes', () => void showRfq(rfq.rfqId).catch((error: unknown) => note(`Could not read ${rfq.rfqId}: ${(error as Error).message}`, true)), true));
    row.appendChild(document.createElement('td')).appendChild(actions);
    addRow(body, row);
  }
  $('no-rfqs').hidden = page.items.length > 0;
  note(`${counted(page.items.length, 'request for quotes', 'requests for quotes')}${page.nextCursor ? ' (the latest 50)' : ''}.`);
  if (shown) await showRfq(shown);
}

/** One RFQ's quotes, best first, with an Award button on each quote that can still be awarded. */
async function showRfq(rfqId: string): Promise<void> {
  const rfq = await api<RfqRow>('GET', `/v1/rfqs/${rfqId}`);
  shown = rfqId;
  $('rfq-title').textContent = `${rfq.title} (${rfq.rfqId})`;
  const awardable = rfq.status === 'open' || rfq.status === 'closed';
  $('rfq-summary').textContent =
    rfq.status === 'awarded'
      ? `Awarded: order it with POST /v1/create-order {"sessionId":"${rfq.sessionId ?? ''}"}.`
      : `${rfq.status === 'open' ? 'Open' : rfq.status === 'closed' ? 'Closed: its quotes can still be awarded until they expire' : 'Cancelled'}; ${counted(rfq.quotes?.length ?? 0, 'quote', 'quotes')}, best first.`;
  const body = $('quotes');
  body.replaceChildren();
  const now = Date.now();
  for (const quote of rfq.quotes ?? []) {
    const row = document.createElement('tr');
    row.dataset.quoteId = quote.quoteId;
    cell(row, quote.sellerId, 'url');
    cell(row, formatMoney({ amount: quote.unitPrice, currency: quote.currency }));
    cell(row, quote.quantity.toLocaleString('en-US'));
    cell(row, formatMoney(quote.totalAmount));
    cell(row, counted(quote.leadTimeDays, 'day', 'days'));
    cell(row, `${new Date(quote.validUntil).toLocaleString()} (${timeLeft(quote.validUntil, now)})`);
    cell(row, quote.status, quote.status === 'accepted' ? 'status-delivered' : quote.status === 'submitted' ? '' : 'muted');
    cell(row, quote.message ?? '', 'long');
    const actions = document.createElement('div');
    actions.className = 'actions';
    if (awardable && quote.status === 'submitted') actions.append(button('Award', () => void award(rfq, quote)));
    row.appendChild(document.createElement('td')).appendChild(actions);
    addRow(body, row);
  }
  $('no-quotes').hidden = (rfq.quotes?.length ?? 0) > 0;
  $('rfq-panel').hidden = false;
}

async function award(rfq: RfqRow, quote: QuoteRow): Promise<void> {
  const buttons = Array.from(document.querySelectorAll<HTMLButtonElement>('#quotes button'));
  for (const element of buttons) element.disabled = true;
  try {
    const awarded = await api<RfqRow>('POST', `/v1/rfqs/${rfq.rfqId}/award`, { quoteId: quote.quoteId });
    await loadRfqs();
    note(`Awarded ${quote.quoteId} (${formatMoney(quote.totalAmount)}) on ${rfq.rfqId}: session ${awarded.sessionId ?? ''} is accepted, ready to order.`);
  } catch (error) {
    note(`Could not award ${quote.quoteId}: ${(error as Error).message}`, true);
    for (const element of buttons) element.disabled = false;
  }
}

/** Signing out forgets the RFQs and quotes shown. */
export function clearRfqs(): void {
  shown = undefined;
  $('rfqs').replaceChildren();
  $('quotes').replaceChildren();
  $('rfq-title').textContent = '';
  $('rfq-summary').textContent = '';
  $('rfq-panel').hidden = true;
  $('rfqs-panel').hidden = true;
  $('no-rfqs').hidden = true;
  $(line).textContent = '';
}

export function setUpRfqs(): void {
  $('refresh-rfqs').addEventListener('click', () => void loadRfqs().catch((error: unknown) => note((error as Error).message, true)));
}
