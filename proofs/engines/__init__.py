"""The engines and how they run: z3 and cvc5 on one SMT-LIB text, sympy for identities, the work on
one step, the worker processes, the proof cache, and the run of the catalogue."""
