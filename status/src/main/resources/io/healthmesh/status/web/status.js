// healthmesh status page: no framework, no build step. The server pushes the whole board once ("snapshot"), then
// what changed ("delta") every push interval, over one EventSource; this script keeps the board in memory,
// filters it and renders one page of rows at a time, so 10,000 targets stay fast.
'use strict';
(function () {
  const targets = new Map();   // id -> {row, labels, history}
  const groups = new Map();    // id -> group row
  const SEVERITY = { UNHEALTHY: 0, DETECTING: 1, HEALTHY: 2, DISABLED: 3 };
  const $ = (id) => document.getElementById(id);
  const state = { page: 0, dirty: true, filtered: [], flash: new Set() };
  let historySize = 20;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  // ---- the stream
  function connect() {
    // the page's own query string goes along (e.g. an access token: EventSource cannot send headers)
    const source = new EventSource('events' + window.location.search);
    source.addEventListener('open', () => setConnected(true));
    source.addEventListener('error', () => setConnected(false)); // the browser reconnects by itself
    source.addEventListener('snapshot', (e) => {
      const s = JSON.parse(e.data);
      targets.clear();
      groups.clear();
      for (const t of s.targets) targets.set(t.row.id, t);
      for (const g of s.groups) groups.set(g.id, g);
      setConnected(true);
      changed(false);
    });
    source.addEventListener('delta', (e) => {
      const d = JSON.parse(e.data);
      for (const t of d.targets) {
        const before = targets.get(t.row.id);
        if (!before || before.row.status !== t.row.status) state.flash.add(t.row.id);
        targets.set(t.row.id, t);
      }
      for (const id of d.removedTargets) targets.delete(id);
      for (const [id, points] of Object.entries(d.latency)) {
        const t = targets.get(id);
        if (!t) continue;
        t.history = t.history.concat(points).slice(-historySize);
        if (points.length) t.row = Object.assign({}, t.row, { latencyMicros: micros(points[points.length - 1]) });
      }
      for (const g of d.groups) groups.set(g.id, g);
      for (const id of d.removedGroups) groups.delete(id);
      changed(true);
    });
  }

  function setConnected(on) {
    const c = $('connection');
    c.textContent = on ? 'live' : 'reconnecting';
    c.className = 'connection ' + (on ? 'on' : 'off');
  }

  function changed() {
    for (const t of targets.values()) historySize = Math.max(historySize, t.history.length);
    state.dirty = true;
    schedule();
  }

  let scheduled = false;
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => { scheduled = false; render(); });
  }

  // ---- filters
  function matches(t, f) {
    const r = t.row;
    if (f.group && r.group !== f.group) return false;
    if (f.status === 'PROBLEM' && (r.status === 'HEALTHY' || r.status === 'DISABLED') && !r.stale) return false;
    if (f.status === 'STALE' && !r.stale) return false;
    if (f.status && f.status !== 'PROBLEM' && f.status !== 'STALE' && r.status !== f.status) return false;
    if (f.id && !r.id.toLowerCase().includes(f.id)) return false;
    if (f.labelKey) {
      if (!(f.labelKey in t.labels)) return false;
      if (f.labelValue !== null && t.labels[f.labelKey] !== f.labelValue) return false;
    }
    return true;
  }

  function filters() {
    const label = $('f-label').value.trim();
    const eq = label.indexOf('=');
    return {
      group: $('f-group').value,
      status: $('f-status').value,
      id: $('f-id').value.trim().toLowerCase(),
      labelKey: label === '' ? null : (eq < 0 ? label : label.slice(0, eq).trim()),
      labelValue: eq < 0 ? null : label.slice(eq + 1).trim(),
      problemsFirst: $('f-problems').checked,
    };
  }

  function refilter() {
    const f = filters();
    const list = [];
    for (const t of targets.values()) if (matches(t, f)) list.push(t);
    list.sort((a, b) => {
      if (f.problemsFirst) {
        const d = (SEVERITY[a.row.status] - (a.row.stale ? 0.5 : 0)) - (SEVERITY[b.row.status] - (b.row.stale ? 0.5 : 0));
        if (d !== 0) return d;
      }
      return a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0;
    });
    state.filtered = list;
    state.dirty = false;
  }

  // ---- rendering
  function render() {
    if (state.dirty) refilter();
    renderSummary();
    renderBanners();
    renderGroups();
    renderRows();
  }

  function renderSummary() {
    const counts = { HEALTHY: 0, UNHEALTHY: 0, DETECTING: 0, DISABLED: 0 };
    for (const t of targets.values()) counts[t.row.status] = (counts[t.row.status] || 0) + 1;
    $('summary').textContent = targets.size + ' targets in ' + groups.size + ' groups: ' + counts.HEALTHY
      + ' healthy, ' + counts.UNHEALTHY + ' unhealthy, ' + counts.DETECTING + ' detecting, ' + counts.DISABLED
      + ' disabled';
  }

  function renderBanners() {
    const box = $('banners');
    box.replaceChildren();
    for (const g of groups.values()) {
      if (g.failOpen === true) {
        const healthyOrDisabled = g.healthy + g.disabled;
        const b = el('div', 'banner', 'Group ' + g.id + ' is FAIL-OPEN: '
          + (g.failOpenReason === 'BELOW_MIN_HEALTHY'
            ? 'only ' + healthyOrDisabled + ' of its ' + g.members + ' members are healthy, below the group\'s minimum'
              + ' (panic threshold), so traffic goes to all of them.'
            : g.members === 1 ? 'its only member is not healthy, so traffic still goes to it.'
            : 'none of its ' + g.members + ' members is healthy, so traffic goes to all of them.'));
        b.dataset.reason = g.failOpenReason || 'NO_HEALTHY_MEMBER';
        b.dataset.group = g.id;
        box.appendChild(b);
      }
    }
  }

  function renderGroups() {
    const box = $('groups');
    const select = $('f-group');
    const chosen = select.value;
    const ids = Array.from(groups.keys()).sort();
    box.replaceChildren();
    for (const id of ids) {
      const g = groups.get(id);
      const card = el('div', 'group' + (g.failOpen === true ? ' fail-open' : (g.unhealthy + g.detecting > 0 ? ' degraded' : '')));
      card.dataset.group = id;
      card.appendChild(el('div', 'name', id));
      if (g.failOpen === true) {
        card.appendChild(el('div', 'flag', g.failOpenReason === 'BELOW_MIN_HEALTHY' ? 'FAIL-OPEN (below minimum)' : 'FAIL-OPEN'));
      }
      card.appendChild(el('div', 'counts', 'routable ' + (g.failOpen === null ? '?' : g.routable) + ' of ' + g.members));
      card.appendChild(el('div', 'counts', g.healthy + ' healthy, ' + g.unhealthy + ' unhealthy, ' + g.detecting
        + ' detecting, ' + g.disabled + ' disabled' + (g.stale ? ', ' + g.stale + ' stale' : '')));
      card.addEventListener('click', () => { select.value = id; filtersChanged(); });
      box.appendChild(card);
    }
    const options = Array.from(select.options).slice(1).map((o) => o.value);
    if (options.join('\n') !== ids.join('\n')) {
      select.replaceChildren(el('option', null, 'all'));
      select.options[0].value = '';
      for (const id of ids) select.appendChild(el('option', null, id));
      select.value = ids.includes(chosen) ? chosen : '';
    }
  }

  function renderRows() {
    const size = Number($('page-size').value);
    const pages = Math.max(1, Math.ceil(state.filtered.length / size));
    state.page = Math.min(state.page, pages - 1);
    const from = state.page * size;
    const slice = state.filtered.slice(from, from + size);
    const body = $('rows');
    const rows = slice.map(rowOf);
    body.replaceChildren(...rows);
    state.flash.clear();
    $('page').textContent = state.filtered.length === 0 ? 'no targets match'
      : (from + 1) + '-' + (from + slice.length) + ' of ' + state.filtered.length + ' (page ' + (state.page + 1)
        + ' of ' + pages + ')';
    $('prev').disabled = state.page === 0;
    $('next').disabled = state.page >= pages - 1;
  }

  function rowOf(t) {
    const r = t.row;
    const tr = el('tr');
    tr.dataset.target = r.id;
    tr.dataset.status = r.status;
    if (state.flash.has(r.id)) tr.className = 'flash';
    tr.appendChild(el('td', null, r.id));
    tr.appendChild(el('td', null, r.group));
    const status = el('td');
    status.appendChild(el('span', 'badge ' + r.status, r.status));
    if (r.stale) status.appendChild(el('span', 'stale', 'STALE'));
    if (r.maintenance) {
      const m = el('span', 'maint ' + r.maintenance.mode, r.maintenance.mode === 'DRAIN' ? 'DRAINING' : 'SILENCED');
      m.title = 'maintenance ' + r.maintenance.id + ' until ' + new Date(r.maintenance.untilMs).toISOString();
      status.appendChild(m);
    }
    tr.appendChild(status);
    const since = el('td', 'since', ago(r.sinceMs));
    since.title = new Date(r.sinceMs).toISOString() + (r.previousStatus ? ' (was ' + r.previousStatus + ')' : '');
    since.dataset.since = r.sinceMs;
    tr.appendChild(since);
    const reason = el('td', 'reason', r.reason ? r.reason + (r.reasonDetail ? ': ' + r.reasonDetail : '') : '');
    reason.title = reason.textContent;
    tr.appendChild(reason);
    const regions = el('td');
    for (const g of r.regions) {
      const v = el('span', 'vote ' + g.vote, g.region + ' ' + g.vote.toLowerCase());
      v.title = g.region + ': ' + g.status + (g.stale ? ' (stale)' : '') + ', votes ' + g.vote
        + (g.lastOutcome ? ', last ' + g.lastOutcome : '');
      regions.appendChild(v);
    }
    if (r.regions.length > 1) regions.appendChild(el('span', 'label', r.quorum));
    tr.appendChild(regions);
    tr.appendChild(el('td', 'num', r.latencyMicros === null || r.latencyMicros === undefined ? '' : ms(r.latencyMicros)));
    const spark = el('td');
    spark.appendChild(sparkline(t.history));
    tr.appendChild(spark);
    const labels = el('td');
    for (const [k, v] of Object.entries(t.labels)) labels.appendChild(el('span', 'label', k + '=' + v));
    if (t.tls === 'insecure-skip-verify') labels.appendChild(el('span', 'label insecure', 'TLS not verified'));
    if (t.tls === 'not-verified-old-default') {
      const old = el('span', 'label insecure', 'TLS not verified (old default)');
      old.title = 'stored before HTTPS verified by default: apply it again to verify, or say tls.insecureSkipVerify';
      labels.appendChild(old);
    }
    tr.appendChild(labels);
    return tr;
  }

  const SVG = 'http://www.w3.org/2000/svg';
  function sparkline(points) {
    const w = 100, h = 20;
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'spark');
    svg.setAttribute('width', w);
    svg.setAttribute('height', h);
    if (!points || points.length === 0) return svg;
    const max = Math.max(...points.map(micros), 1);
    const step = points.length > 1 ? (w - 4) / (historySize - 1) : 0;
    const xy = points.map((p, i) => [2 + i * step, h - 2 - (micros(p) / max) * (h - 4)]);
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', xy.map((p) => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' '));
    svg.appendChild(line);
    points.forEach((p, i) => {
      if (p < 0) {
        const c = document.createElementNS(SVG, 'circle');
        c.setAttribute('class', 'fail');
        c.setAttribute('cx', xy[i][0].toFixed(1));
        c.setAttribute('cy', xy[i][1].toFixed(1));
        c.setAttribute('r', '2');
        svg.appendChild(c);
      }
    });
    const title = document.createElementNS(SVG, 'title');
    title.textContent = points.length + ' recent results, max ' + ms(max) + ', ' + points.filter((p) => p < 0).length
      + ' failed';
    svg.appendChild(title);
    return svg;
  }

  // a history point is the latency in microseconds, or -1 - latency for a failed probe
  function micros(point) {
    return point >= 0 ? point : -1 - point;
  }

  function ms(us) {
    return us >= 10000 ? Math.round(us / 1000) + ' ms' : (us / 1000).toFixed(1) + ' ms';
  }

  function ago(epochMs) {
    const s = Math.max(0, Math.round((Date.now() - epochMs) / 1000));
    if (s < 60) return s + ' s ago';
    if (s < 3600) return Math.floor(s / 60) + ' min ago';
    if (s < 86400) return Math.floor(s / 3600) + ' h ' + Math.floor((s % 3600) / 60) + ' min ago';
    return Math.floor(s / 86400) + ' d ago';
  }

  function filtersChanged() {
    state.page = 0;
    state.dirty = true;
    schedule();
  }

  document.addEventListener('DOMContentLoaded', () => {
    for (const id of ['f-group', 'f-status', 'f-problems', 'page-size']) $(id).addEventListener('change', filtersChanged);
    for (const id of ['f-label', 'f-id']) $(id).addEventListener('input', filtersChanged);
    $('filters').addEventListener('submit', (e) => e.preventDefault());
    $('prev').addEventListener('click', () => { state.page--; schedule(); });
    $('next').addEventListener('click', () => { state.page++; schedule(); });
    // the "since" column ages in place; the data itself only changes when the server pushes
    setInterval(() => {
      for (const td of document.querySelectorAll('td.since')) td.textContent = ago(Number(td.dataset.since));
    }, 1000);
    connect();
  });
})();
