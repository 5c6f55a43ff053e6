"""``python -m sidebyside.convert``: see :mod:`sidebyside.convert.cli`."""
import sys

from .cli import main

sys.exit(main())
