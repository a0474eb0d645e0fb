"""``python -m rainbowdp.cli``: the ``rainbowdp`` command."""

import sys

from . import main

sys.exit(main())
