(function () {
  function init() {
    var t = document.getElementById('lb-table');
    if (!t) return;
    var body = t.tBodies[0], heads = t.tHead.rows[0].cells, rows = [].slice.call(body.rows);
    var state = {sort: '', dir: 'asc', f: {}, find: ''};
    var selects = document.querySelectorAll('#lb-controls select[data-filter]');
    var find = document.getElementById('lb-find'), regions = document.getElementById('lb-regions');
    function column(key) {
      for (var i = 0; i < heads.length; i++) if (heads[i].getAttribute('data-key') === key) return i;
      return -1;
    }
    function value(row, i, type) {
      var v = row.cells[i].getAttribute('data-v');
      if (v === null) v = row.cells[i].textContent;
      if (type !== 'num') return v.toLowerCase();
      var x = parseFloat(v);
      return v === '' || isNaN(x) ? null : x;
    }
    function apply() {
      var i = column(state.sort);
      for (var k = 0; k < heads.length; k++) heads[k].removeAttribute('aria-sort');
      if (i >= 0) {
        var type = heads[i].getAttribute('data-type'), s = state.dir === 'desc' ? -1 : 1;
        rows.forEach(function (r, n) { r.qcOrder = n; });
        rows.sort(function (a, b) {
          var x = value(a, i, type), y = value(b, i, type);
          if (x === null || y === null) return x === y ? a.qcOrder - b.qcOrder : (x === null ? 1 : -1);
          return x < y ? -s : x > y ? s : a.qcOrder - b.qcOrder;
        });
        rows.forEach(function (r) { body.appendChild(r); });
        heads[i].setAttribute('aria-sort', state.dir === 'desc' ? 'descending' : 'ascending');
      }
      var shown = 0;
      rows.forEach(function (r) {
        var ok = true;
        for (var key in state.f) if (state.f[key] && r.getAttribute('data-' + key) !== state.f[key]) ok = false;
        if (state.find && r.getAttribute('data-impl').toLowerCase().indexOf(state.find.toLowerCase()) < 0) ok = false;
        r.hidden = !ok;
        if (ok) shown++;
      });
      t.setAttribute('data-sort-key', state.sort);
      t.setAttribute('data-sort-dir', state.dir);
      t.setAttribute('data-visible', String(shown));
      document.getElementById('lb-count').textContent = shown + ' of ' + rows.length + ' rows';
      var q = [];
      if (state.sort) q.push('sort=' + state.sort + ':' + state.dir);
      for (var key2 in state.f) if (state.f[key2]) q.push(key2 + '=' + encodeURIComponent(state.f[key2]));
      if (state.find) q.push('find=' + encodeURIComponent(state.find));
      if (regions.checked) q.push('regions=1');
      try { history.replaceState(null, '', q.length ? '#' + q.join('&') : location.pathname); } catch (e) {}
    }
    function fromAddress() {
      var h = location.hash.slice(1);
      if (h.indexOf('=') < 0) return;
      h.split('&').forEach(function (part) {
        // A malformed escape (#find=%) is taken as typed: decodeURIComponent would throw and stop the script.
        var kv = part.split('='), key = kv[0], v = kv[1] || '';
        try { v = decodeURIComponent(v); } catch (e) {}
        if (key === 'sort') { var sd = v.split(':'); state.sort = sd[0]; state.dir = sd[1] === 'desc' ? 'desc' : 'asc'; }
        else if (key === 'find') state.find = v;
        else if (key === 'regions') regions.checked = v === '1';
        else state.f[key] = v;
      });
    }
    fromAddress();
    [].forEach.call(selects, function (sel) {
      var key = sel.getAttribute('data-filter');
      if (state.f[key]) sel.value = state.f[key];
      sel.addEventListener('change', function () { state.f[key] = sel.value; apply(); });
    });
    find.value = state.find;
    find.addEventListener('input', function () { state.find = find.value; apply(); });
    function showRegions() { t.classList.toggle('hide-regions', !regions.checked); }
    regions.addEventListener('change', function () { showRegions(); apply(); });
    showRegions();
    [].forEach.call(heads, function (th) {
      th.addEventListener('click', function () {
        var key = th.getAttribute('data-key');
        state.dir = state.sort === key && state.dir === 'asc' ? 'desc' : 'asc';
        state.sort = key;
        apply();
      });
    });
    apply();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init); else init();
})();
