"""The linear-time verdict on a loaded machine, from injected CPU readings (no real timing: the
figures a pass costs are scripted, the answers are the reference's).  A burst of load that makes
the largest size look slow for a while must not cost a correct submission its point; a cost that
really grows faster than n, or a fixed padding that hides it, is named however short the passes
are on a fast machine."""
import collections

import pytest

from grading.checks.checks import Grader
from grading.spec.spec import load_spec
from grading.spec.spec import TestSpec as Kind
from sandbox.limits import CallResult

SIZES = (512, 1024, 2048, 4096)


class _Idle:
    alive = True

    def close(self):
        pass


class Scripted(Grader):
    """A grader whose timed passes cost ``cost(n, k)`` CPU seconds (k: how many passes over n
    were timed before) and answer right."""

    def __init__(self, spec, cost):
        super().__init__(spec, _Idle)
        self.cost, self.seen = cost, collections.Counter()
        self.properties._timed = self._timed

    def _timed(self, X, y, limit):
        n = len(X)
        s = self.cost(n, self.seen[n])
        self.seen[n] += 1
        self.ctx.clock, self.ctx.last_call = "CPU", CallResult(ok={}, seconds=s)
        return s, None, self.problem.expected(X, y, 1)


@pytest.fixture
def verdict(monkeypatch):
    from grading.checks import checks_properties
    # the reference's pass: linear (its own timing is not what is tested here)
    monkeypatch.setattr(checks_properties, "reference_seconds", lambda contract, X, y: 1e-5 * len(X))
    monkeypatch.setattr(checks_properties, "_REF_SECONDS", {})
    spec = load_spec("perceptron")

    def run(cost):
        g = Scripted(spec, cost)
        ok, msg, _ = g.properties._t_linear_time(Kind(kind="linear_time"))
        return ok, msg, g.seen
    return run


@pytest.mark.slow
def test_a_burst_of_load_at_the_largest_size_is_not_super_linear(verdict):
    # linear work (30 ms per 1024 examples); the first three passes over n = 4096 run during a
    # burst that slows them x2.2: the minimum of two, and then of three, still reads x8.8
    ok, msg, seen = verdict(lambda n, k: 0.03 * n / 1024 * (2.2 if n == 4096 and k < 3 else 1.0))
    assert ok, msg
    assert seen[4096] >= 4           # confirmed in rounds before anything was named


def test_quadratic_work_is_named_in_every_round(verdict):
    # quadratic work with a linear part, every pass 0-60% slower than the quiet figure
    noise = [1.0, 1.6, 1.2, 1.45, 1.1, 1.3]
    ok, msg, _ = verdict(lambda n, k: (2e-6 * n + 4e-8 * n * n) * noise[(k + n) % len(noise)])
    assert not ok and "quadratic growth" in msg, msg


@pytest.mark.slow
def test_padding_that_hides_quadratic_work_is_named_on_a_fast_machine(verdict):
    # 50 ms of padding in every pass and 40 ms of quadratic work at n = 4096: the largest pass
    # takes 90 ms (a fast machine), shorter than the 0.1 s below which growth used not to be judged
    ok, msg, _ = verdict(lambda n, k: 0.05 + 0.04 * (n / 4096) ** 2)
    assert not ok and "hidden by a fixed cost" in msg, msg


@pytest.mark.slow
def test_a_fast_correct_pass_is_judged_and_passes(verdict):
    ok, msg, seen = verdict(lambda n, k: 0.008 * n / 1024)
    assert ok and "x4.0 while n grew x4" in msg, msg
    assert all(seen[n] == 2 for n in SIZES)         # nothing looked super-linear: no confirming rounds



def test_a_calls_own_fixed_cost_beside_a_short_linear_pass_passes(verdict):
    # the figures of a correct Winnow seen under load: about 5 ms of a call's own fixed cost (more
    # than 20 % of the 25 ms pass at n = 4096) and linear work -- no padding to name
    ok, msg, _ = verdict(lambda n, k: 0.005 + 0.0049 * n / 1024)
    assert ok, msg


def test_a_pass_whose_data_outgrow_a_cache_steps_up_once_and_passes(verdict):
    # figures a correct Winnow gave on a loaded 2-core machine, in every round: linear up to
    # n = 2048 (5.7 us per example), twice that per example from n = 4096 on -- x8.2 over the last
    # two doublings, x4.1 over the last; the pass over n = 8192 grows like n again
    ok, msg, seen = verdict(lambda n, k: (5.7e-6 if n <= 2048 else 11.8e-6) * n)
    assert ok, msg
    assert seen[8192] >= 1 and seen[4096] >= 4      # confirmed in rounds, then read with n = 8192


def test_quadratic_work_keeps_growing_at_the_next_doubling(verdict):
    # the same figures up to n = 4096, but the cost goes on growing like n^2: named, with n = 8192
    ok, msg, seen = verdict(lambda n, k: (5.7e-6 if n <= 2048 else 11.8e-6 * n / 4096) * n)
    assert not ok and "quadratic growth" in msg and "n = 8192" in msg, msg


def test_quadratic_work_over_two_doublings_needs_no_larger_pass(verdict):
    ok, msg, seen = verdict(lambda n, k: 1e-8 * n * n)
    assert not ok and "quadratic growth" in msg, msg
    assert seen[8192] == 0


def test_padding_is_not_read_again_with_a_larger_pass(verdict):
    # padding flattens the small sizes' growth; with twice the largest size its share would fall
    # below what names it: the larger pass is asked only after a doubling that grew like n
    ok, msg, seen = verdict(lambda n, k: 0.05 + 0.08 * (n / 4096) ** 2)
    assert not ok and "hidden by a fixed cost" in msg, msg
    assert seen[8192] == 0
