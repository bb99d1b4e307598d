"""What a correct answer is: the reference runs under a course's contract (exact and float-faithful),
what each assignment shape computes, the course's own solution as oracle, and the suite's own
solution written from the contract."""
