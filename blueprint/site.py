"""Write the catalogue as a static site: ``index.html``, one page per entry, ``rules.html``,
``graph.html``, ``style.css``, ``sequences/<id>.json`` and ``site.json`` (the list of files).

Readable offline (MathML and inline SVG, one bundled style sheet, no script), deterministic (the
same catalogue gives byte-identical files: no time, no solver model, everything sorted or in the
catalogue's order).  The directory must be new, empty, or a site written here before (it has the
``site.json`` manifest); files of an earlier site that this one does not have are removed, and
every file is written atomically.
"""
from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

from learners.errors import InputError

from blueprint import pages

__all__ = ["render_site", "write_site", "check_target", "MANIFEST"]

MANIFEST = "site.json"
_FORMAT = "mistakebound.site/1"


def render_site(cat) -> dict[str, bytes]:
    """Every file of the site: relative path -> bytes."""
    files: dict[str, str] = {"index.html": pages.index_page(cat), "rules.html": pages.rules_page(cat),
                             "graph.html": pages.graph_page(cat),
                             "style.css": (Path(__file__).with_name("style.css")).read_text(encoding="utf-8")}
    for e in cat.entries:
        files[pages.page_name(e.id)] = pages.entry_page(e, cat)
        if e.worst:
            files[f"sequences/{e.id}.json"] = json.dumps(e.worst["sequence"], indent=1, sort_keys=True,
                                                         default=_wire) + "\n"
    manifest = {"format": _FORMAT, "entries": [{"id": e.id, "status": e.site_status, "page": pages.page_name(e.id)}
                                               for e in cat.entries],
                "coq_run": cat.coq_run, "files": sorted(files) + [MANIFEST]}
    files[MANIFEST] = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    return {k: v.encode("utf-8") for k, v in sorted(files.items())}


def _wire(v):
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    raise TypeError(f"not JSON: {type(v).__name__}")


def check_target(out_dir) -> list[str]:
    """Refuse a directory the site may not write into (before any work); returns the files of an
    earlier site there (to be replaced)."""
    d = Path(out_dir)
    if d.exists() and not d.is_dir():
        raise InputError(f"--html {out_dir}: exists and is not a directory")
    if not d.exists():
        parent = d.resolve().parent
        if not parent.is_dir():
            raise InputError(f"--html {out_dir}: the parent directory {parent} does not exist")
        if not os.access(parent, os.W_OK):
            raise InputError(f"--html {out_dir}: cannot create it in {parent}")
        return []
    if not os.access(d, os.W_OK):
        raise InputError(f"--html {out_dir}: not writable")
    present = [p for p in d.iterdir()]
    if not present:
        return []
    man = d / MANIFEST
    try:
        old = json.loads(man.read_text(encoding="utf-8"))
        if old.get("format") != _FORMAT:
            raise ValueError
        return [f for f in old.get("files", []) if isinstance(f, str) and ".." not in f and not f.startswith("/")]
    except (OSError, ValueError, AttributeError):
        raise InputError(f"--html {out_dir}: the directory is not empty and holds no site written by "
                         f"mistakebound ({MANIFEST} missing); give a new or empty directory") from None


def write_site(files: dict[str, bytes], out_dir, old: list[str] = ()) -> list[str]:
    """Write the files (each atomically: a temporary file renamed into place) and remove the files
    of the earlier site that are not part of this one.  Returns the paths written."""
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    for rel, data in files.items():
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f".{p.name}.tmp")
        tmp.write_bytes(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, p)
    for rel in old:
        if rel not in files:
            try:
                (d / rel).unlink()
            except OSError:
                pass
    return [str(d / rel) for rel in files]
