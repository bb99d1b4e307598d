"""What a submission faces: the grader and its parts (the course's solution as oracle, the
differential and property tests, the confirmed diagnoses), the proof's invariants on the student's
run, shrinking, and the theory questions."""
