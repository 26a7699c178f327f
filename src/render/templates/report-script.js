// report.html's only script: sorting, filtering and paging of the documents table, and sorting of the
// fields table. Plain DOM API: every value from the data goes through textContent or a checked href, never
// innerHTML. No network, no framework.
(function () {
  'use strict';
  var PAGE_SIZE = 100;
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var rows = data.rows;
  // Numeric columns, one per figure and system, in the header's order; row.values is keyed by column key.
  var columns = data.columns;
  // Failures first (CONTRIBUTING.md "Habits"): the initial order is by status, then document id.
  var state = { status: 'all', tag: '', text: '', sortKey: 'status', sortDir: 1, page: 0 };
  var body = document.getElementById('documents-body');
  var countLabel = document.getElementById('doc-count');
  var prev = document.getElementById('doc-prev');
  var next = document.getElementById('doc-next');
  var statusSelect = document.getElementById('doc-status');
  var tagSelect = document.getElementById('doc-tag');
  var search = document.getElementById('doc-search');

  // Lower-cased text each row is searched in, computed once.
  var haystacks = rows.map(function (row) {
    var tags = Object.keys(row.tags)
      .map(function (k) {
        return k + '=' + row.tags[k];
      })
      .join(' ');
    return [row.id, row.status, tags, row.errors.join(' '), row.gate_reasons.join(' '), row.dashboard_url || '']
      .join(' ')
      .toLowerCase();
  });
  var order = rows.map(function (_, i) {
    return i;
  });

  var tagValues = {};
  rows.forEach(function (row) {
    Object.keys(row.tags).forEach(function (k) {
      tagValues[k + '=' + row.tags[k]] = true;
    });
  });
  Object.keys(tagValues)
    .sort()
    .forEach(function (value) {
      var option = document.createElement('option');
      option.value = value;
      option.textContent = value;
      tagSelect.appendChild(option);
    });

  function sortValue(row, key) {
    if (key === 'id') return row.id;
    if (key === 'status')
      return row.status === 'failed' ? 0 : row.status === 'partial' ? 1 : row.gate_reasons.length ? 2 : 3;
    return Object.prototype.hasOwnProperty.call(row.values, key) ? row.values[key] : null;
  }

  function compare(a, b) {
    var va = sortValue(rows[a], state.sortKey);
    var vb = sortValue(rows[b], state.sortKey);
    var na = va === null || va === undefined;
    var nb = vb === null || vb === undefined;
    if (na || nb) return na && nb ? a - b : na ? 1 : -1; // missing values last in both directions
    if (typeof va === 'string') return state.sortDir * va.localeCompare(vb) || a - b;
    return state.sortDir * (va - vb) || a - b;
  }

  function matches(i) {
    var row = rows[i];
    if (state.status === 'problem' && row.status === 'ok' && row.gate_reasons.length === 0) return false;
    if (state.status === 'below_gate' && row.gate_reasons.length === 0) return false;
    if (
      (state.status === 'ok' || state.status === 'partial' || state.status === 'failed') &&
      row.status !== state.status
    )
      return false;
    if (state.tag) {
      var eq = state.tag.indexOf('=');
      if (row.tags[state.tag.slice(0, eq)] !== state.tag.slice(eq + 1)) return false;
    }
    if (state.text && haystacks[i].indexOf(state.text) === -1) return false;
    return true;
  }

  function percent(value) {
    return value === null || value === undefined ? '\u2014' : (value * 100).toFixed(1) + '%';
  }
  function usd(value) {
    if (value === null || value === undefined) return '\u2014';
    return value === 0 ? '$0' : Math.abs(value) >= 1 ? '$' + value.toFixed(2) : '$' + value.toPrecision(3);
  }
  var FORMATS = { percent: percent, confidence: confidence, ms: ms, usd: usd };
  function ms(value) {
    if (value === null || value === undefined) return '\u2014';
    return value < 1000 ? Math.round(value) + ' ms' : (value / 1000).toFixed(value < 10000 ? 2 : 1) + ' s';
  }
  function confidence(value) {
    return value === null || value === undefined ? '\u2014' : String(Math.round(value > 1 ? value : value * 100));
  }

  function cell(tr, text, className) {
    var td = document.createElement('td');
    if (className) td.className = className;
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  function pill(text, tone) {
    var span = document.createElement('span');
    span.className = 'pill ' + tone;
    span.textContent = text;
    return span;
  }

  // http(s) URLs of a service's dashboard, or the comparison page the embedded engine's run wrote beside
  // this report (src/report/dashboard-link.ts): nothing else becomes a link.
  function isDashboardHref(value) {
    return typeof value === 'string' && (/^https?:\/\//i.test(value) || /^comparisons\/[a-z0-9-]+\.html$/.test(value));
  }

  function renderRow(row) {
    var tr = document.createElement('tr');
    tr.setAttribute('data-id', row.id);
    var idCell = cell(tr, '', 'id');
    var link = document.createElement('a');
    link.href = row.drilldown; // built by docbench from a hash of the id: always drilldown/<safe name>.html
    link.className = 'drilldown';
    link.textContent = row.id;
    idCell.appendChild(link);
    row.errors
      .concat(
        row.gate_reasons.map(function (r) {
          return 'below gate: ' + r;
        }),
      )
      .forEach(function (message) {
        var div = document.createElement('div');
        div.className = 'error';
        div.textContent = message;
        idCell.appendChild(div);
      });
    var statusCell = cell(tr, '');
    if (row.status === 'failed') statusCell.appendChild(pill('FAILED', 'bad'));
    else if (row.status === 'partial') statusCell.appendChild(pill('PARTLY FAILED', 'bad'));
    else if (row.gate_reasons.length) statusCell.appendChild(pill('below gate', 'warn'));
    else statusCell.appendChild(pill('ok', 'good'));
    columns.forEach(function (column) {
      cell(tr, FORMATS[column.format](sortValue(row, column.key)), 'num');
    });
    var dash = cell(tr, '');
    if (row.dashboard_href && isDashboardHref(row.dashboard_href)) {
      var a = document.createElement('a');
      a.href = row.dashboard_href;
      a.rel = 'noopener noreferrer';
      a.target = '_blank';
      a.className = 'dashboard';
      a.textContent = 'open';
      a.title = row.dashboard_href;
      dash.appendChild(a);
    } else if (row.dashboard_url) {
      var span = document.createElement('span');
      span.className = 'url-text';
      span.textContent = row.dashboard_url;
      span.title = 'not an http(s) URL: shown as text';
      dash.appendChild(span);
    } else {
      dash.textContent = '\u2014';
    }
    return tr;
  }

  var visible = order;
  function refilter() {
    visible = order.filter(matches);
    state.page = 0;
    render();
  }

  function render() {
    var pages = Math.max(1, Math.ceil(visible.length / PAGE_SIZE));
    if (state.page >= pages) state.page = pages - 1;
    var start = state.page * PAGE_SIZE;
    var slice = visible.slice(start, start + PAGE_SIZE);
    var fragment = document.createDocumentFragment();
    slice.forEach(function (i) {
      fragment.appendChild(renderRow(rows[i]));
    });
    body.textContent = '';
    body.appendChild(fragment);
    var total = rows.length.toLocaleString('en-US');
    countLabel.textContent =
      visible.length === 0
        ? 'No documents match' + (visible.length === rows.length ? '' : ' (of ' + total + ')')
        : 'Showing ' +
          (start + 1).toLocaleString('en-US') +
          '\u2013' +
          (start + slice.length).toLocaleString('en-US') +
          ' of ' +
          visible.length.toLocaleString('en-US') +
          (visible.length === rows.length ? '' : ' (filtered from ' + total + ')');
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages - 1;
  }

  document.querySelectorAll('#documents-table th[data-key]').forEach(function (th) {
    th.setAttribute('data-sort', 'doc');
    th.tabIndex = 0;
    function activate() {
      var key = th.getAttribute('data-key');
      state.sortDir = state.sortKey === key ? -state.sortDir : 1;
      state.sortKey = key;
      document.querySelectorAll('#documents-table th[data-key]').forEach(function (other) {
        other.removeAttribute('aria-sort');
      });
      th.setAttribute('aria-sort', state.sortDir === 1 ? 'ascending' : 'descending');
      order.sort(compare);
      refilter();
    }
    th.addEventListener('click', activate);
    th.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        activate();
      }
    });
  });
  statusSelect.addEventListener('change', function () {
    state.status = statusSelect.value;
    refilter();
  });
  tagSelect.addEventListener('change', function () {
    state.tag = tagSelect.value;
    refilter();
  });
  search.addEventListener('input', function () {
    state.text = search.value.trim().toLowerCase();
    refilter();
  });
  prev.addEventListener('click', function () {
    state.page--;
    render();
  });
  next.addEventListener('click', function () {
    state.page++;
    render();
  });
  document.querySelectorAll('[data-show-status]').forEach(function (link) {
    link.addEventListener('click', function () {
      statusSelect.value = link.getAttribute('data-show-status');
      state.status = statusSelect.value;
      refilter();
    });
  });

  // Fields table (rendered by the template): sort its rows in place.
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var headers = table.querySelectorAll('th[data-sort]');
    headers.forEach(function (th, column) {
      th.tabIndex = 0;
      function activate() {
        var numeric = th.getAttribute('data-sort') === 'num';
        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        headers.forEach(function (other) {
          other.removeAttribute('aria-sort');
        });
        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
        var tbody = table.tBodies[0];
        var list = Array.prototype.slice.call(tbody.rows);
        list.sort(function (a, b) {
          var ca = a.cells[column];
          var cb = b.cells[column];
          if (numeric) return dir * (Number(ca.getAttribute('data-value')) - Number(cb.getAttribute('data-value')));
          return dir * ca.textContent.localeCompare(cb.textContent);
        });
        list.forEach(function (tr) {
          tbody.appendChild(tr);
        });
      }
      th.addEventListener('click', activate);
      th.addEventListener('keydown', function (event) {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          activate();
        }
      });
    });
  });

  order.sort(compare);
  refilter();
})();
