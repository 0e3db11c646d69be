"""The default waits of the runner, shared by ``croupier certify`` and the pytest plugin.

Kept apart so that the plugin's options can show them without importing the runner (a pytest
run that does not use the plugin pays only for this module).
"""

from __future__ import annotations

#: The default deadline of every call the runner makes, in seconds.
DEFAULT_TIMEOUT = 10.0

#: How long a launched engine is given to print its ready line, in seconds (default).
READY_TIMEOUT = 30.0

#: The shortest call deadline an engine is given, in seconds.
MIN_TIMEOUT = 0.01
