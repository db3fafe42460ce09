/// <reference lib="dom" />
// The page's few DOM helpers. Everything the API returns is set with textContent, never as markup.

export function $(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}`);
  return element;
}

export function input(id: string): HTMLInputElement {
  return $(id) as HTMLInputElement;
}

/** The status line of a view (`status`, `approvals-status`). */
export function say(message: string, isError = false, line = 'status'): void {
  const status = $(line);
  status.textContent = message;
  status.className = isError ? 'status-failed' : 'muted';
}

export function cell(row: HTMLTableRowElement, text: string, className?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  row.appendChild(td);
  return td;
}

/** Appends a row; each cell is labelled with its column's heading (shown beside it on narrow screens). */
export function addRow(body: HTMLElement, row: HTMLTableRowElement): void {
  const headings = body.closest('table')?.querySelectorAll('thead th') ?? [];
  Array.from(row.children).forEach((td, index) => {
    const heading = headings[index];
    if (heading) td.setAttribute('data-label', heading.textContent ?? '');
  });
  body.appendChild(row);
}

export function button(label: string, onClick: () => void, secondary = false): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = label;
  if (secondary) element.className = 'secondary';
  element.addEventListener('click', onClick);
  return element;
}
