"""`python -m mistakebound`: the same command line as the `mistakebound` script."""
from mistakebound.cli import main

main()
