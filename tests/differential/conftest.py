"""The suite's helper modules import PyTorch at the top; they are imported by the tests (which
skip without torch) and by ``make fuzz``, never collected on their own (``make test``'s
``--doctest-modules`` would import them, and CI's ``make test`` runs without torch)."""

collect_ignore = [
    "diff_families.py",
    "diff_programs.py",
    "diff_run.py",
    "diff_session.py",
    "diff_table.py",
    "fuzz.py",
]
