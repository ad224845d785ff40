"""Sphinx configuration of metrobot's documentation site (`make docs`; built with -W -n, so a
warning or a broken reference fails the build, and with it `make test`)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrobot import __version__  # noqa: E402  (the version the site describes is the code's own)

project = "metrobot"
author = "the metrobot contributors"
copyright = "2026, the metrobot contributors"
version = release = __version__

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
language = "en"

# The illustrated rules' pages (docs/rules/GAME/NN-KEY.md, written by `make rules-pages`) are
# included into each game's page rather than built on their own.
exclude_patterns = ["_build", "rules/*/*.md", "**/.*"]

# Links to a heading of another page (`page.md#a-heading`) are checked like links to pages.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline"]
# Markdown links that point outside the site (the repository's own files) are written as code,
# never as links, so that every link the build sees is one it can check.
myst_links_external_new_tab = False

# Code blocks without a language are shown as they are (no guessing, no lexing warnings).
highlight_language = "none"

html_theme = "furo"
html_title = f"metrobot {__version__}"
html_static_path: list[str] = []
html_show_sourcelink = False
html_theme_options = {"navigation_with_keys": True}
# The site is built offline and strictly: no intersphinx, no remote images.
nitpicky = True
