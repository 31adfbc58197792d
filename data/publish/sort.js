/* sort.js — sorting the leaderboard by any column (Komi's static site)
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each heading of a table.sortable is a button: the first press sorts by
 * that column (numbers from each cell's data-sort, highest first; the
 * subject's name A to Z), the next reverses it. Cells without a number
 * (not reported, not rated) always go last. aria-sort says which column
 * and which way. Without JavaScript the table stays ranked by rating.
 */
(function () {
  'use strict';

  for (const table of document.querySelectorAll('table.sortable')) {
    const body = table.tBodies[0];
    const heads = Array.from(table.tHead.rows[0].cells);
    heads.forEach((th, column) => {
      const button = th.querySelector('button.sort');
      if (!button) return;
      button.addEventListener('click', () => {
        const current = th.getAttribute('aria-sort');
        const text = column === 0;
        const first = text ? 'ascending' : 'descending';
        const order = current === first ? (first === 'ascending' ? 'descending' : 'ascending')
                                        : first;
        heads.forEach((h) => h.removeAttribute('aria-sort'));
        th.setAttribute('aria-sort', order);
        const sign = order === 'ascending' ? 1 : -1;
        const key = (row) => {
          const cell = row.cells[column];
          const raw = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent;
          if (text) return raw;
          const n = parseFloat(raw);
          return Number.isFinite(n) ? n : null;
        };
        const rows = Array.from(body.rows);
        rows.sort((a, b) => {
          const x = key(a);
          const y = key(b);
          if (x === null || y === null) return (x === null) - (y === null);
          if (text) return sign * x.localeCompare(y);
          return sign * (x - y);
        });
        body.append(...rows);
      });
    });
  }
}());
