"""`python -m gm`: the same command line as the `gm` script."""
from gm.cli import main

main(prog_name="gm")
