/// <reference lib="dom" />
// The Requests view: the signed-in key's request log (GET /v1/requests: the agent's requests of the
// last 7 days, a restricted key's own), newest first, filtered by status class and path prefix; an
// error opens to the body it answered (GET /v1/requests/{requestId}).
import { api, type Page } from './api.ts';
import { $, addRow, button, cell, input, say } from './dom.ts';
import { counted, formatDuration } from './format.ts';

interface LoggedRequest {
  requestId: string;
  at: string;
  method: string;
  path: string;
  status: number;
  code: string | null;
  durationMs: number;
  keyId: string;
  idempotencyKey: string | null;
  idempotentReplayed: boolean;
}

const line = 'requests-status';
const note = (message: string, isError = false) => say(message, isError, line);

const statusClass = (status: number) => (status >= 500 ? 'status-failed' : status >= 400 ? 'status-pending' : 'status-delivered');

export async function loadRequests(): Promise<void> {
  note('Loading requests…');
  $('request-error-panel').hidden = true;
  const query = new URLSearchParams({ limit: '50' });
  const status = (document.getElementById('requests-filter') as HTMLSelectElement).value;
  const path = input('requests-path').value.trim();
  if (status) query.set('status', status);
  if (path) query.set('path', path);
  const page = await api<Page<LoggedRequest>>('GET', `/v1/requests?${query.toString()}`);
  const body = $('requests');
  body.replaceChildren();
  for (const request of page.items) {
    const row = document.createElement('tr');
    row.dataset.requestId = request.requestId;
    cell(row, new Date(request.at).toLocaleString());
    cell(row, `${request.method} ${request.path}`, 'url');
    cell(row, request.code ? `${request.status} ${request.code}` : String(request.status), statusClass(request.status));
    cell(row, `${formatDuration(Math.round(request.durationMs))}${request.idempotentReplayed ? ' (replayed)' : ''}`);
    cell(row, request.keyId, 'url');
    cell(row, request.requestId, 'url');
    const actions = document.createElement('div');
    actions.className = 'actions';
    if (request.status >= 400) actions.append(button('Error body', () => void showError(request), true));
    row.appendChild(document.createElement('td')).appendChild(actions);
    addRow(body, row);
  }
  $('no-requests').hidden = page.items.length > 0;
  note(`${counted(page.items.length, 'request', 'requests')}${page.nextCursor ? ' (the latest; narrow with the filters to see older ones)' : ''}.`);
}

async function showError(request: LoggedRequest): Promise<void> {
  try {
    const detail = await api<LoggedRequest & { error: unknown }>('GET', `/v1/requests/${request.requestId}`);
    $('request-error-title').textContent = `${request.method} ${request.path} → ${request.status}`;
    $('request-error').textContent = JSON.stringify(detail.error, null, 2);
    $('request-error-panel').hidden = false;
    $('request-error-title').focus();
  } catch (error) {
    note(`Could not read ${request.requestId}: ${(error as Error).message}`, true);
  }
}

/** Signing out forgets what the key's log showed, and the filters it was read with. */
export function clearRequests(): void {
  $('requests').replaceChildren();
  $('request-error-panel').hidden = true;
  $('request-error-title').textContent = '';
  $('request-error').textContent = '';
  $('no-requests').hidden = true;
  (document.getElementById('requests-filter') as HTMLSelectElement).value = '';
  input('requests-path').value = '';
  $(line).textContent = '';
}

export function setUpRequests(): void {
  const reload = () => void loadRequests().catch((error: unknown) => note((error as Error).message, true));
  $('refresh-requests').addEventListener('click', reload);
  $('requests-filter').addEventListener('change', reload);
  $('requests-form').addEventListener('submit', (event) => {
    event.preventDefault();
    reload();
  });
}
