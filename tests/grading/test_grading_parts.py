"""The grader is built from parts, each an object given what it needs, not from mixins that share
their state through ``self``: the parts share one grading context, and what one part finds (a
cause named, an answer that varies) is what the grader reports."""
from grading.checks.checks import Calls, Grader
from grading.checks.checks_common import GradingContext
from grading.checks.checks_differential import DifferentialTests
from grading.checks.checks_properties import PropertyTests
from grading.checks.diagnose import Diagnoses
from grading.checks.oracle import OracleRuns
from grading.spec.spec import load_spec
from grading.running.warmup import _NoWorker


def test_the_grader_holds_its_parts_and_one_context():
    assert Grader.__bases__ == (object,)
    g = Grader(load_spec("perceptron"), _NoWorker)
    try:
        assert isinstance(g.ctx, GradingContext)
        parts = {"oracle": OracleRuns, "calls": Calls, "diagnosis": Diagnoses, "differential": DifferentialTests,
                 "properties": PropertyTests}
        for name, cls in parts.items():
            part = getattr(g, name)
            assert type(part) is cls and part.ctx is g.ctx, name
        assert g.differential.calls is g.calls and g.differential.diagnosis is g.diagnosis
        assert g.properties.oracle is g.oracle and g.calls.oracle is g.oracle
        g.differential.ctx.diagnoses.setdefault("data shuffled", "why")
        g.diagnosis.ctx.nondeterministic = True
        assert g.diagnoses == {"data shuffled": "why"} and g.nondeterministic
    finally:
        g.close()
