"""tools/course.py, the command line of ``make html`` (``make handouts``: tests/test_assignments.py).

It writes where it is told and says what it wrote; ``html`` without the npm packages the sites
carry fails with a message that says how to get them. (The sites themselves:
tests/test_course_html.py.)
"""

from __future__ import annotations

import pytest

from tools.course import COURSE, main, notebooks


def test_the_course_has_thirteen_names():
    assert len(COURSE) == 13 and [p.name for p in notebooks()] == list(COURSE)


def test_the_command_line_refuses_an_unknown_target(capsys):
    for target in ("slides", "handouts"):  # handouts: tools/assignments.py
        with pytest.raises(SystemExit):
            main([target])
        assert f"invalid choice: '{target}'" in capsys.readouterr().err


def test_the_command_line_says_how_to_get_the_site_assets(tmp_path, capsys):
    first = notebooks()[0]
    missing = tmp_path / "no-deps"
    assert main(["html", "--out", str(tmp_path / "site"), "--deps", str(missing), str(first)]) == 1
    err = capsys.readouterr().err
    assert f"{missing}/requirejs/require.js not found" in err
    assert "`make html-deps`" in err and "--deps DIR" in err
