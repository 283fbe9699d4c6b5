#!/usr/bin/env bash
# Renders each --answers mode with LibreOffice, to look at the copies as a
# person would: the puzzle untouched, the copy with the grid's borders,
# givens plain and solved cells in blue italics, the note below the grid;
# in `sheet` mode the last pages are the sheet of solutions, each copy
# under the title naming its sheet and range.
# Needs `soffice` (apt-get install -y libreoffice-calc-nogui) and, for PNG
# pages, `pdftoppm` (poppler-utils); without it, open the PDFs.
# Run from the repository root: bash scripts/render_answers.sh [OUT_DIR]
set -euo pipefail
out=${1:-target/answers-render}
mkdir -p "$out"
out=$(cd "$out" && pwd)
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
cargo build --quiet
bin=target/debug/xlsudoku
for f in status_logic_easy example layout_6x6 layout_two_grids; do
  for mode in beside at:B24 sheet; do
    name="$f.${mode/:/_}"
    "$bin" solve "fixtures/$f.xlsx" -o "$out/$name.xlsx" --answers "$mode" -q || true
    soffice -env:UserInstallation="file://$profile" --headless --norestore --convert-to pdf --outdir "$out" "$out/$name.xlsx" >/dev/null
    if command -v pdftoppm >/dev/null; then
      pdftoppm -png -r 60 "$out/$name.pdf" "$out/$name"
    fi
  done
done
ls -1 "$out"
