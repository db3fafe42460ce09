/// <reference lib="dom" />
// The dashboard page's script (bundled by esbuild into the page: lib/dashboard-page.ts): sign in with
// a key, then the Approvals view (a buyer's main key), the RFQs view (a buyer), the Requests view and the webhook deliveries view.
import { api, ApiFailure, KEY } from './api.ts';
import { clearApprovals, setUpApprovals, setUpApprovalsFor } from './approvals.ts';
import { clearDeliveries, loadSubscriptions, setUpDeliveries } from './deliveries.ts';
import { clearRequests, loadRequests, setUpRequests } from './requests.ts';
import { clearRfqs, setUpRfqs, setUpRfqsFor } from './rfqs.ts';
import { $, input, say } from './dom.ts';

async function load(): Promise<void> {
  try {
    const me = await api<{ name: string; role: string }>('GET', '/v1/agents/me');
    $('who').textContent = `${me.name} (${me.role})`;
    $('signin').hidden = true;
    $('app').hidden = false;
    $('signout').hidden = false;
    // Each view says its own trouble on its own status line: one failing never signs the user out.
    const approvals = setUpApprovalsFor(me.role).catch((error: unknown) => say((error as Error).message, true, 'approvals-status'));
    const deliveries = loadSubscriptions().catch((error: unknown) => {
      // A restricted key without webhooks:read still signs in, for the views it may see.
      if (!(error instanceof ApiFailure && error.code === 'auth/insufficient-scope')) throw error;
      say('This key may not read webhook subscriptions (it needs webhooks:read).');
    });
    const rfqs = setUpRfqsFor(me.role).catch((error: unknown) => say((error as Error).message, true, 'rfqs-status'));
    const requests = loadRequests().catch((error: unknown) => say((error as Error).message, true, 'requests-status'));
    await Promise.all([approvals, rfqs, requests, deliveries]);
  } catch (error) {
    // A key the API refuses is forgotten; anything else is said, and the key kept for a retry.
    if (error instanceof ApiFailure && error.status === 401) sessionStorage.removeItem(KEY);
    say(`Sign-in failed: ${(error as Error).message}`, true);
  }
}

async function signIn(event: Event): Promise<void> {
  event.preventDefault();
  const key = input('key').value.trim();
  if (!key) return say('Paste an API key first.', true);
  sessionStorage.setItem(KEY, key);
  input('key').value = '';
  await load();
}

function signOut(): void {
  sessionStorage.removeItem(KEY);
  clearDeliveries();
  clearApprovals();
  clearRequests();
  clearRfqs();
  $('app').hidden = true;
  $('signin').hidden = false;
  $('who').textContent = '';
  $('signout').hidden = true;
  say('Signed out.');
  $('key').focus();
}

document.addEventListener('DOMContentLoaded', () => {
  $('signin-form').addEventListener('submit', (event) => void signIn(event));
  $('signout').addEventListener('click', signOut);
  setUpDeliveries();
  setUpApprovals();
  setUpRequests();
  setUpRfqs();
  if (sessionStorage.getItem(KEY)) void load();
});
