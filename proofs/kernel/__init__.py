"""The proof kernel: the only code that makes a fact, the trusted rules with their schemas, and the
start-up check of those rules."""
