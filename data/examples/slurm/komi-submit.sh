#!/bin/sh
# komi-submit.sh SERIES.json OUTDIR N [SBATCH OPTION…]: a series as N shards
# on Slurm (one array task each), and the merge once they have all ended.
# Prints the two job ids. The komi-cli the tasks run is $KOMI_CLI (default:
# komi-cli on the PATH of the compute nodes); OUTDIR must be on a file
# system every node sees.
set -eu

series=${1:?usage: komi-submit.sh SERIES.json OUTDIR N [SBATCH OPTION…]}
out=${2:?usage: komi-submit.sh SERIES.json OUTDIR N [SBATCH OPTION…]}
n=${3:?usage: komi-submit.sh SERIES.json OUTDIR N [SBATCH OPTION…]}
shift 3
here=$(cd "$(dirname "$0")" && pwd)

mkdir -p "$out"
array=$(sbatch --parsable --array=0-$((n - 1)) --chdir="$out" "$@" \
  "$here/komi-shards.sbatch" "$series" "$out")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterany:"$array" --chdir="$out" "$@" \
  "$here/komi-merge.sbatch" "$series" "$out")
echo "$array ${merge%%;*}"
