#!/usr/bin/env bash
# Makes the pictures of book pages in this folder: generated books printed
# by LibreOffice, one page of each layout rasterised by poppler.
# Needs: a built xlsudoku (XLSUDOKU, default target/release/xlsudoku),
# soffice (libreoffice-calc-nogui) and pdftoppm (poppler-utils).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${XLSUDOKU:-$here/../../target/release/xlsudoku}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" generate -q --seed 47 -n 1 --per-page 1 --paper letter --level hard -o "$work/book-1-letter.xlsx"
"$bin" generate -q --seed 47 -n 4 --per-page 4 --paper a4 --level easy:2,hard:2 \
  --title 'Week 47 · {n} · {level}' -o "$work/book-4-a4.xlsx"
"$bin" generate -q --seed 47 -n 12 --per-page 6 --paper a4 -o "$work/book-6-a4.xlsx"
soffice -env:UserInstallation="file://$work/profile" --headless --norestore \
  --convert-to pdf --outdir "$work" "$work"/*.xlsx >/dev/null
pdftoppm -r 50 -png -singlefile -f 1 -l 1 "$work/book-1-letter.pdf" "$here/book-1-letter"
pdftoppm -r 50 -png -singlefile -f 1 -l 1 "$work/book-4-a4.pdf" "$here/book-4-a4"
pdftoppm -r 50 -png -singlefile -f 1 -l 1 "$work/book-6-a4.pdf" "$here/book-6-a4"
# The answers of the twelve: the last page of the six-a-page book.
pdftoppm -r 50 -png -singlefile -f 3 -l 3 "$work/book-6-a4.pdf" "$here/book-answers-a4"
ls -l "$here"/*.png
