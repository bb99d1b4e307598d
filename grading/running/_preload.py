"""Imported by the fork server of a grading pool (``grading.running.batch``): the grader's modules and the
reference learners' compiled loops are loaded once there, and every grading process forked from it
starts warm instead of loading them again.  Nothing here may fail the fork server."""
try:
    from learners import run_perceptron

    from grading.checks import checks
    from grading.running import grader
    from grading.references import problems  # noqa: F401

    run_perceptron([[1, 2], [-1, 1]], [1, -1], epochs=1, exact=True)       # the int64 exact loops
    run_perceptron([[1.0, 2.0], [-1.0, 1.0]], [1, -1], epochs=1, exact=False)
except Exception:  # noqa: BLE001 - a cold start is slower, not wrong
    pass
