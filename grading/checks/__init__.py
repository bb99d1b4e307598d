"""What a submission faces: the differential and property tests, the proof's invariants on the
student's run, the confirmed diagnoses, shrinking, and the theory questions."""
