"""bench/results.py: every benchmark appends its figures, with the machine's state, to one table file."""
import importlib.util
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _results():
    spec = importlib.util.spec_from_file_location("bench_results", ROOT / "bench" / "results.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_rows_go_under_their_scripts_table(tmp_path):
    res = _results()
    out = tmp_path / "RESULTS.md"
    a = res.Run("bench_a.py", with_gauge=False)
    a.add("cold run", "3.5 s", goal="<= 5 s")
    a.write(out)
    b = res.Run("bench_b.py", with_gauge=False)
    b.add("a | piped figure", "1")
    b.write(out)
    a2 = res.Run("bench_a.py", with_gauge=False)
    a2.add("warm run", "0.6 s", goal="<= 1 s")
    a2.write(out)
    text = out.read_text()
    assert text.startswith("# Measured figures")
    sec_a = text.split("## bench_a.py", 1)[1].split("## ", 1)[0]
    sec_b = text.split("## bench_b.py", 1)[1]
    assert "cold run" in sec_a and "warm run" in sec_a and "warm run" not in sec_b
    assert sec_a.index("cold run") < sec_a.index("warm run")        # appended in order
    assert "a \\| piped figure" in sec_b                              # a cell never breaks the table
    row = next(line for line in sec_a.splitlines() if "cold run" in line)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert len(cells) == len(res.COLUMNS)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", cells[0])
    assert re.fullmatch(r"\d+\.\d\d → \d+\.\d\d", cells[5])            # load before -> after
    assert "cores" in cells[4]                                         # the machine
    assert text.count("## bench_a.py") == 1 and text.count("| date (UTC) |") == 2


def test_every_benchmark_script_records_its_figures():
    scripts = sorted((ROOT / "bench").glob("bench_*.py"))
    assert scripts
    silent = [p.name for p in scripts if "Run(" not in p.read_text(encoding="utf-8")]
    assert not silent, f"benchmarks that do not append to bench/RESULTS.md: {silent}"


@pytest.mark.parametrize("doc", ["README.md"] + sorted(p.relative_to(ROOT).as_posix()
                                                    for p in (ROOT / "docs").glob("*.md")))
def test_no_measurement_narrative_outside_results(doc):
    """Load averages, core-speed gauges and reference loops belong to bench/RESULTS.md, written with
    the figures they qualify; prose elsewhere links there instead."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    found = re.findall(r"load average|gauge|reference loop|10\^7 Python additions|with nothing else running"
                       r"|at loads? \d|load at \d|machine's load|on a quiet machine|loaded 2-core machine|measured on a loaded"
                       r"|\(load \d|load \d+-\d+\)", text, re.I)
    assert not found, f"{doc} narrates measurements ({sorted(set(found))}); figures live in bench/RESULTS.md"
