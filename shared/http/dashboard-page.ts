// The webhook dashboard: one HTML page with its style and script inline, allowed by their hashes in
// the Content-Security-Policy (no 'unsafe-inline', no other origin). The script calls the public API
// from the same origin with the key the user pastes, which it keeps in this tab's sessionStorage only.
// Everything it shows is set with textContent: delivery payloads and responses are never markup.
import { createHash } from 'node:crypto';

const STYLE = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0a58ca; --ok: #116329; --bad: #a40e26; --warn: #7d4e00; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f8fa; }
header { background: #fff; border-bottom: 1px solid var(--line); padding: 0.75rem 1.5rem; display: flex; gap: 1rem; align-items: center; justify-content: space-between; }
header h1 { font-size: 1.15rem; margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; display: grid; gap: 1.5rem; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; }
h2 { font-size: 1.05rem; margin: 0 0 0.75rem; }
label { font-weight: 600; display: block; margin-bottom: 0.25rem; }
input, select, button { font: inherit; }
input[type=password] { width: min(36rem, 100%); padding: 0.45rem 0.6rem; border: 1px solid var(--line); border-radius: 6px; }
button { padding: 0.4rem 0.9rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button:disabled { opacity: 0.55; cursor: not-allowed; }
button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #79b8ff; outline-offset: 2px; }
table { width: 100%; border-collapse: collapse; font-size: 0.93rem; }
th, td { text-align: left; padding: 0.45rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
.status-delivered { color: var(--ok); font-weight: 600; }
.status-failed { color: var(--bad); font-weight: 600; }
.status-pending { color: var(--warn); font-weight: 600; }
.url { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; overflow: auto; max-height: 24rem; font-size: 0.85rem; }
.row { display: flex; gap: 0.75rem; align-items: end; flex-wrap: wrap; }
.muted { color: var(--muted); }
[hidden] { display: none !important; }
`;

const SCRIPT = `
'use strict';
const KEY = 'marketplaceApiKey';
const $ = (id) => document.getElementById(id);
const state = { subscription: null, delivery: null };

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

function signOut() {
  sessionStorage.removeItem(KEY);
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
    cell(row, subscription.active ? 'active' : 'inactive');
    const health = cell(row, counts.delivered + ' delivered, ' + counts.pending + ' pending, ' + counts.failed + ' failed', counts.failed > 0 ? 'status-failed' : 'status-delivered');
    health.setAttribute('data-failed', String(counts.failed));
    const actions = document.createElement('td');
    actions.appendChild(button('Deliveries', () => openSubscription(subscription), true));
    row.appendChild(actions);
    body.appendChild(row);
  }
  $('no-subscriptions').hidden = page.items.length > 0;
  say(page.items.length + ' subscription(s).');
}

async function openSubscription(subscription) {
  state.subscription = subscription;
  $('deliveries-panel').hidden = false;
  $('deliveries-title').textContent = 'Deliveries to ' + subscription.url;
  await loadDeliveries();
  $('filter').focus();
}

async function loadDeliveries() {
  const filter = $('filter').value;
  const query = '?limit=100' + (filter ? '&status=' + filter : '');
  const page = await api('GET', '/v1/webhooks/' + state.subscription.id + '/deliveries' + query);
  const body = $('deliveries');
  body.replaceChildren();
  for (const delivery of page.items) {
    const row = document.createElement('tr');
    cell(row, delivery.eventType);
    cell(row, new Date(delivery.createdAt).toLocaleString());
    cell(row, delivery.status, 'status-' + delivery.status);
    cell(row, String(delivery.attempts.length));
    const last = delivery.attempts[delivery.attempts.length - 1];
    cell(row, last ? (last.error || 'OK') + (last.statusCode ? ' (' + last.statusCode + ')' : '') : '–');
    const actions = document.createElement('td');
    actions.appendChild(button('Open', () => openDelivery(delivery.deliveryId), true));
    row.appendChild(actions);
    body.appendChild(row);
  }
  $('no-deliveries').hidden = page.items.length > 0;
  say(page.items.length + ' delivery(ies)' + (filter ? ' ' + filter : '') + '.');
}

async function openDelivery(deliveryId) {
  const delivery = await api('GET', '/v1/webhooks/' + state.subscription.id + '/deliveries/' + deliveryId);
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
    cell(row, attempt.durationMs + ' ms');
    cell(row, attempt.manual ? 'manual' : 'scheduled');
    cell(row, attempt.responseBody || '');
    body.appendChild(row);
  }
  let payload = delivery.payload;
  try { payload = JSON.stringify(JSON.parse(payload), null, 2); } catch (error) { /* shown as sent */ }
  $('payload').textContent = payload;
  $('retry').disabled = delivery.status === 'pending';
  $('delivery-title').focus();
}

async function retry() {
  const delivery = state.delivery;
  $('retry').disabled = true;
  try {
    await api('POST', '/v1/webhooks/' + state.subscription.id + '/deliveries/' + delivery.deliveryId + '/retry');
    say('Retry queued…');
    for (let i = 0; i < 60; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const current = await api('GET', '/v1/webhooks/' + state.subscription.id + '/deliveries/' + delivery.deliveryId);
      if (current.status !== 'pending') break;
    }
    await openDelivery(delivery.deliveryId);
    await loadDeliveries();
    say('Retried: the delivery is ' + state.delivery.status + '.');
  } catch (error) {
    say('Retry failed: ' + error.message, true);
    $('retry').disabled = false;
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
      <table>
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
      <table>
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
      <table>
        <thead><tr><th scope="col">Time</th><th scope="col">Status code</th><th scope="col">Outcome</th><th scope="col">Duration</th><th scope="col">Sent</th><th scope="col">Response (first 1 KB)</th></tr></thead>
        <tbody id="attempts"></tbody>
      </table>
      <h3>Payload (exactly as signed and sent)</h3>
      <pre id="payload"></pre>
    </section>
  </div>
</main>
</body>
</html>
`;
