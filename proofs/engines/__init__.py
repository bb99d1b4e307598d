"""The engines: z3 and cvc5 on one SMT-LIB text, sympy for identities, the worker processes that run
them, and the proof cache of their answers."""
