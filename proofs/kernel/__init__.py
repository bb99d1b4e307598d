"""The proof kernel: the only code that makes a fact, the trusted rules with their schemas, the
start-up check of those rules, and the certificate that hands a proof to the independent checker."""
