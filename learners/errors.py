"""The one error type for bad input, shared by every part of the suite.

``InputError`` is a ``ValueError`` so that callers who catch ``ValueError`` keep working
(the scikit-learn convention).  Its message is one line naming what is wrong; the command
line prints it as is and exits with code 2.
"""


class InputError(ValueError):
    """Bad input: the message is one line that names the problem."""
