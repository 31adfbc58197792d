/* replay.js — a published game's replay (Komi's static site)
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads the game from the page's <script id="game-data"> (written by
 * src/publish/komi-publish-game.c): the position after every move,
 * computed by Komi's rules core, the map from real points to the points
 * the model was shown, and every call attempt. This script only draws:
 * it plays no Go. Requests and raw responses are one gzip stream in
 * base64, opened with DecompressionStream when the first one is asked for.
 * No network: everything is in the page.
 */
(function () {
  'use strict';

  const data = JSON.parse(document.getElementById('game-data').textContent);
  const size = data.size;
  const nPoints = size * size;
  const LETTERS = 'ABCDEFGHJKLMNOPQRST';
  const SVG = 'http://www.w3.org/2000/svg';
  const CELL = 40;
  const MARGIN = 48;
  const nMoves = data.moves.length;
  // A forfeited game has one step more: the turn the model gave no valid
  // answer, with its rejected attempts and no move.
  const lastStep = Math.max(nMoves, data.forfeit || 0);
  const TRANSPORT = new Set(['transport-error', 'http-error']);
  const COLOR_NAME = { B: 'Black', W: 'White' };

  // shownOf[p]: where real point p appears on the model's board; realOf: back.
  const shownOf = data.map;
  const realOf = new Array(nPoints);
  shownOf.forEach((shown, real) => { realOf[shown] = real; });

  const state = { move: lastStep, modelView: false, probs: true };
  const callsByTurn = new Map();
  for (const call of data.calls) {
    // The model's probabilities come as the library's JSON text.
    if (typeof call.probs === 'string') {
      try {
        const probs = JSON.parse(call.probs);
        call.probs = probs && typeof probs === 'object' && !Array.isArray(probs) ? probs : null;
      } catch (e) {
        call.probs = null;
      }
    }
    if (!callsByTurn.has(call.t)) callsByTurn.set(call.t, []);
    callsByTurn.get(call.t).push(call);
  }

  const $ = (id) => document.getElementById(id);
  const board = $('board');
  const slider = $('slider');
  const modelView = $('model-view');
  const showProbs = $('show-probs');

  function nameOf(point) {
    return LETTERS[point % size] + String(size - Math.floor(point / size));
  }

  function pointOf(name) {
    const m = /^([A-HJ-T])(\d{1,2})$/.exec(name || '');
    if (!m) return -1;
    const x = LETTERS.indexOf(m[1]);
    const y = size - Number(m[2]);
    return x >= 0 && x < size && y >= 0 && y < size ? y * size + x : -1;
  }

  // The point a real point is drawn at in the current view.
  function drawnAt(real) {
    return state.modelView ? shownOf[real] : real;
  }

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  const xy = (point) => [MARGIN + (point % size) * CELL, MARGIN + Math.floor(point / size) * CELL];

  // The grid, star points and labels never change; stones go in a layer.
  const side = 2 * MARGIN + (size - 1) * CELL;
  const svg = el('svg', { viewBox: `0 0 ${side} ${side}`, 'aria-hidden': 'true',
                          focusable: 'false' });
  el('rect', { x: 0, y: 0, width: side, height: side, class: 'wood' }, svg);
  for (let i = 0; i < size; i++) {
    const a = MARGIN + i * CELL;
    el('line', { x1: MARGIN, y1: a, x2: side - MARGIN, y2: a, class: 'grid' }, svg);
    el('line', { x1: a, y1: MARGIN, x2: a, y2: side - MARGIN, class: 'grid' }, svg);
    for (const [x, y, text] of [[a, MARGIN / 2, LETTERS[i]], [a, side - MARGIN / 3, LETTERS[i]],
                                [MARGIN / 2.5, a, String(size - i)],
                                [side - MARGIN / 2.5, a, String(size - i)]]) {
      el('text', { x, y, class: 'label' }, svg).textContent = text;
    }
  }
  if (size === 9) {
    for (const p of [20, 24, 40, 56, 60]) {
      const [x, y] = xy(p);
      el('circle', { cx: x, cy: y, r: 3.5, class: 'star' }, svg);
    }
  }
  const layer = el('g', { class: 'stones' }, svg);
  board.appendChild(svg);

  // The probabilities to draw at a move: those of its last answered
  // best_point attempt, keyed by the points the model was shown.
  function pointProbabilities(turn) {
    const calls = callsByTurn.get(turn) || [];
    for (let i = calls.length - 1; i >= 0; i--) {
      if (calls[i].q === 'best_point' && calls[i].probs && calls[i].out === 'answer')
        return calls[i].probs;
    }
    return null;
  }

  function drawBoard() {
    const position = data.positions[Math.min(state.move, nMoves)];
    layer.replaceChildren();
    for (let real = 0; real < nPoints; real++) {
      const c = position[real];
      if (c === '.') continue;
      const at = drawnAt(real);
      const [x, y] = xy(at);
      el('circle', { cx: x, cy: y, r: CELL * 0.47, class: c === 'X' ? 'stone black' : 'stone white',
                     'data-point': nameOf(at), 'data-color': c }, layer);
    }
    const last = state.move > 0 ? data.moves[state.move - 1] : null;
    if (last && last[1] !== 'pass') {
      const [x, y] = xy(drawnAt(pointOf(last[1])));
      el('circle', { cx: x, cy: y, r: CELL * 0.2,
                     class: last[0] === 'B' ? 'last on-black' : 'last on-white' }, layer);
    }
    if (state.move === nMoves) {
      for (const name of data.dead) {
        const [x, y] = xy(drawnAt(pointOf(name)));
        const d = CELL * 0.22;
        el('path', { d: `M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}`,
                     class: 'dead', 'data-dead': nameOf(drawnAt(pointOf(name))) }, layer);
      }
    }
    const probs = state.probs && state.move > 0 ? pointProbabilities(state.move) : null;
    for (const [shownName, p] of Object.entries(probs || {})) {
      const shown = pointOf(shownName);
      if (shown < 0) continue;
      const at = state.modelView ? shown : realOf[shown];
      const [x, y] = xy(at);
      el('circle', { cx: x, cy: y, r: CELL * (0.15 + 0.3 * Math.sqrt(p)), class: 'prob' }, layer);
      el('text', { x, y: y + 1, class: 'prob-text', 'data-prob': nameOf(at) },
         layer).textContent = `${Math.round(p * 100)}`;
    }
  }

  // The text alternative: the board as drawn, rows from the top.
  function boardRows() {
    const position = data.positions[Math.min(state.move, nMoves)];
    const grid = new Array(nPoints).fill('.');
    for (let real = 0; real < nPoints; real++) {
      if (position[real] !== '.') grid[drawnAt(real)] = position[real];
    }
    const rows = ['   ' + LETTERS.slice(0, size).split('').join(' ')];
    for (let y = 0; y < size; y++) {
      const label = String(size - y).padStart(2, ' ');
      rows.push(label + ' ' + grid.slice(y * size, (y + 1) * size).join(' '));
    }
    return rows.join('\n');
  }

  function moveText(index) {
    const m = data.moves[index - 1];
    if (index > nMoves && data.forfeit) {
      const who = data.subject ? COLOR_NAME[data.subject] : 'the model';
      return `${who} forfeits: no valid answer`;
    }
    if (!m) return 'the start';
    if (m[1] === 'pass') return `${COLOR_NAME[m[0]]} passes`;
    const shown = nameOf(shownOf[pointOf(m[1])]);
    return state.modelView ? `${COLOR_NAME[m[0]]} ${shown} (real ${m[1]})`
                           : `${COLOR_NAME[m[0]]} ${m[1]}` + (shown !== m[1] ? ` (shown to the players as ${shown})` : '');
  }

  function caption() {
    // A game of engines alone: no model saw the board, engines play on the real one.
    const turned = data.calls.length ? 'the board as the model saw it' : "the board in the game's orientation";
    const view = state.modelView ? `${turned} (${data.orientation})` : 'the real board';
    let text = state.move > nMoves
      ? `Turn ${state.move}, after move ${nMoves}: ${moveText(state.move)}; ${view}.`
      : `Move ${state.move} of ${nMoves}: ${moveText(state.move)}; ${view}.`;
    if (state.move > nMoves && data.why) text += ` ${data.why}.`;
    if (state.move === nMoves && data.turnLimit)
      text += ' The game ended at the turn limit and was scored there.';
    if (state.move === nMoves && data.dead.length)
      text += ` Dead stones (marked ×): ${data.dead.length}.`;
    const probs = state.probs && state.move > 0 ? pointProbabilities(state.move) : null;
    if (probs) {
      // Named as drawn: on the real board, a shown point is named by its real one.
      const named = Object.fromEntries(Object.entries(probs).map(([shown, p]) => {
        const at = pointOf(shown);
        return [at < 0 || state.modelView ? shown : nameOf(realOf[at]), p];
      }));
      text += ` The model's probabilities, in percent on the points: ${fmtProbs(named)}.`;
    }
    return text;
  }

  function fmtTokens(call) {
    const parts = [];
    if (call.tin !== undefined) parts.push(`${call.tin} in`);
    if (call.tout !== undefined) parts.push(`${call.tout} out`);
    if (call.treason !== undefined && call.treason > 0) parts.push(`${call.treason} reasoning`);
    return parts.length ? parts.join(', ') : 'not reported';
  }

  function fmtProbs(probs) {
    return Object.entries(probs).sort((a, b) => b[1] - a[1])
      .map(([k, p]) => `${k} ${(p * 100).toFixed(1)}%`).join(', ');
  }

  function addRow(dl, term, value) {
    const dt = document.createElement('dt');
    const dd = document.createElement('dd');
    dt.textContent = term;
    dd.textContent = value;
    dl.append(dt, dd);
  }

  let rawPromise = null;
  function loadRaw() {
    if (!rawPromise) {
      rawPromise = (async () => {
        if (typeof DecompressionStream === 'undefined')
          throw new Error('this browser cannot open the compressed calls; download the calls (JSON Lines) instead');
        const binary = atob(data.raw);
        const bytes = new Uint8Array(binary.length);
        for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
        const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
        return JSON.parse(await new Response(stream).text());
      })();
    }
    return rawPromise;
  }

  // The texts of a request body as the model received them: the system
  // part and the messages' content, found by their members' names in any
  // provider's wire format (OpenAI, Anthropic, Gemini, Responses).
  function promptTexts(body) {
    let root;
    try { root = JSON.parse(body); } catch (e) { return null; }
    const texts = [];
    const walk = (node, key) => {
      if (typeof node === 'string') {
        if (['content', 'text', 'system', 'instructions', 'input'].includes(key)) texts.push(node);
      } else if (Array.isArray(node)) {
        node.forEach((child) => walk(child, key));
      } else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) walk(v, k);
      }
    };
    walk(root, '');
    return texts.length ? texts : null;
  }

  // A position's JSON as text a reader can scan: the board rows one per
  // line, every other field as "name: value".
  function seenAs(text) {
    let req;
    try { req = JSON.parse(text); } catch (e) { return text; }
    if (!req || typeof req !== 'object' || Array.isArray(req)) return text;
    const lines = [];
    const fields = (object, indent) => {
      for (const [k, v] of Object.entries(object)) {
        if (k === 'board' && Array.isArray(v)) {
          lines.push(`${indent}board:`);
          for (const row of v) lines.push(`${indent}  ${row}`);
        } else if (k === 'questions' && Array.isArray(v)) {
          for (const q of v) {
            lines.push(`${indent}question ${q.id || ''}: ${q.question || q.text || ''}`);
            if (Array.isArray(q.options)) lines.push(`${indent}  options: ${q.options.join(', ')}`);
            for (const [qk, qv] of Object.entries(q))
              if (!['id', 'question', 'text', 'options'].includes(qk))
                lines.push(`${indent}  ${qk}: ${JSON.stringify(qv)}`);
          }
        } else if (v && typeof v === 'object' && !Array.isArray(v)) {
          lines.push(`${indent}${k}:`);
          fields(v, indent + '  ');
        } else {
          lines.push(`${indent}${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
        }
      }
    };
    fields(req, '');
    return lines.join('\n');
  }

  // The most of a request or a raw response shown before "Show all".
  const SHOWN = 65536;

  function rawSection(call) {
    const details = document.createElement('details');
    details.className = 'raw';
    const summary = document.createElement('summary');
    summary.textContent = 'Request and raw response';
    const body = document.createElement('div');
    details.append(summary, body);
    details.addEventListener('toggle', () => {
      if (!details.open || body.childElementCount) return;
      body.textContent = 'Opening…';
      loadRaw().then((raw) => {
        const [url, reqHeaders, marked, status, respHeaders, respBody] = raw[call.k];
        // The rules text is in the page once; each body has a mark in its place.
        const reqBody = typeof marked === 'string' && data.rules !== null
          ? marked.split('\u0001rules\u0001').join(data.rules) : marked;
        body.textContent = '';
        const block = (parent, title, text, cls) => {
          const h = document.createElement('h4');
          h.textContent = title;
          const pre = document.createElement('pre');
          pre.className = cls;
          pre.tabIndex = 0;
          pre.setAttribute('aria-label', title);
          parent.append(h, pre);
          // A text of megabytes laid out whole stalls the page: its start
          // is shown, and the rest on request.
          if (text.length <= SHOWN) {
            pre.textContent = text;
            return;
          }
          pre.textContent = text.slice(0, SHOWN);
          const more = document.createElement('p');
          more.className = 'cut';
          const note = document.createElement('span');
          note.textContent = `The first ${SHOWN.toLocaleString('en')} of ` +
                             `${text.length.toLocaleString('en')} characters are shown. `;
          const all = document.createElement('button');
          all.type = 'button';
          all.className = 'show-all';
          all.textContent = 'Show all';
          all.addEventListener('click', () => { pre.textContent = text; more.remove(); });
          more.append(note, all);
          parent.append(more);
        };
        // What the model was shown, as text: the rules, then the position
        // and the question (the board in the game's orientation).
        const texts = promptTexts(reqBody || '');
        if (texts) {
          const seen = texts.map(seenAs).join('\n\n');
          block(body, 'The request as the model saw it', seen, 'request-seen');
        }
        const wire = document.createElement('details');
        wire.className = 'wire';
        const wireSummary = document.createElement('summary');
        wireSummary.textContent = 'Raw request (JSON as sent)';
        wire.append(wireSummary);
        block(wire, 'Request', `POST ${url}\n${reqHeaders || ''}`, 'request-head');
        block(wire, 'Request body', reqBody || '', 'request-body');
        body.append(wire);
        block(body, 'Response', `HTTP ${status || '(none)'}\n${respHeaders || ''}`, 'response-head');
        block(body, 'Raw response body', respBody === null ? '(no response)' : respBody,
              'response-body');
      }).catch((e) => { body.textContent = `Cannot show the call: ${e.message}`; });
    });
    return details;
  }

  function callItem(call) {
    const details = document.createElement('details');
    const transport = TRANSPORT.has(call.out);
    details.className = `call outcome-${call.out}` + (transport ? ' transport' : '');
    details.dataset.call = String(call.k);
    const summary = document.createElement('summary');
    const decided = call.dec === 1 ? 'decided the move'
      : call.dec === 0 ? 'decided nothing' : 'not decided yet';
    summary.textContent = `${call.q} #${call.n}: ${call.ans === null ? '—' : call.ans} · ${call.out}` +
                          ` · ${decided} · ${call.ms} ms`;
    if (transport) {
      const tag = document.createElement('span');
      tag.className = 'tag transport-tag';
      tag.textContent = 'transport fault, not counted against the model';
      summary.append(' ', tag);
    }
    const dl = document.createElement('dl');
    addRow(dl, 'Question', call.q);
    addRow(dl, 'Attempt', String(call.n));
    addRow(dl, 'Answer', call.ans === null ? 'none' : call.ans);
    addRow(dl, 'Outcome', call.out + (call.err ? `: ${call.err}` : '') +
           (transport ? ' (a transport fault: retried, never counted against the model)' : ''));
    addRow(dl, 'Decided the move', call.dec === 1 ? 'yes: this answer decided the move'
      : call.dec === 0 ? 'no: no move was made with this answer' : 'not yet: the turn is open');
    addRow(dl, 'HTTP status', call.status ? String(call.status) : 'no response');
    addRow(dl, 'Latency', `${call.ms} ms`);
    addRow(dl, 'Tokens', fmtTokens(call));
    // Nothing spent is "$0", as in the tables and the application.
    addRow(dl, 'Cost', call.cost === undefined ? 'unknown'
      : call.cost === 0 ? '$0' : `$${call.cost.toFixed(6)}`);
    if (call.model) addRow(dl, 'Model', call.model);
    if (call.probs) addRow(dl, 'Probabilities', fmtProbs(call.probs));
    details.append(summary, dl, rawSection(call));
    return details;
  }

  function drawCalls() {
    const list = $('calls');
    const calls = callsByTurn.get(state.move) || [];
    $('calls-title').textContent = state.move === 0 ? 'Calls'
      : `Calls for move ${state.move} (${moveText(state.move)})`;
    list.replaceChildren();
    if (state.move === 0) {
      list.textContent = 'Step to a move to see the calls made for it.';
    } else if (state.move > nMoves) {
      const note = document.createElement('p');
      note.className = 'forfeit-note';
      note.textContent = `The model's rejected answers for this turn, after which it forfeited` +
                         (data.why ? ` (${data.why})` : '') + ':';
      list.appendChild(note);
      for (const call of calls) list.appendChild(callItem(call));
    } else if (!calls.length) {
      list.textContent = 'No model call for this move (an engine or a random player made it).';
    } else {
      for (const call of calls) list.appendChild(callItem(call));
    }
  }

  function render() {
    slider.value = String(state.move);
    slider.setAttribute('aria-valuetext', state.move > nMoves ? `Turn ${state.move}: forfeit`
                                                              : `Move ${state.move} of ${nMoves}`);
    modelView.checked = state.modelView;
    showProbs.checked = state.probs;
    drawBoard();
    $('board-text').textContent = boardRows();
    $('position-caption').textContent = caption();
    drawCalls();
    const dead = data.dead.map((name) => state.modelView ? nameOf(shownOf[pointOf(name)]) : name);
    $('dead-stones').textContent = data.dead.length
      ? `Dead stones, as the referee judged them: ${dead.join(' ')}.` : 'No dead stones.';
    const hash = `#move=${state.move}${state.modelView ? '&view=model' : ''}`;
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  function go(move) {
    state.move = Math.max(0, Math.min(lastStep, move));
    render();
  }

  $('first').addEventListener('click', () => go(0));
  $('prev').addEventListener('click', () => go(state.move - 1));
  $('next').addEventListener('click', () => go(state.move + 1));
  $('last').addEventListener('click', () => go(lastStep));
  slider.addEventListener('input', () => go(Number(slider.value)));
  modelView.addEventListener('change', () => { state.modelView = modelView.checked; render(); });
  showProbs.addEventListener('change', () => { state.probs = showProbs.checked; render(); });

  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    // Not while the reader is in a control (the slider moves itself with
    // the arrows) or a text block (arrows scroll it, Home and End too).
    const t = event.target;
    if (t && t.closest && t.closest('input, select, textarea, button, summary, pre, a, [contenteditable]'))
      return;
    const steps = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (event.key in steps) go(state.move + steps[event.key]);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(lastStep);
    else if (event.key === 'o' || event.key === 'O') {
      state.modelView = !state.modelView;
      render();
    } else if (event.key === 'p' || event.key === 'P') {
      state.probs = !state.probs;
      render();
    } else return;
    event.preventDefault();
  });

  // The address says which move: on opening, and whenever the reader
  // changes it (a link to #move=N, the address bar, Back).
  function fromHash() {
    const m = /move=(\d+)/.exec(location.hash);
    if (m) state.move = Math.min(lastStep, Number(m[1]));
    state.modelView = /view=model/.test(location.hash);
  }
  window.addEventListener('hashchange', () => { fromHash(); render(); });
  fromHash();
  render();
}());
