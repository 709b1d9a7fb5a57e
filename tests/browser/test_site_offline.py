"""The student site of ``make html`` where widgets cannot run, and its index, in Chromium.

* With JavaScript off, each stepper output of notebook 00 shows its still picture: an ``<img>``
  holding a PNG, visible, with a non-zero size (and no widget in its place).
* With JavaScript on, the same picture is hidden once the widget has rendered.
* The site's ``index.html``, offline, renders its Markdown: the math typeset by the site's
  MathJax, the code spans as ``<code>``; no dollar sign or backtick is left in the text.

Screenshots are written to the test's tmp folder (printed with ``-s``).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

NOTEBOOK_PAGE = "00_course_map.html"  # steppers, each stored with its still PNG


@pytest.fixture
def page_without_js(browser):
    context = browser.new_context(
        viewport={"width": 1400, "height": 1000}, java_script_enabled=False
    )
    context.set_default_timeout(30_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def test_with_javascript_off_each_stepper_shows_its_still_picture(
    student_site, page_without_js, tmp_path
):
    page = page_without_js
    page.goto((student_site / NOTEBOOK_PAGE).as_uri(), wait_until="load")
    stills = page.locator(".mg-widget-or-still .mg-still img")
    assert stills.count() == page.locator(".mg-widget-or-still").count() >= 1
    for k in range(stills.count()):
        img = stills.nth(k)
        assert img.get_attribute("src").startswith("data:image/png;base64,iVBORw0KGgo")
        img.scroll_into_view_if_needed()
        assert img.is_visible()
        box = img.bounding_box()
        assert box["width"] > 200 and box["height"] > 200, box  # decoded: a real picture
    assert page.locator(".widget-subarea").count() == 0  # no widget rendered in its place
    shot = tmp_path / "no-javascript.png"
    stills.first.scroll_into_view_if_needed()
    page.screenshot(path=str(shot))
    print(f"screenshot: {shot}")


def test_with_javascript_on_the_widget_replaces_the_picture(student_site, page, offline):
    page.goto((student_site / NOTEBOOK_PAGE).as_uri(), wait_until="load")
    n = page.locator(".mg-widget-or-still").count()
    assert n >= 1
    widgets = page.locator(".mg-widget-or-still .widget-subarea .mg-stepper-view")
    widgets.nth(n - 1).wait_for(state="attached", timeout=30_000)
    stills = page.locator(".mg-widget-or-still .mg-still img")
    assert stills.count() == n
    assert not any(stills.nth(k).is_visible() for k in range(n))
    assert offline.outside == []


def test_index_renders_its_markdown_offline(student_site, page, offline, tmp_path):
    page.goto((student_site / "index.html").as_uri(), wait_until="load")
    page.wait_for_selector("li mjx-container", state="attached", timeout=30_000)
    text = page.locator("ul").inner_text()
    assert "$" not in text and "`" not in text
    assert page.locator("li small code").count() >= 3  # e.g. `grad_fn` in notebook 04's line
    assert page.locator("li a").count() == 13
    shot = tmp_path / "index.png"
    page.screenshot(path=str(shot), full_page=True)
    print(f"screenshot: {shot}")
    assert offline.outside == [] and offline.failed == []
