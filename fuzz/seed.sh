#!/bin/sh
# Rebuilds the corpora of the fuzz targets in fuzz/corpus/: the minimised
# corpus of earlier runs (corpus.tar.xz), then the seeds from the
# repository's fixtures/ and fuzz/seeds/ (see fuzz/seeds/README.md). Files
# already in a corpus folder are kept, so a grown corpus is not lost.
# Needs `unzip` (and `tar` with xz).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
corpus="$here/corpus"
if [ -f "$here/corpus.tar.xz" ]; then
    tar -xJf "$here/corpus.tar.xz" -C "$here"
fi
mkdir -p "$corpus/read_workbook" "$corpus/annotate_roundtrip" "$corpus/xml_part" "$corpus/text_puzzles"

# Whole workbooks: every fixture that is a zip package, and the Excel seeds.
for f in "$root"/fixtures/*.xlsx "$root"/fixtures/*.xlsm "$here"/seeds/excel/*; do
    [ -f "$f" ] || continue
    case "$(basename "$f")" in
        zip_bomb.xlsx) continue ;; # refused by its declared size; 4 MB of nothing
    esac
    for t in read_workbook annotate_roundtrip; do
        cp "$f" "$corpus/$t/$(basename "$f")"
    done
done

# One part per input for xml_part: a selector byte, then the part's content.
# The selector's low three bits choose the part, the next two the base
# package; keep both lists in step with PARTS and BASES in fuzz/src/lib.rs.
# (unzip reads a name as a pattern: `[[]` is a literal `[`.)
set -- example libreoffice_example layout_text_givens openpyxl_fidelity
base=0
for name in "$@"; do
    part=0
    for p in xl/worksheets/sheet1.xml xl/worksheets/sheet2.xml xl/sharedStrings.xml \
        xl/styles.xml xl/workbook.xml xl/_rels/workbook.xml.rels '[[]Content_Types].xml'; do
        sel=$((base * 8 + part))
        out="$corpus/xml_part/${name}_$part"
        if unzip -l "$root/fixtures/$name.xlsx" "$p" >/dev/null 2>&1; then
            # The selector byte, written in octal for a portable printf.
            printf "\\$(printf '%03o' "$sel")" >"$out"
            unzip -p "$root/fixtures/$name.xlsx" "$p" >>"$out"
        fi
        part=$((part + 1))
    done
    base=$((base + 1))
done

# Text puzzles and option values.
cp "$here"/seeds/text/* "$corpus/text_puzzles/"
for f in "$corpus"/*; do
    echo "$(basename "$f"): $(ls "$f" | wc -l) inputs"
done
