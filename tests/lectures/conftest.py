"""The lecture scripts are run by test_lectures_oracle.py under each library, never imported
(they start with ``import LIB as torch``): every module here but the tests and this one."""

from pathlib import Path

collect_ignore = [
    p.name
    for p in Path(__file__).parent.glob("*.py")
    if not p.name.startswith(("test_", "conftest"))
]
