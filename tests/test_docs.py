"""The documentation site: its pages' examples run, it builds with ``mkdocs build --strict``
(no broken link, no missing reference, no docstring it cannot read), its command reference
is made from the parsers, and a real headless browser (Chromium) renders the home page, the
API page and a notebook page with their pictures.

The build needs the ``docs`` extra and the browser Debian's ``chromium`` (``.ci/run``
installs both).  Without them the tests skip, except in CI (``CI`` set), where they must
run.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
IN_CI = bool(os.environ.get("CI"))


def need(what: str, present: bool) -> None:
    """Skip without ``what``, except in CI, where its absence is a failure."""
    if not present:
        if IN_CI:
            pytest.fail(f"{what} is missing in CI (.ci/run installs it)")
        pytest.skip(f"{what} is not installed")


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md")))
def test_the_examples_of_every_page_run(page: str) -> None:
    result = doctest.testfile(str(DOCS / page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built strictly into a temporary directory (about a minute: it runs the
    notebooks for their pictures)."""
    try:
        import material  # noqa: F401
        import mkdocs  # noqa: F401
        import mkdocs_jupyter  # noqa: F401
        import mkdocstrings  # noqa: F401
    except ImportError:
        need("the docs extra (mkdocs, mkdocs-material, mkdocstrings, mkdocs-jupyter)", False)
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "MPLBACKEND": "Agg"}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(out)], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=900)
    took = time.perf_counter() - started
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    warnings = [line for line in done.stderr.splitlines() if re.match(r"WARNING\s+-", line)]
    assert not warnings, warnings
    print(f"mkdocs build --strict: {took:.1f} s")
    return out


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_site_builds_strictly_with_every_page(site: Path) -> None:
    for page in ("index.html", "getting-started/index.html", "encode/index.html",
                 "api/index.html", "problems/index.html", "cli/index.html",
                 "sudoku/index.html", "parallel/index.html", "performance/index.html",
                 "notebooks/05-zdd-pentomino-sample/index.html"):
        assert (site / page).is_file(), page
    api = (site / "api" / "index.html").read_text()
    for name in ("problem.ExactCover", "views.solutions", "errors.BudgetExceeded",
                 "formats.write_dlx", "zdd.ZDD", "viz.links_figure"):
        assert f'id="dlx.{name}"' in api, name
    assert ">>>" not in re.sub(r"<pre.*?</pre>", "", api, flags=re.S)   # examples are code
    performance = (site / "performance" / "index.html").read_text()
    assert "xcover" in performance and "exact-cover-py" in performance     # the peer table


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_command_reference_is_made_from_the_parsers(site: Path) -> None:
    import html

    from dlx.cli.app import build_parser, command_parser

    page = html.unescape((site / "cli" / "index.html").read_text())
    parser = build_parser()
    for argv in (["solve"], ["queens", "8"], ["sudoku", "generate"], ["rectangles"]):
        usage = command_parser(parser, parser.parse_args(argv)).format_usage()
        assert usage.split()[:3] == ["usage:", "dlx", argv[0]]
        assert f"dlx {' '.join(a for a in argv if not a.isdigit())}" in page
    assert "--tries N" in page and "--checkpoint FILE" in page


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


#: Added to a copy of a page: once everything has loaded, each picture says how big it
#: was drawn (0 when it failed to load), for ``--dump-dom`` to show.
MEASURE = """<script>
window.addEventListener("load", () => {
  for (const img of document.querySelectorAll("img")) {
    img.setAttribute("data-drawn", img.complete ? img.naturalWidth + "x" + img.naturalHeight
                                                : "0x0");
  }
  document.body.setAttribute("data-measured", "yes");
});
</script>"""


def rendered(browser: str, page: Path) -> str:
    """The page's DOM after a real headless browser loaded it (pictures measured)."""
    probe = page.with_name("measured-" + page.name)        # beside it: relative links work
    probe.write_text(page.read_text().replace("</body>", MEASURE + "</body>"))
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                           "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.slow
@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("page, title, least", [
    ("index.html", "dlx: exact cover with Dancing Links", 3),
    ("api/index.html", "Python API", 1),
    ("parallel/index.html", "What is checked", 0),
    ("notebooks/05-zdd-pentomino-sample/index.html", "A diagram of every tiling", 6),
])
def test_a_browser_renders_the_pages_with_their_pictures(site: Path, page: str, title: str,
                                                         least: int) -> None:
    browser = chromium()
    need("Chromium (apt-get install chromium)", browser is not None)
    assert browser is not None
    dom = rendered(browser, site / page)
    assert 'data-measured="yes"' in dom, dom[-2000:]
    assert title in dom
    sizes = re.findall(r'data-drawn="(\d+)x(\d+)"', dom)
    pictures = [(int(w), int(h)) for w, h in sizes if int(w) > 100]   # not icons
    broken = [size for size in sizes if size == ("0", "0")]
    assert len(pictures) >= least and not broken, sizes
    if page == "index.html":        # the figures the site makes from the library
        assert dom.count('src="img/') >= 3
