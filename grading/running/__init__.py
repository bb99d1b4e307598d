"""How grading runs: the preflight, what a batch shares, the pool of grading processes, grading one
submission or a batch, and the spec check run before anyone is graded (``--check-spec``)."""
