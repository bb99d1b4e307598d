"""``python -m coq emit DIR``: write the whole Coq development (hand-written and generated
files, a _CoqProject) into DIR, ready for ``coq_makefile -f _CoqProject -o Makefile && make``.

``python -m coq coqchk [--full]``: build, then re-check the compiled development with ``coqchk``
(the development's modules; ``--full``: the standard library they rest on too).

``python -m coq differential [N] [--seed S]``: run N generated sequences (default 1200)
through the Coq learners and the exact Python learners and report whether every trace agrees."""
from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m coq")
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("emit", help="write the development into DIR")
    e.add_argument("dir")
    d = sub.add_parser("differential", help="Coq learners against the Python learners")
    d.add_argument("n", nargs="?", type=int, default=1200)
    d.add_argument("--seed", type=int, default=2026)
    c = sub.add_parser("coqchk", help="build, then re-check every compiled file of the development with coqchk")
    c.add_argument("--full", action="store_true",
                   help="re-check the standard library too (by default it is admitted as shipped with Coq)")
    a = ap.parse_args(argv)
    from coq import build
    if a.cmd == "emit":
        names = build.emit(a.dir)
        print(f"{len(names)} files written to {a.dir}")
        return 0
    if build.find_coqc() is None:
        print("coq not installed: coqc was not found on PATH", file=sys.stderr)
        return 3
    if a.cmd == "coqchk":
        from coq.checks import coqchk
        rep = build.build()
        ok, msg = coqchk(build.default_build_dir(), build.allowed_axioms(), full=a.full)
        print(f"coqchk {'passed' if ok else 'FAILED'}: {msg}")
        return 0 if ok and rep.ok else 1
    if a.n < 1:
        print("error: N must be at least 1", file=sys.stderr)
        return 2
    from coq import differential
    rep = build.build()
    if not rep.ok:
        print("the Coq development does not build: " + "; ".join(rep.file_errors.values())[:500], file=sys.stderr)
        return 1
    v = differential.verdict(a.n, build.default_build_dir(), seed=a.seed)
    for line in v.differing:
        print(line)
    print(v.line())
    return 0 if v.ok else 1


if __name__ == "__main__":
    sys.exit(main())
