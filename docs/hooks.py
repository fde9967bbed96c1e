"""MkDocs hooks: the pages and pictures of the site that are made from the code, at build
time, so that they cannot drift from it.

- ``cli.md``: the reference of the ``dlx`` command, from its argparse parsers (every
  command's and sub-command's ``--help``);
- ``img/*.png``: pictures drawn by :mod:`dlx.viz` and the puzzles' ``figure`` functions;
- doctest examples (``>>>`` lines and their output) in docstrings become Python
  console code blocks, and Sphinx roles (``:func:`count```) plain code, so that the
  API pages read as the docstrings do (a Markdown preprocessor, added before
  mkdocstrings reads the Markdown extensions);
- ``<!-- include: PATH # TITLE -->`` in a page: the section of the file PATH (from the
  repository's root: ``bench/README.md``, ``README.md``) under the heading TITLE,
  copied in at build time (the benchmark tables, the README's sections).
"""

from __future__ import annotations

import argparse
import io
import os
import re
from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------------- the CLI page


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices.items())
    return []


def cli_page() -> str:
    """The reference of the ``dlx`` command: each parser's help, as ``--help`` prints it."""
    from dlx.cli.app import build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "96"            # argparse wraps to the terminal's width
    try:
        parser = build_parser()
        out = ["# The dlx command", "",
               "Made from the command's own parsers when the site is built: each section is"
               " what `--help` prints. The exit codes and the batch rule are at the end of"
               " the first section, `dlx --help`.", "", "```text", parser.format_help().rstrip(), "```", ""]
        for name, sub in _subcommands(parser):
            out += [f"## dlx {name}", "", "```text", sub.format_help().rstrip(), "```", ""]
            for verb, inner in _subcommands(sub):
                out += [f"### dlx {name} {verb}", "", "```text", inner.format_help().rstrip(),
                        "```", ""]
        return "\n".join(out)
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


# ------------------------------------------------------------------------- pictures


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def pictures() -> dict[str, bytes]:
    """The site's pictures, drawn by the library: name -> PNG."""
    import dlx
    from dlx import viz
    from problems import polyominoes, queens, sudoku

    toy = dlx.read_dlx(dlx.formats.KNUTH_TOY)
    toy = dlx.ExactCover({"".join(items): items for items in toy.options.values()},
                         primary=toy.primary)
    steps = viz.record(toy)
    tiling = dlx.zdd(polyominoes.encode(rows=6, cols=10, reduce=True)).sample(1, seed=24)[0]
    puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    return {
        "toy-links.png": _png(viz.links_figure(toy, title="Knuth's toy problem: 6 options"
                                                          " over 7 items")),
        "toy-step.png": _png(steps.figure(steps.find("L1 cover c"))),
        "toy-tree.png": _png(viz.search_tree_figure(toy)),
        "pentominoes.png": _png(polyominoes.figure(polyominoes.decode(tiling),
                                                   title="a 6 x 10 pentomino tiling")),
        "queens.png": _png(queens.figure(8, dlx.first(queens.encode(8)),
                                         title="eight queens, none attacking another")),
        "sudoku.png": _png(sudoku.figure(sudoku.solve(puzzle), puzzle,
                                         title="a puzzle and its solution (givens in black)")),
    }


# ------------------------------------------------------------------------- bench tables


def section(path: str, title: str) -> str:
    """The section of the file ``path`` under the heading ``title``, to the next heading
    of the same or a higher level; its headings moved under the page's own (##)."""
    lines = (ROOT / path).read_text().splitlines()
    for k, line in enumerate(lines):
        found = re.fullmatch(r"(#+) (.*)", line)
        if found and found[2].strip() == title:
            depth = len(found[1])
            body = []
            for rest in lines[k + 1:]:
                head = re.match(r"(#+) ", rest)
                if head and len(head[1]) <= depth:
                    break
                if head:
                    rest = "#" * (len(head[1]) - depth + 2) + rest[len(head[1]):]
                body.append(rest)
            return "\n".join(body).strip()
    raise ValueError(f"{path} has no heading {title!r}")


# ------------------------------------------------------------------------- docstrings

_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const):`~?([^`]+)`")


class _Doctests(Preprocessor):
    """``>>>`` examples outside code fences become ``pycon`` fences; Sphinx roles, code."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        fence = ""
        i = 0
        while i < len(lines):
            line = lines[i]
            text = line.lstrip()
            if fence or text.startswith(("```", "~~~")):
                if fence and text.startswith(fence):
                    fence = ""
                elif not fence:
                    fence = text[:3]
                out.append(line)
                i += 1
                continue
            if text.startswith(">>>"):
                indent = line[:len(line) - len(text)]
                out += ["", indent + "```pycon"]
                while i < len(lines) and lines[i].strip():
                    out.append(indent + lines[i][len(indent):])
                    i += 1
                out += [indent + "```", ""]
                continue
            out.append(_ROLE.sub(r"`\1`", line))
            i += 1
        return out


class _DoctestExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:    # noqa: N802 - Markdown's name
        md.preprocessors.register(_Doctests(md), "dlx_doctests", 40)   # before the fences


# ------------------------------------------------------------------------- the hooks


@event_priority(100)        # before mkdocstrings, which copies the Markdown extensions
def on_config(config: Any) -> Any:
    config.markdown_extensions.append(_DoctestExtension())
    return config



def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, "cli.md", content=cli_page()))
    for name, png in pictures().items():
        files.append(File.generated(config, f"img/{name}", content=png))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    return re.sub(r"<!-- include: (\S+) # (.+?) -->", lambda m: section(m[1], m[2]), markdown)
