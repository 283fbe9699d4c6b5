#!/usr/bin/env bash
# Puzzles generated per second: `xlsudoku generate` beside qqwing (Debian
# package `qqwing`), in one run on the same machine. Each line: what was
# asked, how many puzzles came out, wall-clock seconds, puzzles per second.
#
#   cargo build --release --locked
#   benches/generate/compare.sh [XLSUDOKU] [SCALE]
#
# XLSUDOKU defaults to target/release/xlsudoku; SCALE (default 1) multiplies
# every count, for a longer and steadier run. The seeds are fixed, so
# xlsudoku makes the same puzzles on every run; qqwing draws its own.
set -euo pipefail
cd "$(dirname "$0")/../.."
X=${1:-target/release/xlsudoku}
S=${2:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run LABEL COMMAND...: times the command, counts the puzzle lines it wrote.
run() {
  local label=$1
  shift
  local t0 t1 n
  t0=$(date +%s.%N)
  "$@" >"$work/out.txt"
  t1=$(date +%s.%N)
  n=$(grep -cE '^[.0-9A-Za-z]{16,}$' "$work/out.txt" || true)
  awk -v l="$label" -v n="$n" -v a="$t0" -v b="$t1" \
    'BEGIN { s = b - a; printf "%-58s %7d %8.2f s %10.1f /s\n", l, n, s, n / s }'
}

gen() { "$X" generate -q -o - "$@"; }

echo "$(date -u +%F) $(nproc) cores; $("$X" --version | head -1); qqwing $(qqwing --version 2>&1 | head -1)"
printf '%-58s %7s %10s %12s\n' "request" "puzzles" "time" "rate"
run "xlsudoku 9x9 any level -j 2" gen -n $((5000 * S)) --seed 1 -j 2
run "xlsudoku 9x9 any level -j 1" gen -n $((2500 * S)) --seed 1 -j 1
if command -v qqwing >/dev/null; then
  run "qqwing 9x9 any (--generate --one-line)" qqwing --generate $((1000 * S)) --one-line
fi
run "xlsudoku 9x9 easy -j 2" gen -n $((2000 * S)) --level easy --seed 2 -j 2
run "xlsudoku 9x9 medium -j 2" gen -n $((2000 * S)) --level medium --seed 3 -j 2
run "xlsudoku 9x9 hard -j 2" gen -n $((500 * S)) --level hard --seed 4 -j 2
run "xlsudoku 9x9 unfair -j 2" gen -n $((20 * S)) --level unfair --seed 5 -j 2
run "xlsudoku 9x9 extreme -j 2" gen -n $((100 * S)) --level extreme --seed 6 -j 2
if command -v qqwing >/dev/null; then
  for d in simple easy intermediate expert; do
    run "qqwing 9x9 --difficulty $d" qqwing --generate $((250 * S)) --difficulty "$d" --one-line
  done
fi
run "xlsudoku 16x16 book-grade (--techniques all) -j 2" gen --size 16 -n $((100 * S)) --techniques all --seed 7 -j 2
run "xlsudoku 25x25 book-grade (--techniques all) -j 2" gen --size 25 -n $((4 * S)) --techniques all --seed 8 -j 2
# The workbook's own cost: the same 9x9 set written as .xlsx.
t0=$(date +%s.%N)
"$X" generate -q -n $((1000 * S)) --seed 1 -j 2 -o "$work/set.xlsx"
t1=$(date +%s.%N)
awk -v n=$((1000 * S)) -v a="$t0" -v b="$t1" \
  'BEGIN { s = b - a; printf "%-58s %7d %8.2f s %10.1f /s\n", "xlsudoku 9x9 any level -j 2, as a workbook", n, s, n / s }'
