"""``python -m copa_dash.cli`` runs the command line."""

import sys

from . import main

sys.exit(main())
