"""``python -m mineshafted``: the command-line interface."""

from .cli import main

main()
