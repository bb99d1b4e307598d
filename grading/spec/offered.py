"""Which tests a spec offers: the edge cases, the tests every spec has, and those only a call that
trains in the course's order allows (the proof's invariants, linear time, default arguments) -- and,
for a test a spec asks for and cannot have, the reason in one sentence."""
from __future__ import annotations

__all__ = ["EDGE", "ALL_KINDS", "test_kinds", "not_offered"]

EDGE = ["one_example", "one_feature", "ties", "zero_vector", "repeated_examples", "several_epochs",
        "negative_fractional"]

def test_kinds(spec) -> list[str]:
    kinds = list(EDGE)
    c = spec.contract
    if spec.algorithm in ("winnow", "halving", "soa"):
        kinds.remove("negative_fractional")
    if spec.style == "function" and c is not None and c.epochs_fixed:
        kinds.remove("several_epochs")
    kinds += ["inputs_not_modified", "random", "worst_case", "hidden_random"]
    if spec.style == "function":
        # the invariants are checked step by step on runs over prefixes: not for code that draws its
        # own order every pass or makes several passes per call, nor under Winnow's margin rule
        # (with an adapter, the prefix runs' order helper would land in the adapter's module, not the
        # course's: only in index order)
        if spec.algorithm not in ("hedge", "halving", "soa") and (c is None or (
                c.one_step_runs and c.margin is None and c.init != "own" and not c.oracle
                and not (c.adapter and c.order != "index") and c.answer in ("weights", "weights_mistakes"))):
            kinds.append("invariants")
        if spec.algorithm not in ("halving", "soa"):
            kinds.append("linear_time")
        if c is not None and c.call.defaults:
            kinds.append("default_arguments")
    return kinds


ALL_KINDS = EDGE + ["inputs_not_modified", "default_arguments", "random", "invariants", "linear_time",
                   "worst_case", "hidden_random"]


def not_offered(spec, kind) -> str:
    """Why a known test is not offered under this spec ("" when it is, or when ``kind`` is unknown)."""
    if kind not in ALL_KINDS or kind in test_kinds(spec):
        return ""
    c = spec.contract
    if kind == "negative_fractional":
        return "Winnow's features are 0/1" if spec.algorithm == "winnow" else "the instances are indices into the domain"
    if kind in ("invariants", "linear_time") and spec.algorithm in ("halving", "soa"):
        return ({"invariants": "the answer holds no version space to check step by step; the proof's invariants (V at "
                               "least halves on a mistake; Ldim(V) drops on a mistake) hold on the reference's runs",
                 "linear_time": "the cost of a step depends on the class (SOA computes Littlestone dimensions), not "
                                "on the number of steps alone"}[kind])
    if spec.style == "class" and kind in ("invariants", "linear_time", "default_arguments"):
        return "the online class style (predict/update) is graded step by step; this test needs a call that trains"
    if kind == "several_epochs":
        return "the call passes no number of passes (T): every call is one pass"
    if kind == "default_arguments":
        return "[contract.call] declares no defaults (the handout's default values of T, eta or theta)"
    if kind == "invariants" and spec.algorithm == "hedge":
        return "Hedge's invariants (weights positive, total weight never growing, the loss bound) are the reference's"
    if kind == "invariants":
        why = [w for ok, w in (
            (c.per_pass_order, f"order = {c.order!r} draws a new order every pass"),
            (c.passes > 1, f"passes = {c.passes} makes several passes per call"),
            (c.step != "constant", f"step = {c.step!r} scales each example's update"),
            (c.unbounded, "the call passes until one pass makes no mistake, with no maximum"),
            (c.average != "none", f"average = {c.average!r} answers an average, not the last weights"),
            (c.margin is not None, "Winnow's margin rule updates whatever the prediction"),
            (c.init == "own", "init = \"own\": the code draws its start itself"),
            (bool(c.oracle), "the expected answers come from the course's solution (contract.oracle)"),
            (bool(c.adapter) and c.order != "index", "the adapter's module would receive the order helper of the "
                                                     "step-by-step runs, not the course's code"),
            (c.answer in ("mistakes", "predictions"), f"answer = {c.answer!r}: the adapter returns no weights")) if ok]
        return ("the step-by-step runs (on prefixes of one pass, in the given order) are not possible here: "
                + "; ".join(why)) if why else ""
    return ""
