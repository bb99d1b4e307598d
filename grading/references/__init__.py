"""What a correct answer is: the reference runs under a course's contract (exact and float-faithful),
what each assignment shape computes, the request a call plan makes for one input, the reference
answers of theory questions, and the suite's own solution written from the contract."""
