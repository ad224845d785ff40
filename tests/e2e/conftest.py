"""The end-to-end fixtures (``standin``, ``run_client``) live in ``fixtures.py`` so that other
suites (tests/reliability) can use them too; so does the check that every file the bot
uploads carries alt text (``alttext_check.py``, autouse)."""

from tests.e2e.alttext_check import every_upload_has_alt_text  # noqa: F401
from tests.e2e.fixtures import ClientRunner, StandInTimeout, processes, run_client, standin, start_bot  # noqa: F401
