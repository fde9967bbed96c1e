"""The documentation site: its pages' examples run, it builds with ``mkdocs build --strict``
(no broken link, no missing reference, no docstring it cannot read), its command reference
is made from the parsers, no user-facing page names an issue number (development history
stays out of the docs), every in-page link has its anchor, and a real headless browser
(Chromium) renders the pages, with their pictures and without code that scrolls sideways.

The build needs the ``docs`` extra and the browser Debian's ``chromium`` (``.ci/run``
installs both).  Without them the tests skip, except in CI (``CI`` set), where they must
run.
"""

from __future__ import annotations

import argparse
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


#: An issue number ("issue 24", "issues 13 and 23", "(issue 22, point 6)", "#24" after "issue").
ISSUE = re.compile(r"\bissues?\s*#?\d", re.IGNORECASE)


def _published(page: Path) -> str:
    """A page of docs/ as the site shows it: the sections it copies from other files
    (``<!-- include: PATH # TITLE -->``, docs/hooks.py) copied in, HTML comments out."""
    text = page.read_text()

    def section(m: re.Match[str]) -> str:
        lines = (ROOT / m[1]).read_text().splitlines()
        start = next(k for k, line in enumerate(lines) if re.fullmatch(r"#+ " + re.escape(m[2]),
                                                                        line))
        depth = len(lines[start]) - len(lines[start].lstrip("#"))
        body = []
        for line in lines[start + 1:]:
            head = re.match(r"(#+) ", line)
            if head and len(head[1]) <= depth:
                break
            body.append(line)
        return "\n".join(body)

    text = re.sub(r"<!-- include: (\S+) # (.+?) -->", section, text)
    return re.sub(r"<!--.*?-->", "", text, flags=re.S)


def test_no_user_facing_page_names_an_issue_number() -> None:
    import json

    from dlx.cli.app import build_parser

    pages = {"README.md": (ROOT / "README.md").read_text()}
    pages |= {f"docs/{p.name}": _published(p) for p in sorted(DOCS.glob("*.md"))}
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text())["cells"]
        pages[f"notebooks/{notebook.name}"] = "\n".join("".join(c["source"]) for c in cells)
    parser = build_parser()                 # the CLI page is made from the parsers' help
    helps = [parser.format_help()]
    stack = [parser]
    while stack:
        for action in stack.pop()._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    helps.append(sub.format_help())
                    stack.append(sub)
    pages["docs/cli.md (the parsers)"] = "\n".join(helps)
    found = [f"{name}: ...{text[max(0, m.start() - 40):m.end() + 20]!r}..."
             for name, text in pages.items() for m in ISSUE.finditer(text)]
    assert not found, "\n".join(found)
    assert len(pages) > 12 and ISSUE.search("see issue 22, point 6")     # the test can fail


def test_the_api_page_lists_every_keyword_of_the_views() -> None:
    import dataclasses

    import dlx

    text = (DOCS / "api.md").read_text()
    table = text.split("## The keywords every view takes", 1)[1].split("\n## ", 1)[0]
    for field in dataclasses.fields(dlx.options.Options):      # dlx.options resolves
        assert f"| `{field.name}` |" in table, field.name
    assert "dlx.options" in table and "help(dlx.options)" in table
    assert "max_nodes" in (dlx.options.__doc__ or "")


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
def test_every_in_page_link_has_its_anchor_and_no_page_names_an_issue(site: Path) -> None:
    # (mkdocs checks the anchors of Markdown pages; a notebook's contents are made by
    # mkdocs-jupyter, which once linked "## With `dlx`" as #with)
    pages = sorted(site.rglob("index.html"))
    assert len(pages) >= 14
    for page in pages:
        html = page.read_text()
        ids = set(re.findall(r'id="([^"]+)"', html))
        missing = sorted({h for h in re.findall(r'href="#([^"]*)"', html) if h and h not in ids})
        assert not missing, f"{page.relative_to(site)}: {missing}"
        words = re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", "", html, flags=re.S))
        assert not ISSUE.search(words), f"{page.relative_to(site)}: {ISSUE.search(words)}"


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
#: was drawn (0 when it failed to load), and the page how many code blocks are wider
#: than their box (they would scroll sideways), for ``--dump-dom`` to show.
MEASURE = """<script>
window.addEventListener("load", () => {
  for (const img of document.querySelectorAll("img")) {
    img.setAttribute("data-drawn", img.complete ? img.naturalWidth + "x" + img.naturalHeight
                                                : "0x0");
  }
  const wide = [];
  for (const block of document.querySelectorAll("pre, pre > code")) {
    if (block.scrollWidth > block.clientWidth + 1) {
      wide.push(block.textContent.split("\\n")[0].slice(0, 60));
    }
  }
  document.body.setAttribute("data-wide-code", JSON.stringify(wide));
  document.body.setAttribute("data-measured", "yes");
});
</script>"""


def rendered(browser: str, page: Path) -> str:
    """The page's DOM after a real headless browser loaded it (pictures measured)."""
    probe = page.with_name("measured-" + page.name)        # beside it: relative links work
    probe.write_text(page.read_text().replace("</body>", MEASURE + "</body>"))
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                           "--window-size=1280,900", "--virtual-time-budget=10000",
                           "--dump-dom", probe.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("page, title, least", [
    ("index.html", "dlx: exact cover with Dancing Links", 3),
    ("getting-started/index.html", "Getting started", 2),
    ("encode/index.html", "A word square: colours", 1),
    ("api/index.html", "The keywords every view takes", 1),
    ("sudoku/index.html", "Sudoku", 1),
    ("performance/index.html", "Counting by caching", 0),
    ("cli/index.html", "The dlx command", 0),
    ("notebooks/01-algorithm-x-by-hand/index.html", "With the dlx package", 3),
    ("notebooks/02-dancing-links-step-through/index.html", "A slider", 7),
    ("parallel/index.html", "What is checked", 0),
    ("notebooks/05-zdd-pentomino-sample/index.html", "A diagram of every tiling", 6),
])
def test_a_browser_renders_the_pages_with_their_pictures(site: Path, page: str, title: str,
                                                         least: int) -> None:
    import html

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
    wide = re.search(r'data-wide-code="([^"]*)"', dom)
    assert wide is not None and html.unescape(wide[1]) == "[]", html.unescape(wide[1])[:2000]
    if page == "index.html":        # the figures the site makes from the library
        assert dom.count('src="img/') >= 3
    if "02-dancing" in page:        # the slider, still on the web: a picture of its steps
        assert max(w for w, _ in pictures) >= 1000, pictures
