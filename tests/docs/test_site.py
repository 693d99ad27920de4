"""The documentation site (issue 16), built as ``make docs`` builds it and opened in a browser.

- ``mkdocs build --strict`` succeeds with no warning at all;
- headless Chromium (Debian's, driven by its chromedriver) opens the built site's index, a
  tutorial and the bench page; their screenshots are kept as artifacts in
  ``build/test-artifacts/docs/``; the bench page's charts are loaded images, and the navigation
  links every tutorial the mkdocs.yml nav lists;
- every public name of the runtime (tests/docs/test_docstrings.py says which) has its entry,
  with its docstring, in the built API reference;
- issue 31: at 1280×800 no code block of a tutorial page scrolls sideways, every built page has
  one H1 (and no ``<h7>``, which is no HTML heading), and the typed clients' reference shows the
  keyword arguments of their verbs (``label_selector``), not ``**options``.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "build" / "test-artifacts" / "docs"
CHARTS = ("sync_time.png", "memory_per_object.png")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    assert done.returncode == 0, done.stdout[-8000:]
    warnings = [line for line in done.stdout.splitlines() if "WARNING" in line]
    assert not warnings, "\n".join(warnings)
    return out


def _tutorials() -> list[tuple[str, str]]:
    """(title, page) of every tutorial in mkdocs.yml's nav."""
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    section = next(item["Tutorials"] for item in nav if isinstance(item, dict) and "Tutorials" in item)
    return [next(iter(entry.items())) for entry in section if isinstance(entry, dict)]


def test_the_nav_has_every_tutorial_page() -> None:
    pages = sorted(p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs" / "tutorials").glob("[0-9]*.md"))
    assert sorted(page for _, page in _tutorials()) == pages and len(pages) >= 14


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1600",
                 "--allow-file-access-from-files"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _open(browser: object, page: Path, shot: str) -> None:
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(browser, WebDriver)
    browser.get(page.as_uri())
    browser.execute_script("return document.readyState")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / shot))
    assert (ARTIFACTS / shot).stat().st_size > 10_000  # a rendered page, not a blank one


def test_a_browser_opens_the_index_a_tutorial_and_the_bench_page(site: Path, browser: object) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(browser, WebDriver)
    _open(browser, site / "index.html", "index.png")
    assert browser.title.startswith("kgen")
    links = {a.get_attribute("href") or "" for a in browser.find_elements(By.CSS_SELECTOR, "nav.md-nav a.md-nav__link")}
    for title, page in _tutorials():
        html_page = (site / page).with_suffix(".html").as_uri()
        assert html_page in links, f"the navigation has no link to {title} ({page})"

    first_title, first_page = _tutorials()[1]
    _open(browser, (site / first_page).with_suffix(".html"), "tutorial.png")
    assert browser.find_element(By.CSS_SELECTOR, "article h1").text
    assert browser.find_elements(By.CSS_SELECTOR, "article pre code"), f"{first_title} shows no code"

    _open(browser, site / "bench" / "index.html", "bench.png")
    for chart in CHARTS:
        images = [img for img in browser.find_elements(By.CSS_SELECTOR, "article img")
                  if (img.get_attribute("src") or "").endswith(chart)]
        assert images, f"the bench page has no {chart}"
        width = browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", images[0])
        assert isinstance(width, int) and width > 200, f"{chart} did not load ({width!r})"


def test_every_public_runtime_name_shows_in_the_api_reference(site: Path) -> None:
    from tests.docs.test_docstrings import public_names

    pages = {p.stem: p.read_text(encoding="utf-8") for p in (site / "reference" / "runtime").glob("*.html")}
    pages["kgen.runtime"] = (site / "reference" / "index.html").read_text(encoding="utf-8")
    anchors = {stem: set(re.findall(r'id="(kgen\.runtime(?:\.[\w.]+)?)"', text)) for stem, text in pages.items()}
    names = public_names()
    assert len(names) > 1000
    missing = []
    for name, doc in names:
        package = name.split(".")[2] if name.count(".") >= 2 else "kgen.runtime"
        if name not in anchors.get(package, set()):
            missing.append(f"{name}: no entry")
            continue
        first = doc.strip().splitlines()[0]
        words = [w for w in re.findall(r"[A-Za-z]{4,}", first)][:3]
        text = html.unescape(re.sub(r"<[^>]+>", "", pages[package]))
        if words and not all(w in text for w in words):
            missing.append(f"{name}: docstring not shown ({first[:60]!r})")
    assert not missing, f"{len(missing)} public names missing from the API reference:\n" + "\n".join(missing[:50])


#: Issue 31's window: a laptop's, where the theme's narrow column clipped the tutorials' code.
WINDOW = (1280, 800)

#: Every code block of the page, hidden ones included (the other tabs of a tab set, closed
#: ``???`` details: their blocks have no width until shown): the viewport's width (its scroll bar
#: included, as a window's), then (scroll width, client width, longest line) of each ``pre > code``.
_MEASURE_CODE = """
document.querySelectorAll('details').forEach(d => { d.open = true; });
const style = document.createElement('style');
style.textContent = '.tabbed-set > .tabbed-content > .tabbed-block { display: block !important; }';
document.head.appendChild(style);
return [window.innerWidth].concat(
  Array.from(document.querySelectorAll('article pre > code')).map(code => [
    code.scrollWidth, code.clientWidth,
    code.textContent.split('\\n').reduce((a, b) => (b.length > a.length ? b : a), ''),
  ]));
"""


def test_no_tutorial_code_block_scrolls_sideways_at_1280_px(site: Path, browser: object) -> None:
    """Every ``pre > code`` of every tutorial page fits its column (scrollWidth ≤ clientWidth,
    1 px of rounding allowed) in a 1280×800 viewport."""
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(browser, WebDriver)
    width, height = WINDOW
    pages = [site / "tutorials" / "index.html"] + [(site / page).with_suffix(".html") for _, page in _tutorials()]
    clipped: list[str] = []
    measured = 0
    # The viewport itself, not the window (whose size includes the browser's own frame).
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    try:
        for page in pages:
            browser.get(page.as_uri())
            viewport, *blocks = browser.execute_script(_MEASURE_CODE)
            assert viewport == width, f"{page.name}: the page is {viewport} px wide, not {width}"
            for scroll_width, client_width, longest in blocks:
                measured += 1
                assert client_width > 0, f"{page.name}: a code block is not shown ({longest!r})"
                if scroll_width > client_width + 1:
                    clipped.append(f"{page.name}: {scroll_width} > {client_width} px: {longest!r}")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTIFACTS / "tutorial-1280.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert measured >= 200, f"only {measured} code blocks measured: the selector missed them"
    assert not clipped, f"{len(clipped)} code blocks scroll sideways at {width} px:\n" + "\n".join(clipped)


class _Headings(HTMLParser):
    """Counts a page's <h1> tags and any <h7> and deeper (which are no HTML heading)."""

    def __init__(self) -> None:
        super().__init__()
        self.h1 = 0
        self.deeper: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "h1":
            self.h1 += 1
        elif re.fullmatch(r"h([7-9]|\d\d+)", tag):
            self.deeper.append(dict(attrs).get("id") or tag)


def test_every_built_page_has_exactly_one_h1(site: Path) -> None:
    """All the built HTML pages, the API reference and the bench page (which includes a report
    with a title of its own) among them."""
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 35 and site / "bench" / "index.html" in pages and site / "reference" / "typed.html" in pages
    wrong = []
    for page in pages:
        headings = _Headings()
        headings.feed(page.read_text(encoding="utf-8"))
        if headings.h1 != 1:
            wrong.append(f"{page.relative_to(site)}: {headings.h1} <h1>")
        if headings.deeper:
            wrong.append(f"{page.relative_to(site)}: {len(headings.deeper)} headings below <h6>: {headings.deeper[:3]}")
    assert not wrong, "\n".join(wrong)


#: (page, the verb's anchor): the stock package's typed clients page, and the generated package's.
TYPED_VERBS = (
    ("reference/typed.html", "kgen.kubernetes.typed.apps.v1.DeploymentsClient.list"),
    ("reference/typed.html", "kgen.kubernetes.typed.apps.v1.AsyncDeploymentsClient.watch"),
    ("reference/generated.html", "client.typed.batch_tutorial_kgen_dev.v1.CronJobsClient.list"),
)


def test_the_typed_clients_reference_shows_the_verbs_keyword_arguments(site: Path, browser: object) -> None:
    """A typed verb's signature, as the browser shows it, names its keyword arguments with their
    types (what mypy checks a call against), not ``**options``."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(browser, WebDriver)
    for page, anchor in TYPED_VERBS:
        browser.get((site / page).as_uri() + "#" + anchor)
        heading = browser.find_element(By.ID, anchor)
        # mkdocstrings' separate_signature: the signature is the code block after the heading.
        signature = heading.find_element(By.XPATH, "following-sibling::div[contains(@class, 'doc-signature')][1]")
        assert signature.is_displayed(), f"{page}#{anchor}: the signature is not shown"
        text = " ".join(signature.text.split())
        assert "label_selector: Selector = None" in text, f"{page}#{anchor}: {text!r}"
        assert "field_selector: Fields = None" in text and "**options" not in text, f"{page}#{anchor}: {text!r}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / "typed-clients.png"))
