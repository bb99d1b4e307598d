"""What the grader is given: the assignment spec and its keys (declared once), the course's contract
and its parser, the course's adapter, which tests a spec offers, the shipped assignments, and a
submission read from disk or an archive."""
