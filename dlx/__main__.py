"""``python -m dlx``: the same as the ``dlx`` command."""

import sys

from .cli import main

sys.exit(main())
