"""``python -m copa_dash``: the dashboard (``serve``); with arguments, the ``copa-dash`` command."""

import sys

from .cli import main

if len(sys.argv) == 1:
    sys.argv.append("serve")
sys.exit(main())
