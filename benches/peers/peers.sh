#!/usr/bin/env bash
# Side-by-side 9x9 benchmark of xlsudoku against tdoku and the `sudoku` crate,
# both built in a scratch folder OUTSIDE the repository (see README.md here).
#
#   peers.sh setup SCRATCH      build the peers in SCRATCH
#   peers.sh run SCRATCH [R]    R repetitions (default 3), median per set
#
# Env: XLSUDOKU (default: target/release/xlsudoku of this repository),
#      BENCH_DIR (default: benches/data/9x9 of this repository).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cmd=${1:-}
scratch=${2:-}
[ -n "$cmd" ] && [ -n "$scratch" ] || { sed -n '2,9p' "$0" >&2; exit 2; }
case $scratch in
    "$repo"|"$repo"/*) echo "SCRATCH must be outside the repository" >&2; exit 2 ;;
esac

setup() {
    mkdir -p "$scratch/sudoku-peer/src" "$scratch/tdoku"
    cat > "$scratch/sudoku-peer/Cargo.toml" <<'TOML'
[package]
name = "peer"
version = "0.1.0"
edition = "2021"

[dependencies]
sudoku = "0.8"
libc = "0.2"

[profile.release]
lto = "thin"
codegen-units = 1
TOML
    cp "$here/sudoku_driver.rs" "$scratch/sudoku-peer/src/main.rs"
    (cd "$scratch/sudoku-peer" && cargo build --release -q)
    echo "built $scratch/sudoku-peer/target/release/peer"
    if [ -f "$scratch/tdoku/include/tdoku.h" ] && [ -d "$scratch/tdoku/src" ]; then
        cp "$here/tdoku_driver.cc" "$scratch/tdoku/bench.cc"
        (cd "$scratch/tdoku" && g++ -O3 -march=native -std=c++17 -o bench bench.cc \
            src/solver_dpll_triad_simd.cc src/util.cc)
        echo "built $scratch/tdoku/bench"
    else
        echo "tdoku sources not found in $scratch/tdoku (include/, src/): tdoku skipped" >&2
    fi
}

run() {
    local reps=${3:-3}
    local xl=${XLSUDOKU:-$repo/target/release/xlsudoku}
    local dir=${BENCH_DIR:-$repo/benches/data/9x9}
    local sets=(puzzles2_17_clue puzzles3_magictour_top1465 "puzzles5_forum_hardest_1905_11+"
                puzzles6_forum_hardest_1106 puzzles7_serg_benchmark gen_random_minimal_10k.txt)
    declare -A bin=([xlsudoku]="$xl bench" [sudoku]="$scratch/sudoku-peer/target/release/peer"
                    [tdoku]="$scratch/tdoku/bench")
    local tools=()
    for t in tdoku sudoku xlsudoku; do
        [ -x "${bin[$t]%% *}" ] && tools+=("$t")
    done
    declare -A rates counts
    for ((r = 0; r < reps; r++)); do
        for set in "${sets[@]}"; do
            for ((k = 0; k < ${#tools[@]}; k++)); do
                local t=${tools[$(((k + r) % ${#tools[@]}))]}
                # xlsudoku: file puzzles solved unique multiple none timed_out seconds per_second;
                # the peers: file puzzles unique multiple none seconds per_second.
                local line
                line=$(${bin[$t]} "$dir/$set" | awk -v b="$set" '$1 == b')
                [ -n "$line" ] || { echo "no result from $t on $set" >&2; exit 1; }
                local c
                if [ "$t" = xlsudoku ]; then
                    c=$(awk '{print $4 "/" $5 "/" $6}' <<< "$line")
                else
                    c=$(awk '{print $3 "/" $4 "/" $5}' <<< "$line")
                fi
                rates[$set,$t]+="$(awk '{print $NF}' <<< "$line") "
                if [ -n "${counts[$set,$t]:-}" ] && [ "${counts[$set,$t]}" != "$c" ]; then
                    echo "$t: counts on $set changed between runs" >&2; exit 1
                fi
                counts[$set,$t]=$c
            done
        done
    done
    median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {
        if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2] + a[NR/2+1]) / 2 }'; }
    printf "%-34s %18s" set "unique/multiple/none"
    for t in "${tools[@]}"; do printf " %12s" "$t/s"; done
    printf "  counts\n"
    local status=0
    for set in "${sets[@]}"; do
        printf "%-34s %18s" "$set" "${counts[$set,xlsudoku]}"
        local agree=agree
        for t in "${tools[@]}"; do
            printf " %12.0f" "$(median <<< "${rates[$set,$t]}")"
            [ "${counts[$set,$t]}" = "${counts[$set,xlsudoku]}" ] || agree=DISAGREE
        done
        printf "  %s\n" "$agree"
        [ $agree = agree ] || status=1
    done
    return $status
}

case $cmd in
    setup) setup ;;
    run) run "$@" ;;
    *) sed -n '2,9p' "$0" >&2; exit 2 ;;
esac
