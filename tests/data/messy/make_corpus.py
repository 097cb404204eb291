"""Rebuild the messy corpus from the raw public tables (run by hand; the outputs are committed).

    python tests/data/messy/make_corpus.py /work/shared/datasets-raw

Copies some raw files byte for byte and writes others as people export them (see README.md).
Written with the standard library and openpyxl only, so what the reader sees is what a
spreadsheet or a person would write, not what pandas would.
"""

import csv
import io
import json
import shutil
import sys
from pathlib import Path

import openpyxl

HERE = Path(__file__).resolve().parent


def _tsv(path: Path) -> list[list[str]]:
    return list(csv.reader(path.read_text(encoding="utf-8").splitlines(), delimiter="\t"))


def _eu(cell: str) -> str:
    """A number as Excel writes it in most of Europe: decimal comma."""
    return cell.replace(".", ",") if cell and cell[0].isdigit() else cell


def main(raw: Path) -> None:
    copies = {
        "imagenet-torchvision/leaderboard_raw.tsv": "imagenet_raw.tsv",
        "llm-perf-leaderboard-2024-05/llm_perf_lb.csv": "llm_perf_lb.csv",
        "fairness-comparison/adult_sex_numerical-binsensitive.csv": "fairness_adult_sex.csv",
        "decodingtrust/decoding_trust.csv": "decodingtrust_no_header.csv",
        "decodingtrust/llm_safety_lb.csv": "llm_safety_lb.csv",
        "optimizer-benchmarks-posets/DMOP_Wuetal_data_no_std_err.csv": "dmop_index_column.csv",
        "optimizer-benchmarks-posets/deepops_Schneideretal_data.csv": "deepobs_schneider.csv",
    }
    for source, target in copies.items():
        shutil.copyfile(raw / source, HERE / target)
    rows = _tsv(raw / "imagenet-torchvision/leaderboard_raw.tsv")
    # 1. the EU export: BOM, a title line, ';' between values, decimal commas
    out = io.StringIO(newline="")
    out.write("torchvision ImageNet weights, exported 2024-05-06;;;;;\r\n")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(rows[0])
    writer.writerows([[_eu(c) for c in row] for row in rows[1:]])
    (HERE / "imagenet_eu.csv").write_bytes(b"\xef\xbb\xbf" + out.getvalue().encode("utf-8"))
    # 2. the same table as a Markdown table pasted from a model card
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    lines += ["| " + " | ".join(f"**{c}**" if j == 0 and i == 0 else c for j, c in enumerate(r))
              + " |" for i, r in enumerate(rows[1:])]
    (HERE / "imagenet.md").write_text("Table: ImageNet-1k weights\n\n" + "\n".join(lines) + "\n",
                                      encoding="utf-8")
    # 3. the same table in Excel, with a title row and a blank row above the header
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "weights"
    sheet.append(["torchvision ImageNet-1k weights (from pytorch.org/vision)"])
    sheet.append([])
    sheet.append(rows[0])
    for row in rows[1:]:
        sheet.append([row[0], *(float(c) if c != "nan" else None for c in row[1:3]), row[3],
                      float(row[4]), row[5]])
    book.save(HERE / "imagenet_title.xlsx")
    # 4. the first two LaTeX tables of DomainBed's results
    tex = (raw / "domainbed/results.tex").read_text(encoding="utf-8")
    start = tex.index(r"\subsubsection{ColoredMNIST}")
    end = tex.index(r"\subsubsection{VLCS}")
    (HERE / "domainbed_two_tables.tex").write_text(tex[start:end], encoding="utf-8")
    # 5. units in cells: the safety leaderboard as a model card would show it
    safety = list(csv.reader((raw / "decodingtrust/llm_safety_lb.csv").read_text(
        encoding="utf-8").splitlines()))
    header = safety[0]
    keep = ["Model_name_for_merge", "Average ⬆️", "Non-toxicity", "Privacy", "#Params (B)",
            "Precision"]
    index = [header.index(k) for k in keep]
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Model", "Average", "Non-toxicity", "Privacy", "Params", "Precision"])
    for row in safety[1:]:
        cells = [row[i] for i in index]
        params = float(cells[4])
        writer.writerow([cells[0], f"{cells[1]}%", f"{cells[2]}%", f"{cells[3]}%",
                         f"{params:g}B" if params else "", cells[5]])
    (HERE / "safety_units.csv").write_text(out.getvalue(), encoding="utf-8")
    # 6. JSON in both orientations: arena Elo and price per million input tokens
    arena = list(csv.DictReader((raw / "chatbot-arena-price-2025-01-30/elo.csv").read_text(
        encoding="utf-8").splitlines()))
    records = [{"model": r["model"], "overall": int(r["overall"]), "coding": int(r["coding"]),
                "price ($/M tokens)": float(r["cpmi"])} for r in arena if r["cpmi"]][:40]
    (HERE / "arena_records.json").write_text(json.dumps(records, indent=1), encoding="utf-8")
    columns = {key: [r[key] for r in records] for key in records[0]}
    (HERE / "arena_columns.json").write_text(json.dumps(columns), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/datasets-raw"))
