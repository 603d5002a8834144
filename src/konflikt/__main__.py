"""``python -m konflikt`` runs the command line."""

from konflikt.cli.main import main

main()
