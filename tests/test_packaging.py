"""Packaging: the licence file matches the metadata, every package ships py.typed, the project
names its home and its documentation, and report files are readable by the group (0644)."""
import json
import os
import stat
import tomllib
from pathlib import Path

from learners.io import REPORT_MODE, write_text_atomic
from mistakebound.cli import main

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_license_file_matches_the_metadata():
    assert PYPROJECT["project"]["license"] == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text


def test_every_package_is_typed_and_ships_the_marker():
    packages = [p.rstrip("*") for p in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]]
    from test_architecture import LAYERS           # every floor of the house is a package that ships
    assert sorted(packages) == sorted(LAYERS)
    for p in packages:
        assert (ROOT / p / "py.typed").is_file(), p
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["*"]


def test_project_urls():
    urls = PYPROJECT["project"]["urls"]
    assert urls["Homepage"].startswith("https://") and urls["Documentation"].endswith("/docs")
    assert urls["Documentation"].startswith(urls["Homepage"])


def _mode(p):
    return stat.S_IMODE(os.stat(p).st_mode)


def test_reports_are_readable_by_the_group(tmp_path, capsys):
    old = os.umask(0o077)                    # even under a strict umask: the documented mode
    try:
        write_text_atomic(tmp_path / "r.txt", "x\n")
        with pytest.raises(SystemExit) as e:
            main(["adversary", "perceptron", "--gamma", "1/2", "--dim", "4", "--out", str(tmp_path / "s.json")])
        assert e.value.code == 0
    finally:
        os.umask(old)
    capsys.readouterr()
    assert REPORT_MODE == 0o644
    assert _mode(tmp_path / "r.txt") == 0o644 and _mode(tmp_path / "s.json") == 0o644
    assert json.loads((tmp_path / "s.json").read_text())["algorithm"] == "perceptron"
    assert [f for f in os.listdir(tmp_path) if f.startswith(".tmp-")] == []
