"""`python -m mistakebound`: the same command line as the `mistakebound` script."""
from .cli import main

main()
