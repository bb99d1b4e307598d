"""mistakebound command line: thin wiring of learners, proofs, adversary and grading."""
__version__ = "0.1.0"
