#!/usr/bin/env python3
"""Agreement of `xlsudoku rate` with HoDoKu's levels on a sample of puzzles.

HoDoKu's side comes from hodoku-py (`pip install hodoku-py`, a port of
HoDoKu 2.2's solver), installed outside this repository; it is never a
dependency of xlsudoku.

usage: benches/rating/hodoku_agreement.py PUZZLES [N] [--xlsudoku BIN] [--reference FILE]

Takes the first N puzzles of PUZZLES (default 200; `#` lines and blank lines
skipped), rates them with hodoku-py one by one (or reads HoDoKu's answers
from FILE, lines `PUZZLE LEVEL SCORE ...`, as this script's --save-reference
writes them), rates them with `BIN rate --json -j 1` (default
target/release/xlsudoku), and prints the share of equal levels, the
confusion matrix (rows HoDoKu, columns xlsudoku) and both tools' times.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]


def puzzles(path, n):
    out = []
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            token = line.split()[0] if line.split() else ""
            if not token or token.startswith("#"):
                continue
            out.append(token)
            if len(out) == n:
                break
    return out


def hodoku_levels(sample):
    import hodoku  # installed outside the repository

    solver = hodoku.Solver()
    answers, times = {}, []
    for p in sample:
        t = time.perf_counter()
        r = solver.solve(p)
        times.append(time.perf_counter() - t)
        answers[p] = (r.level.name.lower(), r.score)
    return answers, times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("puzzles")
    ap.add_argument("n", nargs="?", type=int, default=200)
    ap.add_argument("--xlsudoku", default="target/release/xlsudoku")
    ap.add_argument("--reference")
    ap.add_argument("--save-reference")
    a = ap.parse_args()
    sample = puzzles(a.puzzles, a.n)
    canon = [p.replace("0", ".") for p in sample]
    if a.reference:
        ref, htimes = {}, []
        for line in open(a.reference):
            f = line.split()
            if len(f) >= 3:
                ref[f[0].replace("0", ".")] = (f[1].lower(), int(f[2]))
    else:
        ref, htimes = hodoku_levels(canon)
    if a.save_reference:
        with open(a.save_reference, "w") as f:
            for p in canon:
                f.write(f"{p} {ref[p][0]} {ref[p][1]}\n")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "sample.txt")
        with open(path, "w") as f:
            f.write("\n".join(canon) + "\n")
        t = time.perf_counter()
        run = subprocess.run([a.xlsudoku, "rate", "--json", "-j", "1", path],
                             capture_output=True, text=True)
        xwall = time.perf_counter() - t
    ours = {}
    xtimes = []
    for line in run.stdout.splitlines():
        o = json.loads(line)
        if "summary" in o:
            continue
        ours[o["puzzle"]] = (o["level"], o["score"])
        xtimes.append(o["elapsed_ms"] / 1000)
    matrix = {h: {x: 0 for x in LEVELS + [None]} for h in LEVELS}
    same = total = 0
    for p in canon:
        if p not in ref or p not in ours:
            continue
        h, x = ref[p][0], ours[p][0]
        matrix[h][x] += 1
        total += 1
        same += h == x
    print(f"{a.puzzles}: first {len(canon)} puzzles, {total} compared")
    print(f"same level: {same}/{total} = {100.0 * same / max(total, 1):.1f}%")
    print("HoDoKu \\ xlsudoku " + " ".join(f"{x:>8}" for x in LEVELS))
    for h in LEVELS:
        row = matrix[h]
        if sum(row.values()):
            print(f"{h:>17} " + " ".join(f"{row[x]:>8}" for x in LEVELS))
    if htimes:
        print(f"hodoku-py: total {sum(htimes):.2f} s, median {1000 * statistics.median(htimes):.2f} ms, max {1000 * max(htimes):.0f} ms")
    if xtimes:
        print(f"xlsudoku:  total {xwall:.2f} s (wall, whole run), median {1000 * statistics.median(xtimes):.2f} ms, max {1000 * max(xtimes):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
