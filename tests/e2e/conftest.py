"""The end-to-end fixtures (``standin``, ``run_client``) live in ``fixtures.py`` so that other
suites (tests/reliability) can use them too."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fixtures import ClientRunner, StandInTimeout, run_client, standin  # noqa: E402,F401
