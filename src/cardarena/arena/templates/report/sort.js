document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('thead th').forEach(function (th, col) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var down = th.getAttribute('aria-sort') !== 'descending';
      table.querySelectorAll('thead th').forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
      var key = function (row) {
        var cell = row.children[col];
        var v = cell.getAttribute('data-sort');
        if (v === null) { return cell.textContent.trim().toLowerCase(); }
        return v === '' ? null : parseFloat(v);
      };
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (r, s) {
        var a = key(r), b = key(s);
        if (a === null || b === null) { return a === b ? 0 : (a === null ? 1 : -1); }
        var c = a < b ? -1 : (a > b ? 1 : 0);
        return down ? -c : c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
