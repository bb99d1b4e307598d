"""blueprint.model.collect: the catalogue to read, gathered from one run of the catalogue."""
import collections

from proofs.verify import runner


def test_collect_builds_each_proof_once(monkeypatch):
    from blueprint import model
    calls = collections.Counter()
    real = runner.build

    def counting(th, *a, **k):
        calls[th.id] += 1
        return real(th, *a, **k)
    monkeypatch.setattr(runner, "build", counting)
    cat = model.collect(["block_novikoff_unit"], worst=False)
    assert [e.id for e in cat.entries][-1] == "block_novikoff_unit"
    assert calls and max(calls.values()) == 1, f"proofs built more than once: {dict(calls)}"
