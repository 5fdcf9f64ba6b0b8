"""The `${VAR}` references HoloDeck substitutes in the raw text of a file before parsing it
(`holodeck/config/env_loader.py:substitute_env_vars`): every match of this pattern, quoted
or not, comments included. An unset one stops HoloDeck (and `run`: HL605)."""

from __future__ import annotations

import re

ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
