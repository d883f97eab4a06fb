"""The kernels' own contract: every parameter documented, and the kernels found at all."""

from __future__ import annotations

import inspect
import re

from pasch.solver import KERNEL_MODULES, kernels


def test_every_kernel_parameter_is_documented() -> None:
    found = kernels()
    modules = {getattr(k, "py_func", k).__module__.rpartition(".")[2] for k in found}
    assert modules == set(KERNEL_MODULES)
    assert len(found) >= 15
    missing: list[str] = []
    for kernel in found:
        fn = getattr(kernel, "py_func", kernel)
        doc = inspect.getdoc(fn) or ""
        _, sep, args = doc.partition("Args:")
        for name in inspect.signature(fn).parameters:
            if not sep or not re.search(rf"^\s+{re.escape(name)}( \(.*\))?:", args, re.MULTILINE):
                missing.append(f"{fn.__module__}.{fn.__name__}({name})")
    assert not missing, f"parameters without a line in their kernel's Args section: {missing}"
