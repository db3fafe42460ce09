// The webhook dashboard: one HTML page with its style and script inline, allowed by their hashes in
// the Content-Security-Policy (no 'unsafe-inline', no other origin). The script calls the public API
// from the same origin with the key the user pastes, which it keeps in this tab's sessionStorage only.
// Everything it shows is set with textContent: delivery payloads and responses are never markup.
import { createHash } from 'node:crypto';

const STYLE = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0a58ca; --ok: #116329; --bad: #a40e26; --warn: #7d4e00; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f8fa; }
header { background: #fff; border-bottom: 1px solid var(--line); padding: 0.75rem 1.5rem; display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between; }
header h1 { font-size: 1.15rem; margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; display: grid; grid-template-columns: minmax(0, 1fr); gap: 1.5rem; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; }
h2 { font-size: 1.05rem; margin: 0 0 0.75rem; }
h2, h3, p { overflow-wrap: anywhere; }
label { font-weight: 600; display: block; margin-bottom: 0.25rem; }
input, select, button { font: inherit; }
input[type=password] { width: min(36rem, 100%); padding: 0.45rem 0.6rem; border: 1px solid var(--line); border-radius: 6px; }
button { white-space: nowrap; padding: 0.4rem 0.9rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button:disabled { opacity: 0.55; cursor: not-allowed; }
button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #79b8ff; outline-offset: 2px; }
table { width: 100%; border-collapse: collapse; font-size: 0.93rem; }
th, td { text-align: left; padding: 0.45rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
caption { text-align: left; margin-bottom: 0.25rem; }
.long { overflow-wrap: anywhere; }
th { color: var(--muted); font-weight: 600; }
.status-delivered { color: var(--ok); font-weight: 600; }
.status-failed { color: var(--bad); font-weight: 600; }
.status-pending { color: var(--warn); font-weight: 600; }
.url { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; overflow: auto; max-height: 24rem; font-size: 0.85rem; white-space: pre-wrap; overflow-wrap: anywhere; }
summary { cursor: pointer; color: var(--accent); }
@media (max-width: 40rem) {
  header { padding: 0.75rem 1rem; }
  main { padding: 1rem 0.75rem; gap: 1rem; }
  section { padding: 0.75rem; }
  /* Tables become one card per row, each cell labelled with its column's heading. */
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.cards tr { display: block; padding: 0.5rem 0; border-bottom: 1px solid var(--line); }
  table.cards td { display: grid; grid-template-columns: 7.5rem minmax(0, 1fr); gap: 0.5rem; padding: 0.15rem 0; border: 0; }
  table.cards td::before { content: attr(data-label); color: var(--muted); font-weight: 600; }
}
.row { display: flex; gap: 0.75rem; align-items: end; flex-wrap: wrap; }
.muted { color: var(--muted); }
[hidden] { display: none !important; }
`;

const SCRIPT = `
'use strict';
const KEY = 'marketplaceApiKey';
const $ = (id) => document.getElementById(id);
// view grows whenever the user opens another subscription or delivery: an answer for an older view is dropped.
const state = { subscription: null, delivery: null, view: 0 };

/** "1 delivery", "3 deliveries". */
function counted(count, one, many) {
  return count.toLocaleString('en-US') + ' ' + (count === 1 ? one : many);
}

/** A byte count as people read it: "412 bytes", "1.5 KiB", "391 KiB", "5.0 MiB". */
function humanSize(bytes) {
  if (bytes < 1024) return counted(bytes, 'byte', 'bytes');
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return (value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')) + ' ' + units[unit];
}

function say(message, isError) {
  const status = $('status');
  status.textContent = message;
  status.className = isError ? 'status-failed' : 'muted';
}

async function api(method, path) {
  const response = await fetch(path, { method, headers: { authorization: 'Bearer ' + sessionStorage.getItem(KEY), accept: 'application/json' } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((body && body.error) || ('HTTP ' + response.status));
  return body.data;
}

function cell(row, text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  row.appendChild(td);
  return td;
}

/** Appends a row; each cell is labelled with its column's heading (shown beside it on narrow screens). */
function addRow(body, row) {
  const headings = body.closest('table').querySelectorAll('thead th');
  Array.from(row.children).forEach((td, index) => {
    if (headings[index]) td.setAttribute('data-label', headings[index].textContent);
  });
  body.appendChild(row);
}

function button(label, onClick, secondary) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  if (secondary) b.className = 'secondary';
  b.addEventListener('click', onClick);
  return b;
}

async function signIn(event) {
  event.preventDefault();
  const key = $('key').value.trim();
  if (!key) return say('Paste an API key first.', true);
  sessionStorage.setItem(KEY, key);
  $('key').value = '';
  await load();
}

/** Forgets everything shown for the agent that signed in. */
function clearApp() {
  state.subscription = null;
  state.view += 1;
  closeDelivery();
  $('deliveries').replaceChildren();
  $('deliveries-panel').hidden = true;
  $('subscriptions').replaceChildren();
}

function signOut() {
  sessionStorage.removeItem(KEY);
  clearApp();
  $('app').hidden = true;
  $('signin').hidden = false;
  $('who').textContent = '';
  $('signout').hidden = true;
  say('Signed out.');
  $('key').focus();
}

async function load() {
  try {
    const me = await api('GET', '/v1/agents/me');
    $('who').textContent = me.name + ' (' + me.role + ')';
    $('signin').hidden = true;
    $('app').hidden = false;
    $('signout').hidden = false;
    await loadSubscriptions();
  } catch (error) {
    sessionStorage.removeItem(KEY);
    say('Sign-in failed: ' + error.message, true);
  }
}

async function loadSubscriptions() {
  say('Loading subscriptions…');
  const page = await api('GET', '/v1/webhooks?limit=100');
  const body = $('subscriptions');
  body.replaceChildren();
  for (const subscription of page.items) {
    const deliveries = await api('GET', '/v1/webhooks/' + subscription.id + '/deliveries?limit=100');
    const counts = { delivered: 0, pending: 0, failed: 0 };
    for (const delivery of deliveries.items) counts[delivery.status] += 1;
    const row = document.createElement('tr');
    cell(row, subscription.url, 'url');
    cell(row, subscription.events.join(', '));
    cell(row, subscription.active
      ? (subscription.failingSince ? 'active, failing since ' + subscription.failingSince : 'active')
      : subscription.disabledReason === 'deliveries-failing' ? 'disabled: every delivery failed since ' + subscription.failingSince + ' (PATCH active: true turns it back on)' : 'inactive');
    const health = cell(row, counts.delivered + ' delivered, ' + counts.pending + ' pending, ' + counts.failed + ' failed', counts.failed > 0 ? 'status-failed' : 'status-delivered');
    health.setAttribute('data-failed', String(counts.failed));
    const actions = document.createElement('td');
    actions.appendChild(button('Deliveries', () => openSubscription(subscription), true));
    row.appendChild(actions);
    addRow(body, row);
  }
  $('no-subscriptions').hidden = page.items.length > 0;
  say(counted(page.items.length, 'subscription', 'subscriptions') + '.');
}

function closeDelivery() {
  state.delivery = null;
  $('delivery-panel').hidden = true;
  $('delivery-title').textContent = 'Delivery';
  $('delivery-status').textContent = '';
  $('attempts').replaceChildren();
  $('payload').textContent = '';
  $('payload-size').textContent = '';
  $('payload-formatted').textContent = '';
}

async function openSubscription(subscription) {
  state.subscription = subscription;
  state.view += 1;
  closeDelivery();
  $('deliveries').replaceChildren();
  $('deliveries-panel').hidden = false;
  $('deliveries-title').textContent = 'Deliveries to ' + subscription.url;
  await loadDeliveries();
  $('filter').focus();
}

async function loadDeliveries() {
  const filter = $('filter').value;
  const subscription = state.subscription;
  const query = '?limit=100' + (filter ? '&status=' + filter : '');
  const page = await api('GET', '/v1/webhooks/' + subscription.id + '/deliveries' + query);
  if (state.subscription !== subscription || $('filter').value !== filter) return;
  const body = $('deliveries');
  body.replaceChildren();
  for (const delivery of page.items) {
    const row = document.createElement('tr');
    cell(row, delivery.eventType);
    cell(row, new Date(delivery.createdAt).toLocaleString());
    cell(row, delivery.status, 'status-' + delivery.status);
    cell(row, String(delivery.attempts.length));
    const last = delivery.attempts[delivery.attempts.length - 1];
    cell(row, last ? (last.error || 'OK') + (last.statusCode ? ' (' + last.statusCode + ')' : '') : '–', 'long');
    const actions = document.createElement('td');
    actions.appendChild(button('Open', () => openDelivery(delivery.deliveryId).catch((error) => say(error.message, true)), true));
    row.appendChild(actions);
    addRow(body, row);
  }
  $('no-deliveries').hidden = page.items.length > 0;
  say(counted(page.items.length, 'delivery', 'deliveries') + (filter ? ' ' + filter : '') + '.');
}

async function openDelivery(deliveryId) {
  const view = ++state.view;
  const delivery = await api('GET', '/v1/webhooks/' + state.subscription.id + '/deliveries/' + deliveryId);
  if (state.view !== view) return;
  showDelivery(delivery);
  $('delivery-title').focus();
}

function formatDuration(ms) {
  return ms < 1000 ? ms + ' ms' : (ms / 1000).toFixed(1) + ' s';
}

function showDelivery(delivery) {
  state.delivery = delivery;
  $('delivery-panel').hidden = false;
  $('delivery-title').textContent = delivery.eventType + ' — ' + delivery.deliveryId;
  const status = $('delivery-status');
  status.textContent = delivery.status + (delivery.nextAttemptAt ? ', next attempt ' + new Date(delivery.nextAttemptAt).toLocaleString() : '');
  status.className = 'status-' + delivery.status;
  const body = $('attempts');
  body.replaceChildren();
  for (const attempt of delivery.attempts) {
    const row = document.createElement('tr');
    cell(row, new Date(attempt.at).toLocaleString());
    cell(row, attempt.statusCode === null ? '–' : String(attempt.statusCode));
    cell(row, attempt.error || 'OK', attempt.error ? 'status-failed' : 'status-delivered');
    cell(row, formatDuration(attempt.durationMs));
    cell(row, attempt.manual ? 'manual' : 'scheduled');
    cell(row, attempt.responseBody || '', 'long');
    addRow(body, row);
  }
  // The exact text that was signed: re-indenting it would give bytes whose signature does not verify.
  $('payload').textContent = delivery.payload;
  $('payload-size').textContent = humanSize(new TextEncoder().encode(delivery.payload).length);
  let formatted = '';
  try { formatted = JSON.stringify(JSON.parse(delivery.payload), null, 2); } catch (error) { /* not JSON: only the exact text */ }
  $('payload-formatted').textContent = formatted;
  $('payload-formatted-panel').hidden = formatted === '';
  $('retry').disabled = delivery.status === 'pending';
}

async function retry() {
  const delivery = state.delivery;
  const view = state.view;
  const path = '/v1/webhooks/' + state.subscription.id + '/deliveries/' + delivery.deliveryId;
  $('retry').disabled = true;
  try {
    await api('POST', path + '/retry');
    say('Retry queued…');
    let current = delivery;
    for (let i = 0; i < 60; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      current = await api('GET', path);
      if (current.status !== 'pending' || state.view !== view) break;
    }
    // The user may have opened something else meanwhile: then only the status line tells the outcome.
    if (state.view === view) {
      showDelivery(current);
      await loadDeliveries();
    }
    await loadSubscriptions();
    say('Retried: the delivery is ' + current.status + '.');
  } catch (error) {
    say('Retry failed: ' + error.message, true);
    if (state.view === view) $('retry').disabled = false;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  $('signin-form').addEventListener('submit', signIn);
  $('signout').addEventListener('click', signOut);
  $('filter').addEventListener('change', () => loadDeliveries().catch((error) => say(error.message, true)));
  $('refresh').addEventListener('click', () => loadSubscriptions().catch((error) => say(error.message, true)));
  $('retry').addEventListener('click', retry);
  if (sessionStorage.getItem(KEY)) load();
});
`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Only this page's own inline script and style, and requests to its own origin. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  `script-src ${hash(SCRIPT)}`,
  `style-src ${hash(STYLE)}`,
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Webhook deliveries — Agent Marketplace</title>
<style>${STYLE}</style>
<script>${SCRIPT}</script>
</head>
<body>
<header>
  <h1>Agent Marketplace · Webhook deliveries</h1>
  <div class="row"><span id="who" class="muted"></span><button id="signout" type="button" class="secondary" hidden>Sign out</button></div>
</header>
<main>
  <p id="status" class="muted" role="status" aria-live="polite"></p>
  <section id="signin" aria-labelledby="signin-title">
    <h2 id="signin-title">Sign in</h2>
    <form id="signin-form" class="row">
      <div>
        <label for="key">API key</label>
        <input id="key" type="password" autocomplete="off" spellcheck="false" placeholder="mk_test_…" aria-describedby="key-help">
        <p id="key-help" class="muted">Kept in this tab only (sessionStorage); closing the tab forgets it.</p>
      </div>
      <button type="submit">Sign in</button>
    </form>
  </section>
  <div id="app" hidden>
    <section aria-labelledby="subscriptions-title">
      <div class="row"><h2 id="subscriptions-title">Subscriptions</h2><button id="refresh" type="button" class="secondary">Refresh</button></div>
      <table class="cards">
        <caption class="muted">Health counts the latest 100 deliveries of each subscription.</caption>
        <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Delivery health</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
        <tbody id="subscriptions"></tbody>
      </table>
      <p id="no-subscriptions" class="muted" hidden>No subscriptions yet: create one with POST /v1/webhooks.</p>
    </section>
    <section id="deliveries-panel" aria-labelledby="deliveries-title" hidden>
      <h2 id="deliveries-title">Deliveries</h2>
      <div class="row">
        <div><label for="filter">Show</label>
        <select id="filter"><option value="">All deliveries</option><option value="failed">Failed</option><option value="pending">Pending</option><option value="delivered">Delivered</option></select></div>
      </div>
      <table class="cards">
        <thead><tr><th scope="col">Event</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last outcome</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
        <tbody id="deliveries"></tbody>
      </table>
      <p id="no-deliveries" class="muted" hidden>No deliveries match.</p>
    </section>
    <section id="delivery-panel" aria-labelledby="delivery-title" hidden>
      <h2 id="delivery-title" tabindex="-1">Delivery</h2>
      <p>Status: <span id="delivery-status"></span></p>
      <button id="retry" type="button">Retry now</button>
      <h3>Attempts</h3>
      <table class="cards">
        <thead><tr><th scope="col">Time</th><th scope="col">Status code</th><th scope="col">Outcome</th><th scope="col">Duration</th><th scope="col">Sent</th><th scope="col">Response (first 1 KB)</th></tr></thead>
        <tbody id="attempts"></tbody>
      </table>
      <h3>Payload (exactly as signed and sent)</h3>
      <p class="muted">Size: <span id="payload-size"></span></p>
      <pre id="payload"></pre>
      <details id="payload-formatted-panel">
        <summary>Formatted for reading (not the signed bytes)</summary>
        <pre id="payload-formatted"></pre>
      </details>
    </section>
  </div>
</main>
</body>
</html>
`;
