#!/usr/bin/env bash
# Makes the picture of a hint copy in this folder: a puzzle half done (bold
# givens, plain digits typed in), hinted by xlsudoku, printed by
# LibreOffice and rasterised by poppler.
# Needs: a built xlsudoku (XLSUDOKU, default target/release/xlsudoku),
# python3 with openpyxl (fixtures/requirements.txt), soffice
# (libreoffice-calc-nogui) and pdftoppm (poppler-utils).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${XLSUDOKU:-$here/../../target/release/xlsudoku}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# gen_random_minimal_10k #2: its path's 23rd step is a locked pair.
puzzle='78..........5...2..9.8.6....1...74.....3..7.2.5..84...83.....9.....1...7....4..3.'
"$bin" explain --puzzle "$puzzle" --json >"$work/steps.json"
python3 - "$puzzle" "$work/steps.json" "$work/half-done.xlsx" <<'PY'
import json, sys
from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, Side
puzzle, steps, out = sys.argv[1], json.loads(open(sys.argv[2]).readline()), sys.argv[3]
# The placements before the first step that is no single, typed in.
typed = {}
for s in steps["steps"]:
    if s["technique"] not in ("naked-single", "hidden-single"):
        break
    p = s["placed"]
    r, c = p["cell"][1:].split("c")
    typed[(int(r) - 1, int(c) - 1)] = p["digit"]
wb = Workbook()
ws = wb.active
ws.title = "Puzzle"
ws["B1"] = "Half done: ask for a hint"
ws["B1"].font = Font(bold=True, size=12)
for k in range(9):
    ws.column_dimensions[chr(ord("B") + k)].width = 4.5
    ws.row_dimensions[2 + k].height = 24
for i, ch in enumerate(puzzle):
    r, c = divmod(i, 9)
    side = lambda edge: Side(style="medium" if edge else "thin")
    cell = ws.cell(row=2 + r, column=2 + c)
    cell.border = Border(left=side(c % 3 == 0), right=side(c % 3 == 2),
                         top=side(r % 3 == 0), bottom=side(r % 3 == 2))
    cell.alignment = Alignment(horizontal="center", vertical="center")
    if ch != ".":
        cell.value = int(ch)
        cell.font = Font(bold=True, size=14)
    elif (r, c) in typed:
        cell.value = typed[(r, c)]
        cell.font = Font(size=14, color="FF555555")
ws.print_area = "A1:V12"
ws.page_setup.orientation = "landscape"
wb.save(out)
PY
"$bin" hint -q "$work/half-done.xlsx" -o "$work/hint_copy.xlsx" || true
soffice -env:UserInstallation="file://$work/profile" --headless --norestore \
  --convert-to pdf --outdir "$work" "$work/hint_copy.xlsx" >/dev/null
pdftoppm -r 60 -png -singlefile -f 1 -l 1 -x 0 -y 0 -W 702 -H 285 "$work/hint_copy.pdf" "$here/hint_copy"
ls -l "$here"/hint_copy.png
