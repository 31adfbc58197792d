// sabaki-sgf.js
//
// Copyright 2026 The Komi authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Reads SGF files exported by Komi with Sabaki's own parser (@sabaki/sgf)
// and checks them against Komi's record of the same games, as printed by
// `komi-cli analyse`: the same moves in the same order, BM on exactly the
// moves the table calls mistakes (BM[1]) and blunders (BM[2]) with their
// comment, and an SBKS score lead on the root and on every move node.
//
// Usage: node sabaki-sgf.js TABLE.txt FILE.sgf…  (NODE_PATH finds @sabaki/sgf)

'use strict'

const fs = require('fs')
const sgf = require('@sabaki/sgf')

const COLUMNS = 'ABCDEFGHJ'

function fail(message) {
  console.error('not ok: ' + message)
  process.exit(1)
}

// Komi's record per game id: [{color, point, mark}] from the analyse table.
function readTables(path) {
  const games = new Map()
  let moves = null
  for (const line of fs.readFileSync(path, 'utf8').split('\n')) {
    let m = /^Game (\d+):/.exec(line)
    if (m) {
      moves = []
      games.set(Number(m[1]), moves)
      continue
    }
    m = /^\s+(\d+)\s+([BW]) (\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s*(mistake|blunder)?\s*$/.exec(line)
    if (m && moves != null) {
      if (Number(m[1]) !== moves.length + 1) fail(`table: move ${m[1]} out of order`)
      moves.push({color: m[2], point: m[3], mark: m[4] || ''})
    }
  }
  return games
}

// An SGF point as a protocol name (A–J without I, rows from the bottom).
function protocolName(value, size) {
  if (value === '' || value === 'tt') return 'pass'
  const x = value.charCodeAt(0) - 97
  const y = value.charCodeAt(1) - 97
  return COLUMNS[x] + String(size - y)
}

const [tablePath, ...files] = process.argv.slice(2)
if (tablePath == null || files.length === 0) fail('usage: sabaki-sgf.js TABLE FILE.sgf…')
const games = readTables(tablePath)
let checked = 0

for (const file of files) {
  const roots = sgf.parse(fs.readFileSync(file, 'utf8'))
  if (roots.length !== 1) fail(`${file}: ${roots.length} game trees, expected 1`)
  const root = roots[0]
  const size = Number(root.data.SZ[0])
  const comment = (root.data.C || [''])[0]
  const id = /library game (\d+)/.exec(comment) || /\(game (\d+)\)/.exec(comment)
  if (id == null) fail(`${file}: the root comment names no library game`)
  const record = games.get(Number(id[1]))
  if (record == null) fail(`${file}: game ${id[1]} was not in the analyse table`)
  if (root.data.SBKS == null || !Number.isFinite(+root.data.SBKS[0]))
    fail(`${file}: the root has no SBKS`)

  const moves = []
  for (let node = root.children[0]; node != null; node = node.children[0]) {
    if (node.children.length > 1) fail(`${file}: variations in an exported game`)
    const color = node.data.B != null ? 'B' : node.data.W != null ? 'W' : null
    if (color == null) fail(`${file}: a node without a move`)
    moves.push({color, point: protocolName(node.data[color][0], size), node})
  }
  if (moves.length !== record.length)
    fail(`${file}: ${moves.length} moves in Sabaki's parse, ${record.length} in Komi's record`)

  moves.forEach((got, i) => {
    const want = record[i]
    const where = `${file} move ${i + 1}`
    if (got.color !== want.color || got.point !== want.point)
      fail(`${where}: Sabaki reads ${got.color} ${got.point}, ` +
           `Komi recorded ${want.color} ${want.point}`)
    const data = got.node.data
    if (data.SBKS == null || !Number.isFinite(+data.SBKS[0])) fail(`${where}: no SBKS`)
    const bm = data.BM != null ? data.BM[0] : ''
    const expected = {blunder: '2', mistake: '1', '': ''}[want.mark]
    if (bm !== expected) fail(`${where}: BM[${bm}] but the table says "${want.mark}"`)
    if (want.mark !== '') {
      const text = (data.C || [''])[0]
      const label = want.mark === 'blunder' ? 'Blunder' : 'Mistake'
      if (!new RegExp(`^${label}: lost [0-9.]+ points, best was (\\S+) \\(`).test(text))
        fail(`${where}: comment "${text}" does not say what was lost and what was best`)
    }
  })
  checked++
  const marked = record.filter((m) => m.mark !== '').length
  console.log(`ok ${checked} ${file}: ${moves.length} moves as recorded, ${marked} marked, ` +
              'SBKS on every node')
}
