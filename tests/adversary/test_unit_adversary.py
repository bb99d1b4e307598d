"""The online-learning unit's worst cases: every row of the table certified by an exact replay."""
from __future__ import annotations

from fractions import Fraction

import pytest

from adversary.table import grid, run_cell
from adversary.unit_worst import (disjunction_forcing, halving_worst, kernel_fs_forcing, orthonormal_forcing,
                                  pa_orthogonal, rwm_two_experts, two_experts_worst, wm_row)
from learners import run_halving, run_weighted_majority


def test_unit_rows_certified(tmp_path):
    rows = [run_cell(c, str(tmp_path)) for c in grid("unit")]
    assert len(rows) == 22 and all(r["ok"] for r in rows)   # 12 rows, Hedge's, the two of Ldim, the multiclass one, 3 of disjunctions, 2 KWA, the second-order one
    by = {r["name"]: r for r in rows}
    for name in ("halving_k6", "pa_orthogonal_d8", "pa1_orthogonal_d8", "pa2_orthogonal_d8", "fs_g1_d4",
                 "fs_kernel_poly2_d4", "lower_g1-4_d16", "lower_two_experts_T40", "lower_disjunction_n64_r4"):
        assert by[name]["ratio"] == 1, name
    for name in ("wm_cycle_n10", "wm_half_cycle_n10", "rwm_spared_n64"):      # irrational: an enclosure
        lo, hi = by[name]["ratio_interval"]
        assert Fraction(99, 100) <= lo <= hi < 1, name
    # the two-expert constructions stay below: 0.79-0.80 of the bound at T = 40
    assert 0.75 < wm_row(40)["mistakes"] / wm_row(40)["bound"] < 0.8 and 0.75 < rwm_two_experts(40)["mistakes"] / rwm_two_experts(40)["bound"] < 0.81
    assert by["soa_intervals_N12"]["ratio"] == 1 == by["lower_ldim_tree_intervals_N12"]["ratio"]
    mc = by["multiclass_orthonormal_d16"]                  # 2 R^2 / gamma^2 reached: 16 mistakes, bound 16
    assert mc["ratio"] == 1 and mc["mistakes"] == 16 and mc["tight"]
    lo, hi = by["hedge_spared_n64"]["ratio_interval"]
    assert Fraction(99, 100) <= lo <= hi < 1 and by["hedge_spared_n64"]["tight"]
    assert (tmp_path / "halving_k6.json").exists()


@pytest.mark.parametrize("k", [1, 3, 5])
def test_halving_attains_log2_of_the_class(k):
    r = halving_worst(k)
    assert r["mistakes"] == k and r["data"]["y"] in r["data"]["H"]
    # one more label flipped away from every hypothesis' vote is not realizable: the bound needs it
    H, y = r["data"]["H"], r["data"]["y"]
    assert run_halving(H, y).mistakes == k


@pytest.mark.parametrize("T", [2, 7, 20])
def test_two_experts_force_2m(T):
    r = two_experts_worst(T)
    assert r["mistakes"] == T and 2 * r["m"] <= T
    assert run_weighted_majority(r["data"]["advice"], r["data"]["y"]).mistakes == T


def test_forcing_margin_is_exact():
    r = orthonormal_forcing(3)
    assert r["mistakes"] == 9 == r["bound"] and r["figures"]["margin_of_u"] == Fraction(1, 3)
    fs = orthonormal_forcing(2, Fraction(3, 2))          # D = 2, bound ((1 + 2)/(3/2))^2 = 4 = M
    assert fs["figures"]["D"] == 2 and fs["bound"] == 4 == fs["mistakes"]
    assert pa_orthogonal(3)["mistakes"] == 3
    kfs = kernel_fs_forcing(3, scale=1)                  # features of e_i orthonormal: R = 1, m = 1/3, D = 1
    f = kfs["figures"]
    assert kfs["ok"] and kfs["mistakes"] == 9 == kfs["bound"] and f["u_sq_in_feature_space"] == 1
    assert f["R"] == 1 and f["gamma"] == Fraction(2, 3) and f["D"] == 1
    assert rwm_two_experts(6)["mistakes"] > 3


@pytest.mark.slow
def test_table_cli_unit_rows_json(tmp_path):
    import json
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "mistakebound", "adversary", "table", "--only", "unit", "--out",
                        str(tmp_path / "t"), "--json"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)["rows"]
    assert len(rows) == 22 and all(row["ok"] for row in rows)
    assert {row["name"]: row["ratio"] for row in rows}["halving_k6"] in (1, "1")
    assert (tmp_path / "t" / "table.json").exists() and (tmp_path / "t" / "mistakes_vs_bound.png").exists()


@pytest.mark.parametrize("n, r, variant", [(64, 4, "halve"), (16, 2, "eliminate"), (20, 3, "halve"), (8, 8, "halve"),
                                           (9, 2, "eliminate")])
def test_disjunction_forcing_reaches_r_floor_lg_n_over_r(n, r, variant):
    d = disjunction_forcing(n, r, variant)
    b = n // r
    want = r * (b.bit_length() - 1)
    assert d["ok"] and d["mistakes"] == want == d["bound"]
    target, X, y = d["data"]["target"], d["data"]["X"], d["data"]["y"]
    assert len(set(target)) == r and all(int(any(row[v] for v in target)) == lab for row, lab in zip(X, y))
