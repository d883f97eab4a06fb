"""Write the value tables that pasch ships (``src/pasch/solver/tables``), built with the solver's kernels.

Run ``python tools/ship_tables.py [RULES ...]`` (default: every catalogue base rule set) after a change that
changes the tables (and bumps ``SOLVER_VERSION``); ``tests/solver/test_solver_shipped.py`` checks, in the
slow step, that the shipped bytes equal a fresh build.
"""

from __future__ import annotations

import sys

from pasch.rules import get
from pasch.solver import SOLVER_VERSION, build_values
from pasch.solver._shipped import SHIPPED, write

if __name__ == "__main__":
    names = tuple(sys.argv[1:]) or SHIPPED
    built = {get(name).id: build_values(get(name)) for name in names}
    for rid, entry in write(built, SOLVER_VERSION)["tables"].items():
        print(f"{rid}: {entry['file']} sha256 {entry['sha256'][:16]} expected {entry['expected']}")
