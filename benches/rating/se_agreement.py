#!/usr/bin/env python3
"""Agreement of `xlsudoku rate` with Sudoku Explainer's ratings (ER).

Sudoku Explainer's side is a reference file of lines `PUZZLE ER EP ED`, as
the classic `serate` rater prints them (SE 1.2.1; built and run outside this
repository, e.g. with a `serate.sh` wrapper around
github.com/1to9only/SudokuExplainer at commit 028c7c2). The references
measured so far are kept beside this script in `se_reference/`, with their
origin.

usage: benches/rating/se_agreement.py REFERENCE [--xlsudoku BIN] [--worst K]

Rates the reference's puzzles with `BIN rate --json -j 1` (default
target/release/xlsudoku) and prints the share of puzzles whose ER is within
0.2 and within 1.0 of SE's (the issue's bars: 80 % and 95 %), a table of SE
ER against xlsudoku's by whole point, and the K largest differences.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def reference(path):
    out = []
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            fields = line.split()
            if len(fields) < 2 or fields[0].startswith("#"):
                continue
            out.append((fields[0].replace("0", "."), float(fields[1])))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("reference")
    ap.add_argument("--xlsudoku", default="target/release/xlsudoku")
    ap.add_argument("--worst", type=int, default=10)
    a = ap.parse_args()
    ref = reference(a.reference)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "sample.txt")
        with open(path, "w") as f:
            f.write("\n".join(p for p, _ in ref) + "\n")
        run = subprocess.run([a.xlsudoku, "rate", "--json", "-j", "1", path],
                             capture_output=True, text=True)
    ours = {}
    for line in run.stdout.splitlines():
        o = json.loads(line)
        if "summary" not in o and o.get("rating") is not None:
            ours[o["puzzle"]] = (o["rating"], o["history"])
    near = close = total = 0
    table = {}
    diffs = []
    for p, se in ref:
        if p not in ours:
            continue
        x, history = ours[p]
        total += 1
        near += abs(x - se) <= 0.2 + 1e-6
        close += abs(x - se) <= 1.0 + 1e-6
        key = (int(se), int(x))
        table[key] = table.get(key, 0) + 1
        diffs.append((abs(x - se), p, se, x, history))
    pct = lambda k: 100.0 * k / max(total, 1)
    print(f"{a.reference}: {len(ref)} puzzles, {total} rated by both")
    print(f"ER within 0.2: {near}/{total} = {pct(near):.1f}%  (bar 80%)")
    print(f"ER within 1.0: {close}/{total} = {pct(close):.1f}%  (bar 95%)")
    points = sorted({k[0] for k in table} | {k[1] for k in table})
    print("SE \\ xlsudoku " + " ".join(f"{c:>5}" for c in points))
    for r in points:
        if any(table.get((r, c)) for c in points):
            print(f"{r:>13} " + " ".join(f"{table.get((r, c), ''):>5}" for c in points))
    diffs.sort(reverse=True)
    for d, p, se, x, h in diffs[: a.worst]:
        print(f"{p} SE {se:.1f} xlsudoku {x:.1f} {h}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
