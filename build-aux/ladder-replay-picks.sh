#!/bin/sh
# Picks the calibration games that `komi-cli ladder check` plays again
# (docs/ratings.md#checked-by-behaviour): from the shipped games
# (data/ladder/protocol-1-games.csv), for each pair of neighbouring members,
# the first games that ended by two passes, half with each member as Black.
# More games for the cheap members, fewer for KataGo's, which are slow; the
# most expensive come first so that two at a time finish together.
#   build-aux/ladder-replay-picks.sh > picks.csv
#   komi-cli ladder record --games picks.csv --out data/ladder/protocol-1-replays.json
set -eu
games="${1:-$(dirname "$0")/../data/ladder/protocol-1-games.csv}"
head -n 1 "$games"
# "LOWER HIGHER GAMES", most expensive first.
while read -r a b n; do
  awk -F, -v a="$a" -v b="$b" -v n="$n" '
    NR > 1 && $7 == "two-passes" && (($2 == a && $3 == b) || ($2 == b && $3 == a)) {
      if ($2 == a && ab < int((n + 1) / 2)) { print; ab++ }
      else if ($2 == b && ba < int(n / 2)) { print; ba++ }
    }' "$games"
done <<'PAIRS'
katago:32 katago:64 1
katago:16 katago:32 1
gnugo:5 gnugo:10 2
gnugo:10 mix:0.1:katago:1 1
katago:4 katago:16 2
katago:1 katago:4 2
mix:0.05:katago:1 katago:1 2
mix:0.1:katago:1 mix:0.05:katago:1 2
gnugo:1 gnugo:5 3
mix:0.2:katago:1 gnugo:1 3
mix:0.1:gnugo:1 mix:0.2:katago:1 3
mix:0.2:gnugo:1 mix:0.1:gnugo:1 3
mix:0.35:gnugo:1 mix:0.2:gnugo:1 3
mix:0.42:gnugo:1 mix:0.35:gnugo:1 3
mix:0.5:gnugo:1 mix:0.42:gnugo:1 3
mix:0.6:gnugo:1 mix:0.5:gnugo:1 3
mix:0.75:gnugo:1 mix:0.6:gnugo:1 3
mix:0.9:gnugo:1 mix:0.75:gnugo:1 3
random mix:0.9:gnugo:1 4
PAIRS
