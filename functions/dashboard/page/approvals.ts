/// <reference lib="dom" />
// The Approvals view (main key of a buyer): orders its programs placed over their keys' approvalAbove,
// with the key that placed each, its total and when its approval expires; approve (the seller then gets
// the order) or decline (stock and spend released). A restricted key may list orders but not decide, so
// the view asks the API whether this is the main key (GET /v1/agents/me/keys answers it alone).
import { api, ApiFailure, type Money, type Page } from './api.ts';
import { $, addRow, button, cell, input, say } from './dom.ts';
import { counted, formatMoney, timeLeft } from './format.ts';

interface AwaitingOrder {
  orderId: string;
  status: string;
  totalAmount: Money;
  items: { productId: string; quantity: number; unitPrice: number }[];
  createdAt: string;
  approval?: { keyId: string; keyName: string; approvalAbove: Money; expiresAt: string };
}

const line = 'approvals-status';
const note = (message: string, isError = false) => say(message, isError, line);

/** Shows the view for a buyer's main key; says why it is not there otherwise. */
export async function setUpApprovalsFor(role: string): Promise<void> {
  const panel = $('approvals-panel');
  if (role !== 'buyer') {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  try {
    await api('GET', '/v1/agents/me/keys?limit=1');
  } catch (error) {
    if (error instanceof ApiFailure && error.code === 'auth/insufficient-scope') {
      $('approvals-table').hidden = true;
      $('approvals-actions').hidden = true;
      note('Orders are approved with the agent’s main key: sign in with it to approve or decline.');
      return;
    }
    throw error;
  }
  $('approvals-table').hidden = false;
  $('approvals-actions').hidden = false;
  await loadApprovals();
}

export async function loadApprovals(): Promise<void> {
  note('Loading orders awaiting approval…');
  const page = await api<Page<AwaitingOrder>>('GET', '/v1/orders?status=awaiting_approval&limit=100');
  const body = $('approvals');
  body.replaceChildren();
  const now = Date.now();
  for (const order of page.items) {
    const row = document.createElement('tr');
    row.dataset.orderId = order.orderId;
    cell(row, order.orderId, 'url');
    cell(row, order.approval?.keyName ?? '–');
    cell(row, formatMoney(order.totalAmount));
    cell(row, order.items.map((item) => `${item.quantity} × ${formatMoney({ amount: item.unitPrice, currency: order.totalAmount.currency })}`).join(', '));
    const expires = order.approval?.expiresAt;
    cell(row, expires ? `${new Date(expires).toLocaleString()} (${timeLeft(expires, now)})` : '–');
    const actions = document.createElement('div');
    actions.className = 'actions';
    actions.append(button('Approve', () => void decide(order, 'approve')), button('Decline', () => void decide(order, 'decline'), true));
    row.appendChild(document.createElement('td')).appendChild(actions);
    addRow(body, row);
  }
  $('no-approvals').hidden = page.items.length > 0;
  note(`${counted(page.items.length, 'order', 'orders')} awaiting approval.`);
}

async function decide(order: AwaitingOrder, decision: 'approve' | 'decline'): Promise<void> {
  const buttons = Array.from(document.querySelectorAll<HTMLButtonElement>(`#approvals tr[data-order-id="${order.orderId}"] button`));
  for (const element of buttons) element.disabled = true;
  const reason = input('decline-reason').value.trim();
  try {
    await api('POST', `/v1/orders/${order.orderId}/${decision}`, decision === 'decline' && reason ? { reason } : undefined);
    if (decision === 'decline') input('decline-reason').value = '';
    await loadApprovals();
    note(decision === 'approve' ? `Approved ${order.orderId} (${formatMoney(order.totalAmount)}): the seller has it now.` : `Declined ${order.orderId}: its stock and spend are released.`);
  } catch (error) {
    note(`Could not ${decision} ${order.orderId}: ${(error as Error).message}`, true);
    for (const element of buttons) element.disabled = false;
  }
}

export function clearApprovals(): void {
  $('approvals').replaceChildren();
  $('approvals-panel').hidden = true;
  $(line).textContent = '';
}

export function setUpApprovals(): void {
  $('refresh-approvals').addEventListener('click', () => void loadApprovals().catch((error: unknown) => note((error as Error).message, true)));
}
