"""Compares an input workbook with xlsudoku's annotated copy, as openpyxl
sees them. Exits 1 and prints each difference when something that should be
kept was not:

- the same sheets, in the same order;
- every non-empty cell of the input keeps its value (formulas as formulas),
  its borders and its fill;
- every cell the copy adds is in blue italics, and keeps the borders and
  fill the cell had;
- merged cells, data validations, conditional formats, comments, defined
  names (workbook and sheet scoped), column widths and row heights are the
  same;
- charts, drawings, images, VBA and every other part openpyxl does not
  load are byte for byte the same in the package.

Usage: python3 compare_openpyxl.py INPUT OUTPUT
"""

import sys
import zipfile

import openpyxl

BLUE = "FF0000FF"


def load(path):
    return openpyxl.load_workbook(path, keep_vba=path.endswith(".xlsm"))


def validations(ws):
    return sorted(
        (dv.type, dv.operator, dv.formula1, dv.formula2, str(dv.sqref))
        for dv in ws.data_validations.dataValidation
    )


def cond_formats(ws):
    out = []
    for rng in ws.conditional_formatting:
        for rule in rng.rules:
            out.append((str(rng.sqref), rule.type, rule.operator, tuple(rule.formula or ())))
    return sorted(out)


def same(x, y):
    """Style objects compare by value (openpyxl's proxies compare by identity)."""
    return repr(x) == repr(y)


def names(wb):
    return sorted((n, d.attr_text) for n, d in wb.defined_names.items())


KEPT_PARTS = ("xl/charts/", "xl/drawings/", "xl/media/", "xl/vbaProject", "xl/embeddings/",
              "xl/comments", "xl/tables/", "xl/pivot", "xl/theme/", "docProps/")


def package_parts(a_path, b_path):
    """Parts the copy must keep byte for byte: all of them but the sheets,
    styles and workbook it edits."""
    errors = []
    with zipfile.ZipFile(a_path) as za, zipfile.ZipFile(b_path) as zb:
        names_a, names_b = set(za.namelist()), set(zb.namelist())
        if names_a - names_b:
            errors.append(f"parts lost: {sorted(names_a - names_b)}")
        for name in sorted(names_a & names_b):
            if name.startswith(KEPT_PARTS) and za.read(name) != zb.read(name):
                errors.append(f"part changed: {name}")
    return errors


def main(a_path, b_path):
    a, b = load(a_path), load(b_path)
    errors = package_parts(a_path, b_path)
    if a.sheetnames != b.sheetnames:
        errors.append(f"sheets {a.sheetnames} -> {b.sheetnames}")
    if names(a) != names(b):
        errors.append(f"defined names {names(a)} -> {names(b)}")
    for name in a.sheetnames:
        if name not in b.sheetnames:
            continue
        wa, wb = a[name], b[name]
        if not hasattr(wa, "iter_rows"):
            continue  # a chartsheet
        # Looking a cell up creates it in openpyxl: note first which exist.
        written = set(wa._cells)
        for row in wb.iter_rows():
            for cb in row:
                ca = wa[cb.coordinate]
                where = f"{name}!{cb.coordinate}"
                if ca.value is not None:
                    if ca.value != cb.value:
                        errors.append(f"{where}: {ca.value!r} -> {cb.value!r}")
                    if not same(ca.font, cb.font):
                        errors.append(f"{where}: font changed on a kept cell")
                elif cb.value is not None:
                    if not (cb.font.i and cb.font.color is not None and cb.font.color.rgb == BLUE):
                        errors.append(f"{where}: added value {cb.value!r} is not blue italic")
                # A cell absent from the input takes its style from its row or
                # column in Excel; openpyxl does not apply those, so only
                # cells the input wrote are compared.
                if (cb.row, cb.column) in written:
                    if not same(ca.border, cb.border):
                        errors.append(f"{where}: borders changed")
                    if not same(ca.fill, cb.fill):
                        errors.append(f"{where}: fill changed")
        for ra in list(wa.iter_rows()):
            for ca in ra:
                if ca.value is not None and wb[ca.coordinate].value is None:
                    errors.append(f"{name}!{ca.coordinate}: {ca.value!r} lost")
                if ca.comment is not None:
                    cb = wb[ca.coordinate].comment
                    if cb is None or cb.text != ca.comment.text:
                        errors.append(f"{name}!{ca.coordinate}: comment changed")
        scoped = lambda ws: sorted((n, d.attr_text) for n, d in ws.defined_names.items())
        if scoped(wa) != scoped(wb):
            errors.append(f"{name}: sheet-scoped names {scoped(wa)} -> {scoped(wb)}")
        if sorted(map(str, wa.merged_cells.ranges)) != sorted(map(str, wb.merged_cells.ranges)):
            errors.append(f"{name}: merged cells changed")
        if validations(wa) != validations(wb):
            errors.append(f"{name}: data validations {validations(wa)} -> {validations(wb)}")
        if cond_formats(wa) != cond_formats(wb):
            errors.append(f"{name}: conditional formats changed")
        for key, dim in wa.column_dimensions.items():
            if dim.width != wb.column_dimensions[key].width:
                errors.append(f"{name}: column {key} width changed")
        for key, dim in wa.row_dimensions.items():
            if dim.height != wb.row_dimensions[key].height:
                errors.append(f"{name}: row {key} height changed")
    for e in errors[:50]:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
