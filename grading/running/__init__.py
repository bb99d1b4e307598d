"""How a submission is run: reading it, the preflight, the course's adapter and call plan, the
batch shared work, the pool of grading processes, and grading one submission or a batch."""
