"""What a grading run writes: Gradescope ``results.json``, the feedback page, the batch summary, and the
Gradescope autograder archive."""
