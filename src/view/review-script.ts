/**
 * The review page's script (docs/view.md, The review): loads the queue from the view's API a page at a time (the next page
 * while the reviewer nears the end of what is loaded), shows one item at a time and drives it from the
 * keyboard. Every value from the dataset or a service is placed with textContent, never
 * as HTML. Writes go with the session cookie (HttpOnly: this script never sees the token) and the item's ETag
 * in If-Match; a refused write
 * (stale ETag) leaves the item and the reviewer's choice on screen with the server's message.
 * Kept as a string so it ships inside dist/; the page allows exactly this script by its hash.
 */
export const REVIEW_SCRIPT = String.raw`(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('review-data').textContent);
  var PAGE = config.page_size;
  // Load the next page once the reviewer is this close to the end of the loaded items.
  var AHEAD = 20;
  var state = { items: [], total: 0, version: null, loading: null, index: 0, history: [], editing: false, figures: [] };
  var el = function (id) { return document.getElementById(id); };

  function say(text, isError) {
    var m = el('message');
    m.textContent = text;
    m.className = isError ? 'error' : '';
    if (isError) m.setAttribute('role', 'alert'); else m.setAttribute('role', 'status');
  }

  function show(value) {
    if (value === null || value === undefined || value === '') return '(empty)';
    return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  }

  function request(method, path, body, etag) {
    var headers = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (etag) headers['if-match'] = etag;
    return fetch(config.api + path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (json) { return { status: response.status, json: json }; });
    });
  }

  function figuresText(figures) {
    return figures.map(function (f) { return f.label + ' ' + (f.value === null ? '—' : (f.value * 100).toFixed(1) + '%'); }).join(' · ');
  }

  function renderFigures(figures) {
    var box = el('figures');
    box.textContent = '';
    figures.forEach(function (f) {
      var span = document.createElement('span');
      span.className = 'figure';
      span.setAttribute('data-label', f.label);
      span.textContent = f.label + ': ' + (f.value === null ? '—' : (f.value * 100).toFixed(1) + '%');
      box.appendChild(span);
    });
  }

  function renderItem() {
    var item = state.items[state.index];
    el('position').textContent = state.total === 0 ? 'Nothing to review: every system agrees with the truth.' : state.index >= state.total ? 'End of the queue: ' + state.total + ' items.' : 'Item ' + (state.index + 1) + ' of ' + state.total;
    el('item').setAttribute('data-item', item ? item.id : '');
    if (!item) {
      ['subject', 'reason', 'tier', 'truth', 'page-caption'].forEach(function (id) { el(id).textContent = ''; });
      el('systems').textContent = '';
      return;
    }
    el('subject').textContent = item.document_id + ' · ' + (item.kind === 'field' ? item.path : 'markdown page ' + item.page);
    el('tier').textContent = item.label;
    el('reason').textContent = item.reason;
    el('truth').textContent = show(item.truth);
    var list = el('systems');
    list.textContent = '';
    item.systems.forEach(function (s, i) {
      var li = document.createElement('li');
      li.setAttribute('data-system', s.system);
      var head = document.createElement('div');
      var name = document.createElement('strong');
      name.textContent = '[' + (i + 1) + '] ' + s.system;
      head.appendChild(name);
      var verdict = document.createElement('span');
      verdict.className = item.matches[i] ? 'match' : 'differs';
      verdict.textContent = item.matches[i] ? ' · matches the truth' : ' · differs';
      head.appendChild(verdict);
      var pre = document.createElement('pre');
      pre.textContent = show(s.value);
      li.appendChild(head);
      li.appendChild(pre);
      list.appendChild(li);
    });
    var img = el('page-image');
    var src = config.api + 'page?document=' + encodeURIComponent(item.document_id) + '&page=' + item.show_page;
    if (img.getAttribute('src') !== src) img.setAttribute('src', src);
    Array.prototype.slice.call(document.querySelectorAll('.box')).forEach(function (b) { b.remove(); });
    var boxes = 0;
    item.systems.forEach(function (s) {
      s.boxes.filter(function (b) { return b.page === item.show_page; }).forEach(function (b) {
        var div = document.createElement('div');
        div.className = 'box';
        div.title = s.system;
        div.style.left = (b.x0 * 100) + '%';
        div.style.top = (b.y0 * 100) + '%';
        div.style.width = ((b.x1 - b.x0) * 100) + '%';
        div.style.height = ((b.y1 - b.y0) * 100) + '%';
        el('frame').appendChild(div);
        boxes++;
      });
    });
    el('page-caption').textContent = 'Page ' + item.show_page + (boxes ? ' · ' + boxes + ' region' + (boxes === 1 ? '' : 's') + ' highlighted where a system located the value' : item.kind === 'field' ? ' · no system returned a region for this value' : '');
  }

  function go(index) {
    state.index = Math.max(0, Math.min(index, state.total));
    closeEditor();
    if (state.index < state.items.length || state.index >= state.total) {
      renderItem();
      if (state.index >= state.items.length - AHEAD) loadMore();
      return;
    }
    loadMore().then(function () {
      state.index = Math.min(state.index, state.items.length);
      renderItem();
    });
  }

  function loadPage(offset) {
    return request('GET', 'review?offset=' + offset + '&limit=' + PAGE).then(function (r) {
      if (r.status !== 200) { say(r.json.message || 'The queue could not be loaded (HTTP ' + r.status + ')', true); return null; }
      renderFigures(r.json.figures);
      state.figures = r.json.figures;
      el('changed').hidden = !r.json.truth_changed;
      return r.json;
    });
  }

  /** The first page, anew: at start, and after the queue was rebuilt (its order may differ). */
  function reload() {
    return loadPage(0).then(function (page) {
      if (!page) return;
      state.items = page.items;
      state.total = page.total;
      state.version = page.version;
      state.history = [];
    });
  }

  function loadMore() {
    if (state.loading || state.items.length >= state.total) return state.loading || Promise.resolve();
    state.loading = loadPage(state.items.length).then(function (page) {
      state.loading = null;
      if (!page) return;
      if (page.version !== state.version) {
        return reload().then(function () { say('The queue was rebuilt (the run was re-scored, or its truth changed outside this page): back to its first item.'); state.index = 0; renderItem(); });
      }
      state.items = state.items.concat(page.items);
      state.total = page.total;
    });
    return state.loading;
  }

  function closeEditor() {
    state.editing = false;
    el('editor').hidden = true;
  }

  function fileKey(item) { return item.document_id + '\u0000' + item.kind; }

  function write(item, value, source) {
    var body = { document: item.document_id, kind: item.kind, path: item.path, page: item.page, value: value, source: source, note: el('note').value };
    return request('POST', 'truth', body, item.etag).then(function (r) {
      if (r.status !== 200) {
        say((r.json && r.json.message ? r.json.message : 'the write failed (HTTP ' + r.status + ')') + (r.json && r.json.hint ? ' — ' + r.json.hint : ''), true);
        return null;
      }
      state.items.forEach(function (other) { if (fileKey(other) === fileKey(item)) other.etag = r.json.etag; });
      item.truth = value;
      el('changed').hidden = false;
      el('note').value = '';
      return r.json.change;
    });
  }

  function accept(n) {
    var item = state.items[state.index];
    if (!item) return;
    var system = item.systems[n - 1];
    if (!system) { say('There is no system ' + n + ' for this item.', true); return; }
    write(item, system.value, system.system).then(function (change) {
      if (!change) return;
      state.history.push({ index: state.index, action: 'accept', old: change.old });
      say('Accepted ' + system.system + ' for ' + item.document_id + '.');
      go(state.index + 1);
    });
  }

  function parseEdit(text, previous) {
    if (typeof previous === 'string') return text;
    if (typeof previous === 'number' && text.trim() !== '' && isFinite(Number(text))) return Number(text);
    try { return JSON.parse(text); } catch (e) { return text; }
  }

  function startEdit() {
    var item = state.items[state.index];
    if (!item) return;
    state.editing = true;
    el('editor').hidden = false;
    var area = el('edit-value');
    area.value = item.truth === null ? '' : typeof item.truth === 'string' ? item.truth : JSON.stringify(item.truth);
    area.focus();
    area.select();
  }

  function saveEdit() {
    var item = state.items[state.index];
    var value = item.kind === 'page' ? el('edit-value').value : parseEdit(el('edit-value').value, item.truth);
    write(item, value, 'edit').then(function (change) {
      if (!change) return;
      state.history.push({ index: state.index, action: 'accept', old: change.old });
      say('Saved your value for ' + item.document_id + '.');
      go(state.index + 1);
    });
  }

  function undo() {
    var last = state.history.pop();
    if (!last) { say('Nothing to undo.'); return; }
    var item = state.items[last.index];
    if (last.action !== 'accept') { say('Back to the item you ' + (last.action === 'keep' ? 'kept' : 'skipped') + '.'); go(last.index); return; }
    write(item, last.old, 'undo').then(function (change) {
      if (!change) { state.history.push(last); return; }
      say('Undone: the truth of ' + item.document_id + ' is back to its previous value.');
      go(last.index);
    });
  }

  function rescore() {
    var before = state.figures;
    el('rescore').disabled = true;
    say('Re-scoring…');
    request('POST', 'rescore', {}).then(function (r) {
      el('rescore').disabled = false;
      if (r.status !== 200) { say(r.json.message || 'Re-scoring failed (HTTP ' + r.status + ')', true); return; }
      renderFigures(r.json.figures);
      state.figures = r.json.figures;
      el('changed').hidden = true;
      var message = 'Re-scored. Before: ' + figuresText(before) + '. Now: ' + figuresText(r.json.figures) + '.';
      // The scores the queue was ranked by changed: rank it anew from its first item.
      reload().then(function () { go(0); say(message + ' The queue is ranked anew.'); });
    });
  }

  document.addEventListener('keydown', function (event) {
    var target = event.target;
    if (state.editing) {
      if (event.key === 'Escape') { event.preventDefault(); closeEditor(); return; }
      var item = state.items[state.index];
      if (event.key === 'Enter' && (item.kind === 'field' ? !event.shiftKey : event.ctrlKey || event.metaKey)) { event.preventDefault(); saveEdit(); }
      return;
    }
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA')) {
      if (event.key === 'Escape') target.blur();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (/^[1-9]$/.test(event.key)) { event.preventDefault(); accept(Number(event.key)); }
    else if (event.key === 'e') { event.preventDefault(); startEdit(); }
    else if (event.key === 'k') { if (state.items[state.index]) { state.history.push({ index: state.index, action: 'keep' }); say('Kept the truth.'); go(state.index + 1); } }
    else if (event.key === 's' || event.key === 'ArrowRight') { if (state.items[state.index]) { state.history.push({ index: state.index, action: 'skip' }); go(state.index + 1); } }
    else if (event.key === 'u') { event.preventDefault(); undo(); }
    else if (event.key === 'ArrowLeft') { go(state.index - 1); }
  });
  el('rescore').addEventListener('click', rescore);

  reload().then(function () {
    if (state.version === null) { el('position').textContent = ''; return; }
    document.body.setAttribute('data-ready', '1');
    go(0);
  });
})();
`;
