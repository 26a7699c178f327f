/**
 * The review page's script (docs/view.md, The review), run in the browser: loads the queue from the view's
 * API a page at a time (the next page while the reviewer nears the end of what is loaded), shows one item at
 * a time and drives it from the keyboard. Every value from the dataset or a service is placed with
 * textContent, never as HTML. Writes go with the session cookie (HttpOnly: this script never sees the token)
 * and the item's ETag in If-Match; a refused write (stale ETag) leaves the item and the reviewer's choice on
 * screen with the server's message. On a markdown page item, text selected in the truth or a system's markdown
 * becomes a rule check appended to the dataset's checks.jsonl (docs/view.md, "Adding a rule check").
 *
 * A browser module: it imports only types (erased when compiled), so its compiled text stands alone and the
 * page inlines it as `<script type="module">`, allowed by its hash (../review-script.ts loads and hashes it).
 */
import type { ReviewPage } from '../review-queue-store.js';
import type { QueueItem, ReviewFigures } from '../review-source.js';
import type { TruthChange } from '../truth-files.js';
import type { AuthoredCheckType, CheckChange } from '../check-files.js';
import type { Json } from '../../types.js';

/** The page's `review-data` block (renderReviewPage). */
interface ReviewConfig {
  run: string;
  /** The run's API, ending in `/`. */
  api: string;
  page_size: number;
}

/** The body of a refused request (the server's sendError). */
interface ApiError {
  message?: string;
  hint?: string;
  /** The file's current ETag, with a 412. */
  etag?: string;
}

/** Text selected in a markdown page, and whose markdown it is (`truth` or a system's name). */
interface Selected {
  text: string;
  source: string;
}

type Reply<T> = { ok: true; status: number; json: T } | { ok: false; status: number; json: ApiError };

/** What undo reverts: an accepted or typed value (with the truth it replaced), or a move past an item. */
type Step = { index: number; action: 'accept'; old: Json } | { index: number; action: 'keep' | 'skip' };

function el(id: string): HTMLElement;
function el<T extends HTMLElement>(id: string, type: new () => T): T;
function el(id: string, type: new () => HTMLElement = HTMLElement): HTMLElement {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the review page has no ${type.name} #${id}`);
  return found;
}

const config = JSON.parse(el('review-data').textContent ?? '') as ReviewConfig;
const PAGE = config.page_size;
// Load the next page once the reviewer is this close to the end of the loaded items.
const AHEAD = 20;
const state = {
  items: [] as QueueItem[],
  total: 0,
  version: null as string | null,
  loading: null as Promise<void> | null,
  index: 0,
  history: [] as Step[],
  editing: false,
  figures: [] as ReviewFigures[],
  /** checks.jsonl's ETag, read before the first check is added. */
  checksEtag: null as string | null,
  /** The `before` of a before-after check while its `after` is being selected. */
  before: null as Selected | null,
};

function say(text: string, isError?: boolean): void {
  const m = el('message');
  m.textContent = text;
  m.className = isError ? 'error' : '';
  m.setAttribute('role', isError ? 'alert' : 'status');
}

function show(value: Json | undefined): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

async function request<T>(method: string, path: string, body?: unknown, etag?: string): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (etag) headers['if-match'] = etag;
  const response = await fetch(config.api + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  // The API answers JSON; a body that is not (a proxy's error page) reads as a refusal without a message.
  const json: unknown = await response.json().catch(() => ({}));
  return response.status === 200
    ? { ok: true, status: response.status, json: json as T }
    : { ok: false, status: response.status, json: (json ?? {}) as ApiError };
}

function percent(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(1)}%`;
}

function figuresText(figures: readonly ReviewFigures[]): string {
  return figures.map((f) => `${f.label} ${percent(f.value)}`).join(' · ');
}

function renderFigures(figures: readonly ReviewFigures[]): void {
  const box = el('figures');
  box.textContent = '';
  for (const f of figures) {
    const span = document.createElement('span');
    span.className = 'figure';
    span.setAttribute('data-label', f.label);
    span.textContent = `${f.label}: ${percent(f.value)}`;
    box.appendChild(span);
  }
}

function positionText(): string {
  if (state.total === 0) return 'Nothing to review: every system agrees with the truth.';
  if (state.index >= state.total) return `End of the queue: ${state.total} items.`;
  return `Item ${state.index + 1} of ${state.total}`;
}

function renderSystems(item: QueueItem): void {
  const list = el('systems');
  list.textContent = '';
  item.systems.forEach((s, i) => {
    const li = document.createElement('li');
    li.setAttribute('data-system', s.system);
    const head = document.createElement('div');
    const name = document.createElement('strong');
    name.textContent = `[${i + 1}] ${s.system}`;
    head.appendChild(name);
    const verdict = document.createElement('span');
    verdict.className = item.matches[i] ? 'match' : 'differs';
    verdict.textContent = item.matches[i] ? ' · matches the truth' : ' · differs';
    head.appendChild(verdict);
    const pre = document.createElement('pre');
    pre.textContent = show(s.value);
    li.appendChild(head);
    li.appendChild(pre);
    list.appendChild(li);
  });
}

/** The item's page with the systems' boxes on it; returns how many boxes are drawn. */
function renderPage(item: QueueItem): number {
  const img = el('page-image', HTMLImageElement);
  const src = `${config.api}page?document=${encodeURIComponent(item.document_id)}&page=${item.show_page}`;
  if (img.getAttribute('src') !== src) img.setAttribute('src', src);
  for (const b of Array.from(document.querySelectorAll('.box'))) b.remove();
  let boxes = 0;
  for (const s of item.systems) {
    for (const b of s.boxes.filter((box) => box.page === item.show_page)) {
      const div = document.createElement('div');
      div.className = 'box';
      div.title = s.system;
      div.style.left = `${b.x0 * 100}%`;
      div.style.top = `${b.y0 * 100}%`;
      div.style.width = `${(b.x1 - b.x0) * 100}%`;
      div.style.height = `${(b.y1 - b.y0) * 100}%`;
      el('frame').appendChild(div);
      boxes++;
    }
  }
  return boxes;
}

function pageCaption(item: QueueItem, boxes: number): string {
  if (boxes) return ` · ${boxes} region${boxes === 1 ? '' : 's'} highlighted where a system located the value`;
  return item.kind === 'field' ? ' · no system returned a region for this value' : '';
}

function renderItem(): void {
  const item = state.items[state.index];
  el('position').textContent = positionText();
  el('item').setAttribute('data-item', item ? item.id : '');
  if (!item) {
    for (const id of ['subject', 'reason', 'tier', 'truth', 'page-caption']) el(id).textContent = '';
    el('check-bar').hidden = true;
    el('systems').textContent = '';
    return;
  }
  el('subject').textContent =
    `${item.document_id} · ${item.kind === 'field' ? item.path : `markdown page ${item.page}`}`;
  el('tier').textContent = item.label;
  el('check-bar').hidden = item.kind !== 'page';
  el('reason').textContent = item.reason;
  el('truth').textContent = show(item.truth);
  renderSystems(item);
  const boxes = renderPage(item);
  el('page-caption').textContent = `Page ${item.show_page}${pageCaption(item, boxes)}`;
}

function go(index: number): void {
  state.index = Math.max(0, Math.min(index, state.total));
  closeEditor();
  setBefore(null);
  if (state.index < state.items.length || state.index >= state.total) {
    renderItem();
    if (state.index >= state.items.length - AHEAD) void loadMore();
    return;
  }
  void loadMore().then(() => {
    state.index = Math.min(state.index, state.items.length);
    renderItem();
  });
}

async function loadPage(offset: number): Promise<ReviewPage | null> {
  const r = await request<ReviewPage>('GET', `review?offset=${offset}&limit=${PAGE}`);
  if (!r.ok) {
    say(r.json.message || `The queue could not be loaded (HTTP ${r.status})`, true);
    return null;
  }
  renderFigures(r.json.figures);
  state.figures = r.json.figures;
  el('changed').hidden = !r.json.truth_changed;
  return r.json;
}

/** The first page, anew: at start, and after the queue was rebuilt (its order may differ). */
async function reload(): Promise<void> {
  const page = await loadPage(0);
  if (!page) return;
  state.items = page.items;
  state.total = page.total;
  state.version = page.version;
  state.history = [];
}

async function appendNextPage(): Promise<void> {
  const page = await loadPage(state.items.length);
  state.loading = null;
  if (!page) return;
  if (page.version !== state.version) {
    await reload();
    say(
      'The queue was rebuilt (the run was re-scored, or its truth changed outside this page): back to its first item.',
    );
    state.index = 0;
    renderItem();
    return;
  }
  state.items = state.items.concat(page.items);
  state.total = page.total;
}

function loadMore(): Promise<void> {
  if (state.loading || state.items.length >= state.total) return state.loading ?? Promise.resolve();
  state.loading = appendNextPage();
  return state.loading;
}

function closeEditor(): void {
  state.editing = false;
  el('editor').hidden = true;
}

function fileKey(item: QueueItem): string {
  return `${item.document_id}\u0000${item.kind}`;
}

async function write(item: QueueItem, value: Json, source: string): Promise<TruthChange | null> {
  const note = el('note', HTMLInputElement);
  const body = {
    document: item.document_id,
    kind: item.kind,
    path: item.path,
    page: item.page,
    value,
    source,
    note: note.value,
  };
  const r = await request<{ change: TruthChange; etag: string }>('POST', 'truth', body, item.etag);
  if (!r.ok) {
    const message = r.json?.message ? r.json.message : `the write failed (HTTP ${r.status})`;
    say(message + (r.json?.hint ? ` — ${r.json.hint}` : ''), true);
    return null;
  }
  const etag = r.json.etag;
  for (const other of state.items) if (fileKey(other) === fileKey(item)) other.etag = etag;
  item.truth = value;
  el('changed').hidden = false;
  note.value = '';
  return r.json.change;
}

async function accept(n: number): Promise<void> {
  const item = state.items[state.index];
  if (!item) return;
  const system = item.systems[n - 1];
  if (!system) {
    say(`There is no system ${n} for this item.`, true);
    return;
  }
  const change = await write(item, system.value, system.system);
  if (!change) return;
  state.history.push({ index: state.index, action: 'accept', old: change.old });
  say(`Accepted ${system.system} for ${item.document_id}.`);
  go(state.index + 1);
}

/** A typed value keeps the type of the truth it replaces: text stays text, a number a number, else JSON. */
function parseEdit(text: string, previous: Json): Json {
  if (typeof previous === 'string') return text;
  if (typeof previous === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

function startEdit(): void {
  const item = state.items[state.index];
  if (!item) return;
  state.editing = true;
  el('editor').hidden = false;
  const area = el('edit-value', HTMLTextAreaElement);
  area.value = item.truth === null ? '' : typeof item.truth === 'string' ? item.truth : JSON.stringify(item.truth);
  area.focus();
  area.select();
}

async function saveEdit(item: QueueItem): Promise<void> {
  const text = el('edit-value', HTMLTextAreaElement).value;
  const value = item.kind === 'page' ? text : parseEdit(text, item.truth);
  const change = await write(item, value, 'edit');
  if (!change) return;
  state.history.push({ index: state.index, action: 'accept', old: change.old });
  say(`Saved your value for ${item.document_id}.`);
  go(state.index + 1);
}

async function undo(): Promise<void> {
  const last = state.history.pop();
  if (!last) {
    say('Nothing to undo.');
    return;
  }
  if (last.action !== 'accept') {
    say(`Back to the item you ${last.action === 'keep' ? 'kept' : 'skipped'}.`);
    go(last.index);
    return;
  }
  const item = state.items[last.index];
  if (!item) return;
  const change = await write(item, last.old, 'undo');
  if (!change) {
    state.history.push(last);
    return;
  }
  say(`Undone: the truth of ${item.document_id} is back to its previous value.`);
  go(last.index);
}

async function rescore(): Promise<void> {
  const before = state.figures;
  const button = el('rescore', HTMLButtonElement);
  button.disabled = true;
  say('Re-scoring…');
  const r = await request<{ figures: ReviewFigures[] }>('POST', 'rescore', {});
  button.disabled = false;
  if (!r.ok) {
    say(r.json.message || `Re-scoring failed (HTTP ${r.status})`, true);
    return;
  }
  renderFigures(r.json.figures);
  state.figures = r.json.figures;
  el('changed').hidden = true;
  const message = `Re-scored. Before: ${figuresText(before)}. Now: ${figuresText(r.json.figures)}.`;
  // The scores the queue was ranked by changed: rank it anew from its first item.
  await reload();
  go(0);
  say(`${message} The queue is ranked anew.`);
}

/** While the editor is open: Escape cancels; Enter saves a field (Shift+Enter a new line), Ctrl+Enter a page. */
function onEditorKey(event: KeyboardEvent): void {
  if (event.key === 'Escape') {
    event.preventDefault();
    closeEditor();
    return;
  }
  const item = state.items[state.index];
  if (!item) return;
  if (event.key === 'Enter' && (item.kind === 'field' ? !event.shiftKey : event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    void saveEdit(item);
  }
}

function setBefore(selected: Selected | null): void {
  state.before = selected;
  el('check-pending').textContent = selected
    ? `Before: “${selected.text}”. Now select the text that comes after it and choose before-after again.`
    : '';
}

/** The text selected inside the item's truth or one system's markdown; null for a selection anywhere else. */
function selectedMarkdown(): Selected | null {
  const selection = window.getSelection();
  if (!selection || selection.rangeCount === 0) return null;
  const text = selection.toString();
  const node = selection.getRangeAt(0).commonAncestorContainer;
  const pre = (node instanceof Element ? node : node.parentElement)?.closest('pre');
  if (!pre || text.trim() === '') return null;
  if (pre.id === 'truth') return { text, source: 'truth' };
  const system = pre.closest('li')?.getAttribute('data-system');
  return system ? { text, source: system } : null;
}

async function currentChecksEtag(): Promise<string | null> {
  if (state.checksEtag !== null) return state.checksEtag;
  const r = await request<{ etag: string }>('GET', 'checks');
  if (!r.ok) say(r.json.message || `checks.jsonl could not be read (HTTP ${r.status})`, true);
  else state.checksEtag = r.json.etag;
  return state.checksEtag;
}

function showAddedCheck(change: CheckChange): void {
  const li = document.createElement('li');
  li.setAttribute('data-check', change.check);
  const texts =
    change.new.type === 'order'
      ? `“${String(change.new.before)}” before “${String(change.new.after)}”`
      : `“${String(change.new.text)}”`;
  li.textContent = `${change.check}: ${String(change.new.type)} ${texts} (${change.document} page ${change.page})`;
  el('checks-added').appendChild(li);
}

/** A check of `type` from the selected text: present/absent at once, order once its `after` is selected too. */
async function addCheck(type: AuthoredCheckType): Promise<void> {
  const item = state.items[state.index];
  if (item?.kind !== 'page' || item.page === null) return;
  const selected = selectedMarkdown();
  if (!selected) {
    say("Select text in the truth or a system's markdown first, then choose the check.", true);
    return;
  }
  window.getSelection()?.removeAllRanges();
  const before = state.before;
  if (type === 'order' && !before) {
    setBefore(selected);
    return;
  }
  const etag = await currentChecksEtag();
  if (etag === null) return;
  const texts = type === 'order' ? { before: before?.text, after: selected.text } : { text: selected.text };
  const sources = new Set([before?.source ?? selected.source, selected.source]);
  const note = el('note', HTMLInputElement);
  const body = {
    document: item.document_id,
    page: item.page,
    type,
    ...texts,
    category: el('check-category', HTMLInputElement).value.trim(),
    source: [...sources].join(', '),
    note: note.value,
  };
  const r = await request<{ change: CheckChange; etag: string }>('POST', 'checks', body, etag);
  setBefore(null);
  if (!r.ok) {
    if (r.json.etag) state.checksEtag = r.json.etag;
    const message = r.json.message || `the check was not added (HTTP ${r.status})`;
    say(message + (r.json.hint ? ` — ${r.json.hint}` : ''), true);
    return;
  }
  state.checksEtag = r.json.etag;
  note.value = '';
  showAddedCheck(r.json.change);
  el('changed').hidden = false;
  say(`Added check ${r.json.change.check} to checks.jsonl.`);
}

/** Moves past the current item, remembered for undo. */
function pass(action: 'keep' | 'skip'): void {
  if (!state.items[state.index]) return;
  state.history.push({ index: state.index, action });
  if (action === 'keep') say('Kept the truth.');
  go(state.index + 1);
}

function onKey(event: KeyboardEvent): void {
  if (state.editing) {
    onEditorKey(event);
    return;
  }
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) {
    if (event.key === 'Escape') target.blur();
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (/^[1-9]$/.test(event.key)) {
    event.preventDefault();
    void accept(Number(event.key));
  } else if (event.key === 'e') {
    event.preventDefault();
    startEdit();
  } else if (event.key === 'k') pass('keep');
  else if (event.key === 's' || event.key === 'ArrowRight') pass('skip');
  else if (event.key === 'u') {
    event.preventDefault();
    void undo();
  } else if (event.key === 'ArrowLeft') go(state.index - 1);
  else if (CHECK_KEYS[event.key]) {
    event.preventDefault();
    void addCheck(CHECK_KEYS[event.key]!);
  }
}

const CHECK_KEYS: Record<string, AuthoredCheckType> = { p: 'present', a: 'absent', b: 'order' };

document.addEventListener('keydown', onKey);
el('rescore').addEventListener('click', () => void rescore());
for (const [id, type] of [
  ['check-present', 'present'],
  ['check-absent', 'absent'],
  ['check-order', 'order'],
] as const) {
  const button = el(id, HTMLButtonElement);
  // A press must not move the focus or clear the selection it acts on.
  button.addEventListener('mousedown', (event) => event.preventDefault());
  button.addEventListener('click', () => void addCheck(type));
}

void reload().then(() => {
  if (state.version === null) {
    el('position').textContent = '';
    return;
  }
  document.body.setAttribute('data-ready', '1');
  go(0);
});
