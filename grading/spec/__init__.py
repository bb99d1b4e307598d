"""What a course declares: the assignment spec and its keys (declared once), the course's contract and
its parser, the shipped assignments, and the spec check run before anyone is graded."""
