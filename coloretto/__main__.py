"""``python -m coloretto`` runs the ``coloretto`` command."""

import sys

from coloretto.cli.main import main

sys.exit(main())
