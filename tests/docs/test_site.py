"""The documentation site (issue 16), built as ``make docs`` builds it and opened in a browser.

- ``mkdocs build --strict`` succeeds with no warning at all;
- headless Chromium (Debian's, driven by its chromedriver) opens the built site's index, a
  tutorial and the bench page; their screenshots are kept as artifacts in
  ``build/test-artifacts/docs/``; the bench page's charts are loaded images, and the navigation
  links every tutorial the mkdocs.yml nav lists;
- every public name of the runtime (tests/docs/test_docstrings.py says which) has its entry,
  with its docstring, in the built API reference.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
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
