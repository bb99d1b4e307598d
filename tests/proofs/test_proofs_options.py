"""How the engines are run is a value passed to ``run_catalogue`` (``proofs.verify.checks.Options``), not
state of the process: a run with other options leaves the next run as it was, and the default's
necessity limit keeps the proof cache's key text."""
import pytest

from proofs.catalogue import registry
from proofs.verify.checks import DEFAULT, Options, _StepJob
from proofs.verify.runner import build, run_catalogue

TID = "cauchy_schwarz"


def _necessity_asked(r) -> bool:
    return any(s.necessity for s in r.steps)


def test_necessity_follows_the_options_of_each_run():
    off = run_catalogue([TID], use_cache=False, options=Options(necessity=False)).by_id(TID)
    assert off.status == "proved" and not _necessity_asked(off)
    on = run_catalogue([TID], use_cache=False).by_id(TID)      # the default, after a run without
    assert on.status == "proved" and _necessity_asked(on)


def test_verify_without_json_leaves_later_runs_asking_necessity(capsys):
    from mistakebound.cli import main
    with pytest.raises(SystemExit) as ei:
        main(["verify", "--theorem", TID, "--quiet"])
    assert ei.value.code == 0, capsys.readouterr()
    assert _necessity_asked(run_catalogue([TID], use_cache=False).by_id(TID))


def test_the_default_necessity_limit_keeps_the_cache_key_text():
    proof = build(registry.get(TID)).proof
    st = next(s for s in proof.steps if s.kind == "solve" and s.hyps)
    job = _StepJob(st, DEFAULT)
    job.start()
    assert job.needed.key[2] == "500"
    job.result(st)
    short = _StepJob(st, Options(necessity_ms=200))
    short.start()
    assert short.needed.key[2] == "200" and short.needed.key[:2] == job.needed.key[:2]
    short.result(st)
