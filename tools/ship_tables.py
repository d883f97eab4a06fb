"""``python tools/ship_tables.py [RULES ...]``: build and write the tables pasch ships (src/pasch/solver/tables).

Run it after a change of the tables (bump ``SOLVER_VERSION`` too); a slow test checks the shipped bytes.
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
