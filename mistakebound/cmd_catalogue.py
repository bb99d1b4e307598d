"""``mistakebound catalogue --html DIR``: the theorem catalogue as a static site (blueprint/)."""
from __future__ import annotations

import sys

import click

from mistakebound.common import fail, input_errors_exit_2

EXIT_NO_COQ = 3


@click.command("catalogue", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--html", "html_dir", metavar="DIR", required=True,
              help="Write the site into DIR (new, empty, or a site written here before).")
@click.option("--coq", "coq", is_flag=True,
              help="Also kernel-check the catalogue in Coq (needs coqc; exit 3 if absent) and mark the entries "
                   "whose Coq counterpart Coq's kernel checked.")
@click.option("--theorem", "theorems", multiple=True, metavar="ID",
              help="Only this entry (and the lemmas it uses). Repeatable. Default: the whole catalogue.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
@input_errors_exit_2
def catalogue(html_dir, coq, theorems, quiet):
    """Write the theorem catalogue as a static site, readable offline.

    \b
    index.html      every entry: status (Coq kernel-checked / proved / refuted / unknown,
                    one colour each), family, the lecture note it checks
    ID.html         one page per entry: the statement typeset (MathML), its hypotheses,
                    the proof as a graph of steps (each step: the facts it uses, the
                    engines' verdicts, the trusted rules, its Coq lemma), the lemmas it
                    uses and the theorems that use it, the worst-case sequences with
                    their plot where there are some
    graph.html      the lemma graph;  rules.html  the trusted rules
    sequences/      the worst-case sequences (mistakebound replay re-checks them)

    The same catalogue gives byte-identical files (no timings, no solver models).

    Exit code 0 when every theorem is proved and every erratum refuted (the site is written in
    every case); 1 otherwise; 2 on bad input; 3 when --coq is given and coqc is absent.
    """
    from proofs.catalogue import registry
    from blueprint.site import check_target, render_site, write_site
    for tid in theorems:
        if tid not in registry.theorem_ids():
            fail(f"unknown theorem id {tid!r} (see mistakebound verify --list)")
    old = check_target(html_dir)
    if coq:
        from coq.build import find_coqc
        if find_coqc() is None:
            click.echo("coq not installed: coqc was not found on PATH (apt-get install coq coinor-csdp)", err=True)
            return EXIT_NO_COQ
    from blueprint.model import collect
    say = (lambda s: None) if quiet else (lambda s: click.echo(s, err=True))
    n = len(theorems) or len(registry.theorem_ids())
    say(f"catalogue: checking {n} entr{'y' if n == 1 else 'ies'} (and the lemmas used)"
        + (" and kernel-checking them in Coq" if coq else ""))
    done = [0]

    def progress(th, r):
        done[0] += 1
        if not quiet and not sys.stderr.isatty() and done[0] % 8 == 0:
            say(f"catalogue: {done[0]} entries checked")
    cat = collect(list(theorems) or None, coq=coq, progress=progress)
    files = render_site(cat)
    try:
        write_site(files, html_dir, old)
    except OSError as e:
        fail(f"cannot write the site: {e.strerror or e} ({getattr(e, 'filename', '') or html_dir})")
    by = {}
    for e in cat.entries:
        by[e.site_status] = by.get(e.site_status, 0) + 1
    click.echo(f"wrote {html_dir}: {len(files)} files, {len(cat.entries)} entry pages ("
               + ", ".join(f"{n} {s}" for s, n in sorted(by.items())) + f"); all as expected: {'yes' if cat.ok else 'NO'}")
    return 0 if cat.ok else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(catalogue())
