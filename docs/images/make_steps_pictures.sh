#!/usr/bin/env bash
# Makes the picture of a step workbook in this folder: `explain --xlsx` on
# magictour top1465 #1, printed by LibreOffice, its first page rasterised
# by poppler.
# Needs: a built xlsudoku (XLSUDOKU, default target/release/xlsudoku),
# soffice (libreoffice-calc-nogui) and pdftoppm (poppler-utils).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${XLSUDOKU:-$here/../../target/release/xlsudoku}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
puzzle='4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........'
"$bin" explain --puzzle "$puzzle" --xlsx "$work/steps_pictures.xlsx" >/dev/null
soffice -env:UserInstallation="file://$work/profile" --headless --norestore \
  --convert-to pdf --outdir "$work" "$work/steps_pictures.xlsx" >/dev/null
pdftoppm -r 60 -png -singlefile -f 1 -l 1 "$work/steps_pictures.pdf" "$here/steps_pictures"
ls -l "$here"/steps_pictures.png
