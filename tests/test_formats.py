"""Tests of dlx.formats: Knuth's DLX text format, read and written."""

from __future__ import annotations

import io
import string
import subprocess
import sys
import warnings
from contextlib import contextmanager
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx
from dlx import formats
from dlx.errors import ExactCoverError, FormatError
from dlx.formats import (
    MAX_LINE_LENGTH,
    NAMES_HEADER,
    DLXFormatWarning,
    read_dlx,
    read_dlx_lines,
    write_dlx,
)
from dlx.problem import Colored, ExactCover

TOY = """\
| Knuth's toy problem, TAOCP 7.2.2.1
a b c d e f g
c e
a d g
b c f
a d f
b g
d e g
"""

COLOURED = """\
a b | x y
a x:A
b x:A y
"""


# ---------------------------------------------------------------- reading


def test_toy_problem():
    p = read_dlx(TOY)
    assert p.primary == tuple("abcdefg")
    assert p.secondary == ()
    assert list(p.options) == [0, 1, 2, 3, 4, 5]
    assert list(p.options.values()) == [
        ("c", "e"),
        ("a", "d", "g"),
        ("b", "c", "f"),
        ("a", "d", "f"),
        ("b", "g"),
        ("d", "e", "g"),
    ]


def test_toy_problem_line_numbers():
    p, lines = read_dlx_lines(TOY)
    assert lines == (3, 4, 5, 6, 7, 8)
    assert len(lines) == len(p)


def test_secondary_and_colours():
    p = read_dlx(COLOURED)
    assert p.primary == ("a", "b")
    assert p.secondary == ("x", "y")
    assert p.colored
    assert p.options == {
        0: ("a", Colored("x", "A")),
        1: ("b", Colored("x", "A"), "y"),
    }


def test_comments_blank_lines_and_whitespace():
    text = (
        "| a comment before the item line\n"
        "\n"
        "   | an indented comment\n"
        "\ta  b\t|  x \n"
        "|comment between options: a b x\n"
        "   \n"
        "  a   x:red  \n"
        "b\r\n"
        "a x:red  "  # last line without a line break
    )
    p, lines = read_dlx_lines(text)
    assert p.primary == ("a", "b")
    assert p.secondary == ("x",)
    assert p.options == {0: ("a", Colored("x", "red")), 1: ("b",), 2: ("a", Colored("x", "red"))}
    assert lines == (7, 8, 9)


def test_unused_items_are_kept_and_options_may_repeat():
    p = read_dlx("a b c | x y\na\na\n")
    assert p.primary == ("a", "b", "c")
    assert p.secondary == ("x", "y")
    assert p.options == {0: ("a",), 1: ("a",)}


def test_item_line_only():
    p = read_dlx("a b | x")
    assert p.primary == ("a", "b")
    assert p.secondary == ("x",)
    assert len(p) == 0


def test_bar_at_end_and_glued_bar_in_item_line():
    # As in Knuth's DLX1: a trailing '|' gives no secondary items, and '|x' is '|' then x.
    assert read_dlx("a b |\na\n").secondary == ()
    p = read_dlx("a b |x y\nb x\n")
    assert p.primary == ("a", "b")
    assert p.secondary == ("x", "y")


def test_liberal_names():
    p = read_dlx("cell(0,0) très_long_item_name_here ★ | r0c0#1\ncell(0,0) ★ r0c0#1:über\n")
    assert p.primary == ("cell(0,0)", "très_long_item_name_here", "★")
    assert p.options[0] == ("cell(0,0)", "★", Colored("r0c0#1", "über"))


def test_byte_order_mark_is_ignored():
    p = read_dlx("\ufeffa b\na\n")
    assert p.primary == ("a", "b")


def test_file_object_reads_like_a_string():
    for text in (TOY, COLOURED):
        from_str = read_dlx_lines(text)
        from_file = read_dlx_lines(io.StringIO(text))
        assert from_str[0].options == from_file[0].options
        assert from_str[0].primary == from_file[0].primary
        assert from_str[0].secondary == from_file[0].secondary
        assert from_str[1] == from_file[1]


def test_real_file(tmp_path):
    path = tmp_path / "toy.dlx"
    path.write_text(TOY.replace("\n", "\r\n"), encoding="utf-8")
    with open(path, encoding="utf-8") as f:
        p, lines = read_dlx_lines(f)
    assert p.options == read_dlx(TOY).options
    assert lines == (3, 4, 5, 6, 7, 8)


def test_errors_in_a_file_report_the_right_line(tmp_path):
    path = tmp_path / "bad.dlx"
    path.write_text("a b\na\nb c\n", encoding="utf-8")
    with open(path, encoding="utf-8") as f, pytest.raises(FormatError) as info:
        read_dlx(f)
    assert (info.value.line, info.value.column) == (3, 3)


def test_undecodable_file_is_a_format_error(tmp_path):
    path = tmp_path / "latin1.dlx"
    path.write_bytes(b"a b\n\xe9t\xe9\n")
    with open(path, encoding="utf-8") as f, pytest.raises(FormatError, match="not valid utf-8"):
        read_dlx(f)


def test_binary_file_and_wrong_types_are_type_errors(tmp_path):
    path = tmp_path / "toy.dlx"
    path.write_text(TOY, encoding="utf-8")
    with open(path, "rb") as f, pytest.raises(TypeError, match="text mode"):
        read_dlx(f)
    with pytest.raises(TypeError, match="open"):
        read_dlx(TOY.encode())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="open"):
        read_dlx(path)  # type: ignore[arg-type]


def test_option_without_primary_item_is_skipped_with_a_warning():
    text = "a b | x y\na x\nx y\ny:1\nb\n"
    with pytest.warns(DLXFormatWarning, match="option ignored") as record:
        p, lines = read_dlx_lines(text)
    assert [str(w.message) for w in record] == [
        "line 3: option ignored (no primary items)",
        "line 4: option ignored (no primary items)",
    ]
    assert record[0].filename == __file__  # the warning points at the caller
    assert p.options == {0: ("a", "x"), 1: ("b",)}
    assert lines == (2, 5)


def test_skipped_option_is_still_checked():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FormatError) as info:
            read_dlx("a | x\nx z\n")
    assert (info.value.line, info.value.column) == (2, 3)


# ------------------------------------------------------ malformed inputs

LONG = "a" * (MAX_LINE_LENGTH + 1)

# (text, line, column, keyword of the message)
MALFORMED = [
    pytest.param("", 1, None, "no item line", id="empty input"),
    pytest.param("\n  \n\t\n", 3, None, "no item line", id="only blank lines"),
    pytest.param("| one\n| two\n", 2, None, "no item line", id="only comments"),
    pytest.param("a b a\n", 1, 5, "duplicate item 'a'", id="duplicate primary item"),
    pytest.param("a b | x a\n", 1, 9, "duplicate item 'a'", id="primary item again as secondary"),
    pytest.param("a | x y x\n", 1, 9, "duplicate item 'x'", id="duplicate secondary item"),
    pytest.param("a b | x | y\n", 1, 9, "'|' appears twice", id="double bar"),
    pytest.param("a b ||y\n", 1, 6, "'|' appears twice", id="double bar glued"),
    pytest.param("a b:c\n", 1, 3, "contains ':'", id="colon in item line"),
    pytest.param("a | x:red\n", 1, 5, "contains ':'", id="colour in item line"),
    pytest.param("a b| x\n", 1, 3, "contains '|'", id="bar inside item name"),
    pytest.param("a b\na c\n", 2, 3, "unknown item 'c'", id="unknown item"),
    pytest.param("a b\n\n| c\nb  A\n", 4, 4, "unknown item 'A'", id="names are case-sensitive"),
    pytest.param("a b\na b a\n", 2, 5, "repeated", id="repeated item"),
    pytest.param("a | x\na x:1 x:2\n", 2, 7, "repeated", id="repeated coloured item"),
    pytest.param("a | x\na x x:1\n", 2, 5, "repeated", id="repeated item, one coloured"),
    pytest.param("a b | x\nb a:red\n", 2, 3, "colour on primary item 'a'", id="colour on primary"),
    pytest.param("a b | x\nb a:\n", 2, 3, "colour on primary", id="empty colour on primary"),
    pytest.param("a | x\na x:\n", 2, 3, "empty colour", id="empty colour"),
    pytest.param("a | x\na x:1:2\n", 2, 3, "contains ':'", id="colon in colour"),
    pytest.param("a | x\na :1\n", 2, 3, "missing item name", id="colour without item"),
    pytest.param("a | x\na | x\n", 2, 3, "'|' in an option line", id="bar token in option"),
    pytest.param("a b\na b | a comment?\n", 2, 5, "'|' in an option line", id="trailing comment"),
    pytest.param("a | x\na |x\n", 2, 3, "'|x' is not a cost", id="bar glued in option"),
    pytest.param("a | x\na x:r|g\n", 2, 3, "contains '|'", id="bar in colour"),
    pytest.param("a\x00 b\na\n", 1, 2, "NUL", id="NUL in item line"),
    pytest.param("a b\n| ok\nb \x00\n", 3, 3, "NUL", id="NUL in option"),
    pytest.param("| \x00\na\n", 1, 3, "NUL", id="NUL in comment"),
    pytest.param("a b\na\x1bb\n", 2, 2, "control character U+001B", id="escape character"),
    pytest.param("a b\na \x85\n", 2, 3, "control character U+0085", id="C1 control"),
    pytest.param("a b\na \udce9\n", 2, 3, "surrogate", id="lone surrogate"),
    pytest.param(LONG, 1, None, "longer than", id="overlong item line"),
    pytest.param("a\n" + LONG + "\n", 2, None, "longer than", id="overlong option line"),
    pytest.param("| hi\n" + LONG + "\r\n", 2, None, "longer than", id="overlong line, CRLF"),
]


@pytest.mark.parametrize(("text", "line", "column", "keyword"), MALFORMED)
def test_malformed(text, line, column, keyword):
    # (a str has no line cap by default: it is in memory already)
    for source in (text, io.StringIO(text))[keyword == "longer than":]:
        with pytest.raises(FormatError) as info:
            read_dlx(source)
        error = info.value
        assert (error.line, error.column) == (line, column), str(error)
        assert keyword in error.reason
        assert str(error).startswith(f"line {line}")
        assert isinstance(error, ExactCoverError)
        assert isinstance(error, ValueError)


def test_line_length_cap_is_exact():
    ok = "a" * 10
    assert read_dlx(ok, max_line_length=10).primary == (ok,)
    assert read_dlx(ok + "\r\n" + ok + "\n", max_line_length=10).options == {0: (ok,)}
    for too_long in (ok + "b", ok + "b\n", ok + "b\r\n", "x\n" + ok + "bc"):
        with pytest.raises(FormatError, match="longer than 10 characters"):
            read_dlx(too_long, max_line_length=10)


class CountingReader:
    """A text stream that records how much was asked of it."""

    def __init__(self, text: str) -> None:
        self.stream = io.StringIO(text)
        self.largest = 0

    def readline(self, size: int = -1, /) -> str:
        assert size > 0, "the reader must always pass a limit"
        line = self.stream.readline(size)
        self.largest = max(self.largest, len(line))
        return line


def test_a_str_or_a_regular_file_has_no_line_cap(tmp_path):
    """What write_dlx writes, read_dlx reads: a line of 1,355,555 characters (the long
    fuzz run's text #5) from the str, and from the regular file (as --max-line's help
    says of dlx solve); a pipe's lines keep the cap."""
    p = dlx.ExactCover({0: [f"i{k}" for k in range(180_000)]})
    text = dlx.write_dlx(p)
    assert max(len(line) for line in text.splitlines()) > MAX_LINE_LENGTH
    assert read_dlx(text).primary == p.primary
    path = tmp_path / "long.dlx"
    path.write_text(text)
    with open(path) as f:
        assert read_dlx(f).options == {0: p.options[0]}
    with pytest.raises(FormatError, match="longer than 1,000,000 characters"):
        read_dlx(io.StringIO(text))
    done = subprocess.run([sys.executable, "-m", "dlx", "solve", "--count", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "1\n", "")


def test_overlong_line_is_never_read_whole():
    reader = CountingReader("a b\n" + "a " * 2_000_000 + "\n")
    with pytest.raises(FormatError, match="longer than"):
        read_dlx(reader)
    assert reader.largest <= MAX_LINE_LENGTH + 2


def test_error_message_reads_well():
    with pytest.raises(FormatError) as info:
        read_dlx("a b | x\nb a:red\n")
    assert str(info.value) == (
        "line 2, column 3: colour on primary item 'a': only secondary items"
        " (after '|' in the item line) can have a colour"
    )


alphabet = st.sampled_from(list("ab x:|\n\t\r\x00é"))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet, max_size=40))
def test_any_text_reads_or_raises_format_error(text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DLXFormatWarning)
        try:
            p = read_dlx(text)
        except FormatError as e:
            assert e.line >= 1
            assert e.column is None or e.column >= 1
            return
    # Whatever reads must write back and read again to the same problem.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DLXFormatWarning)
        again = read_dlx(write_dlx(p))
    assert again.primary == p.primary
    assert again.secondary == p.secondary
    assert again.options == p.options


# ---------------------------------------------------------------- writing


def test_write_toy():
    assert write_dlx(read_dlx(TOY)) == TOY.split("\n", 1)[1]


def test_write_secondary_and_colours():
    assert write_dlx(read_dlx(COLOURED)) == COLOURED


def test_write_labels_as_comments():
    p = ExactCover({"r1": ["a"], ("pair", 2): ["b"], "two\nlines": ["a", "b"], "": ["b"]})
    text = write_dlx(p, labels_as_comments=True)
    assert text == "a b\n| r1\na\n| ('pair', 2)\nb\n| 'two\\nlines'\na b\n|\nb\n"
    assert read_dlx(text).options == {0: ("a",), 1: ("b",), 2: ("a", "b"), 3: ("b",)}


def test_write_unused_items_and_no_options():
    p = ExactCover({}, primary=["a", "b"], secondary=["x"])
    assert write_dlx(p) == "a b | x\n"


@pytest.mark.parametrize(
    ("problem", "keyword"),
    [
        (ExactCover({"r": ["x"]}, secondary=["x"]), "without primary items"),
        (ExactCover({"r": ["a"], "empty": []}), "option 'empty' has no items"),
    ],
)
def test_write_refuses_what_it_cannot_spell(problem, keyword):
    with pytest.raises(ExactCoverError) as info:
        write_dlx(problem)
    assert keyword in str(info.value)


@pytest.mark.parametrize(
    "problem",
    [
        ExactCover({"r": [("cell", 0, 0)]}),
        ExactCover({"r": [1, 2]}),
        ExactCover({"r": ["a b", "a\tb", "a:b", "a|b", "|", "", "a\x00", "i1"]}),
        ExactCover({"r": ["\ufeffa"]}),
        ExactCover({"r": ["a"]}, secondary=["x y"]),
        ExactCover({"r": ["a", Colored("x", 1)], "s": ["b", Colored("x", "")],
                    "t": ["c", Colored("x", "r g"), Colored(("y", 2), ("r", ":"))]},
                   secondary=["x", ("y", 2)]),
        ExactCover({(0, 1): [(0,), (1,)], (1, 0): [(1,)]}, bounds={(1,): (1, 2)},
                   costs={(0, 1): 3}),
    ],
)
def test_write_any_hashable_name_and_read_it_back(problem):
    # issue 24: any hashable item or colour, under a short name and a table in comments
    text = write_dlx(problem)
    assert text.startswith(NAMES_HEADER + "\n")
    back = read_dlx(text)
    assert back.primary == problem.primary and back.secondary == problem.secondary
    assert list(back.options.values()) == list(problem.options.values())
    assert back.bounds == problem.bounds
    assert list(back.costs.values()) == list(problem.costs.values())
    # Knuth's programs read the file as it is: comments, then names without blanks
    kept = read_dlx(text, decode_names=False)
    names = kept.primary + kept.secondary
    assert all(isinstance(x, str) and " " not in x and len(x) <= 8 for x in names)


def test_the_library_s_own_encodings_go_to_knuth_s_format_and_back():
    from problems import polyominoes, queens, sudoku

    for problem in (queens.encode(18), sudoku.encode("." * 16),
                    polyominoes.encode(rows=3, cols=20)):
        text = write_dlx(problem, knuth=True)
        back = read_dlx(text)
        assert back.primary == problem.primary and back.secondary == problem.secondary
        assert list(back.options.values()) == list(problem.options.values())
        assert dlx.count(back, limit=5) == dlx.count(problem, limit=5)
        assert all(len(x) <= 8 for x in read_dlx(text, decode_names=False).items)


def test_knuth_names_are_short_and_a_name_of_the_problem_is_never_reused():
    p = ExactCover({"o": ["longer_than_8", "i1", ("t", 1)]})
    assert write_dlx(p).splitlines()[-1] == "longer_than_8 i1 j1"
    text = write_dlx(p, knuth=True)
    assert text.splitlines()[-1] == "j1 i1 j2"
    assert read_dlx(text).options[0] == ("longer_than_8", "i1", ("t", 1))


def test_a_value_python_cannot_read_back_keeps_its_short_name():
    class Odd:
        def __repr__(self) -> str:
            return "<odd>"

    odd = Odd()
    p = ExactCover({"o": [odd, "a"]})
    text = write_dlx(p)
    assert "| name i1 <odd>" in text
    assert read_dlx(text).options[0] == ("i1", "a")


def test_write_option_without_primary_items_reads_back_with_a_warning():
    p = ExactCover({"r": ["a"], "s": ["x"]}, secondary=["x"])
    text = write_dlx(p)
    assert text == "a | x\na\nx\n"
    with pytest.warns(DLXFormatWarning, match="line 3"):
        assert read_dlx(text).options == {0: ("a",)}


# -------------------------------------------------------------- round trip

NAME = st.text(string.ascii_letters + string.digits, min_size=1, max_size=4)
COLOUR = st.sampled_from(["A", "B", "red", "0"])


@st.composite
def problems(draw, names=NAME, colours=COLOUR):
    """Random problems over named items: some secondary, some coloured."""
    items = draw(st.lists(names, min_size=1, max_size=8, unique=True))
    n_secondary = draw(st.integers(0, len(items) - 1))
    primary, secondary = items[n_secondary:], items[:n_secondary]
    options = {}
    for label in range(draw(st.integers(0, 8))):
        chosen = draw(st.lists(st.sampled_from(items), min_size=1, max_size=5, unique=True))
        entries = []
        for item in chosen:
            if item in secondary and draw(st.booleans()):
                entries.append(Colored(item, draw(colours)))
            else:
                entries.append(item)
        options[f"option {label}"] = entries
    primary = draw(st.permutations(primary))
    return ExactCover(options, secondary=secondary, primary=primary)


def assert_round_trip(p, **kwargs):
    text = write_dlx(p, **kwargs)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        q, lines = read_dlx_lines(text)
    primary = set(p.primary)
    kept = [entries for entries in p.options.values() if any(e in primary for e in entries)]
    assert len(record) == len(p.options) - len(kept)
    assert all(issubclass(w.category, DLXFormatWarning) for w in record)
    assert q.primary == p.primary
    assert q.secondary == p.secondary
    assert q.options == dict(enumerate(kept))
    assert all(isinstance(e, (str, Colored)) for entries in q.options.values() for e in entries)
    text_lines = text.split("\n")
    head = [k for k, line in enumerate(text_lines) if not line.startswith("|")][0]
    table = "\n".join(text_lines[:head + 1])          # the name table and the item line
    for label, line in enumerate(lines):
        assert read_dlx(table + "\n" + text_lines[line - 1]).options[0] == kept[label]
    return q


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(problems(), st.booleans())
def test_round_trip(p, labels_as_comments):
    q = assert_round_trip(p, labels_as_comments=labels_as_comments)
    # Once read, the problem is a fixed point of write then read.
    assert write_dlx(q) == write_dlx(read_dlx(write_dlx(q)))


ODD = st.characters(exclude_categories=("Cc", "Cs"))  # control characters are tested above


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(problems(names=st.text(ODD, min_size=1, max_size=4), colours=st.text(ODD, max_size=3)))
def test_whatever_writes_reads_back(p):
    """Any names, however odd, are written (under short names where DLX can't spell
    them) and read back unchanged."""
    assert_round_trip(p)


def test_a_byte_order_mark_inside_a_name_round_trips():
    p = ExactCover({"o": ["a\ufeffb", "c"]})
    back = read_dlx(write_dlx(p))
    assert back.primary == p.primary and list(back.options.values()) == [("a\ufeffb", "c")]
    first = ExactCover({"o": ["\ufeffa"]})        # one that starts the file goes by a short name
    assert read_dlx(write_dlx(first)).primary == ("\ufeffa",)


@pytest.mark.parametrize("text, costs", [
    ("a b\na |5\nb |2.5\n", {0: 5, 1: 2.5}),
    ("a b\na |3/4 |1\nb |1e-3\n", {0: Fraction(7, 4), 1: 0.001}),
    ("a\na |0\n", {}),
])
def test_costs_are_the_numbers_python_takes(text, costs):
    # issue 24: the text takes what ExactCover takes (int, float, Fraction, never negative)
    p = read_dlx(text)
    assert p.costs == costs
    assert read_dlx(write_dlx(p)).costs == costs
    assert write_dlx(ExactCover({"o": ["a"]}, costs={"o": 0.1})) == "a\na |0.1\n"
    assert write_dlx(ExactCover({"o": ["a"]}, costs={"o": 2.0})) == "a\na |2.0\n"


@pytest.mark.parametrize("text, column, reason", [
    ("a\na |-3\n", 3, "the cost -3 is negative: costs are non-negative numbers"),
    ("a\na |-2.5\n", 3, "the cost -2.5 is negative"),
    ("a\na |x\n", 3, "'|x' is not a cost"),
    ("a\na |1/0\n", 3, "the cost 1/0 divides by 0"),
    ("a\na |1e999\n", 3, "too large for a float"),
    ("a\na |inf\n", 3, "'|inf' is not a cost"),
])
def test_a_bad_cost_says_what_a_cost_is(text, column, reason):
    with pytest.raises(FormatError) as info:
        read_dlx(text)
    assert (info.value.line, info.value.column) == (2, column)
    assert reason in info.value.reason
    with pytest.raises(ExactCoverError, match="negative"):     # and Python agrees
        ExactCover({"o": ["a"]}, costs={"o": -3})


# -- numbers of more digits than Python converts (issue 20)


@pytest.mark.parametrize("text, line, column, what", [
    ("9" * 5000 + "|a b\na b\n", 1, 1, "the bound of item 'a'"),
    ("b 1:" + "9" * 4301 + "|a\na b\n", 1, 3, "the bound of item 'a'"),
    ("a b\n| a comment\na |1 b |" + "9" * 5000 + "\n", 3, 8, "the cost"),
])
def test_a_number_too_long_to_convert_is_a_format_error(text, line, column, what):
    with pytest.raises(FormatError) as info:
        read_dlx(text)
    e = info.value
    assert (e.line, e.column) == (line, column)
    assert e.reason.startswith(f"{what} has ") and "digits: more than Python reads" in e.reason


def test_the_longest_numbers_python_converts_are_read_and_written():
    big = int("9" * 4300)
    p = read_dlx(f"{big}|a b\na |{big}\nb\n")
    assert p.bounds == {"a": (big, big)} and p.costs == {0: big}
    assert read_dlx(write_dlx(p)).costs == {0: big}
    summed = ExactCover({"o": ["a"]}, costs={"o": 2 * big})   # 4,301 digits
    with pytest.raises(ExactCoverError, match="its cost can't be written in DLX format"):
        write_dlx(summed)
    bounded = ExactCover({"o": ["a"]}, bounds={"a": (1, 2 * big)})
    with pytest.raises(ExactCoverError, match="the bounds of item 'a' can't be written"):
        write_dlx(bounded)


def test_any_line_cap_is_taken():
    assert read_dlx(TOY, max_line_length=2**63).primary == tuple("abcdefg")


# ------------------------------------------------------------- write_dlx of something else


@pytest.mark.parametrize("bad", [5, None, "a b\na\n", {"x": ["a"]}, object()])
def test_write_dlx_refuses_what_is_not_a_problem(bad):
    with pytest.raises(dlx.ExactCoverError, match="write_dlx writes a dlx.ExactCover") as info:
        dlx.write_dlx(bad)
    assert isinstance(info.value, TypeError)          # as read_dlx(1.5): both


# -------------------------------------------- the core's fast path against Python's


@contextmanager
def pure_reader():
    """read_dlx without the core's reading of option lines (dlx._core.read_options)."""
    saved = formats._core
    formats._core = None
    try:
        yield
    finally:
        formats._core = saved


def outcome(text, stream=False):
    """All that read_dlx_lines makes of ``text``: the problem (types of costs included),
    the lines, the warnings and where they point, or the error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            p, lines = read_dlx_lines(io.StringIO(text, newline=None) if stream else text)
        except FormatError as e:
            return ("error", str(e), e.line, e.column)
    said = [(str(w.message), w.category, w.filename) for w in caught]
    costs = {label: (type(c), c) for label, c in p.costs.items()}
    return (p.options, p.primary, p.secondary, p.bounds, costs, p.colored, lines, said)


def assert_same_reading(text):
    fast = outcome(text)
    with pure_reader():
        pure = outcome(text)
    assert fast == pure
    assert outcome(text, stream=True) == fast
    if fast[0] != "error":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DLXFormatWarning)     # (outcome() saw them)
            p = read_dlx(text)
        q = ExactCover(p.options, secondary=p.secondary, primary=p.primary, bounds=p.bounds,
                       costs=p.costs)
        # the fast path numbers the options as the constructor does
        assert (p.colored, p._scanned) == (q.colored, q._scanned)
        assert dlx.count(p, max_nodes=10_000) == dlx.count(q, max_nodes=10_000, engine="python")


NAMES = ["a", "b", "x", "y", "é", "€", "b2", "ab"]
LONG = ["abcdefgh", "abcdefghi", "abcdefghij", "abcdefgh12345678x", "abcdefgh12345678y"]
TOKENS = st.one_of(
    st.sampled_from(NAMES),
    st.sampled_from(LONG),                 # 8 characters and more (the last is not an item)
    st.sampled_from(["x:A", "y:0", "a:A", "x:", ":A", "x:A:B", "q", "€:A", "y:€", "é:A"]),
    st.sampled_from(["|5", "|0", "|12", "|2.5", "|3/4", "|-1", "|", "|x", "a|b", "|9" * 3,
                     "|" + "9" * 19, "|" + "9" * 25, "|1/0"]),
)
ITEM_LINES = st.sampled_from([
    "a b | x y", "a b x y", "a b2 é | x y €", "2:3|a b | x y", "a b | x | y", "a a | x",
    "a b |x y", "a:b | x", "a b2 | x y", "€ a b | x y", "a b|", "1|a b | x y",
    "a b abcdefgh abcdefghi | x y abcdefghij abcdefgh12345678x"])


@st.composite
def dlx_texts(draw):
    """Texts in Knuth's format, mostly well formed, some not: comments, blank lines,
    colours, costs, bounds, names beyond Latin-1, unknown and repeated items."""
    lines = draw(st.lists(st.sampled_from(["| a comment", "", "  "]), max_size=2))
    lines.append(draw(ITEM_LINES))
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            lines.append(draw(st.sampled_from(["| comment", "", " \t| x", "\t"])))
        else:
            tokens = draw(st.lists(TOKENS, min_size=1, max_size=5))
            if kind > 3:              # mostly options of known items, each once
                tokens = list(dict.fromkeys(t for t in tokens if t in NAMES[:4] or t[0] == "|"))
                tokens = draw(st.sampled_from(["a", "b", "a x:A", "b y"])).split() + tokens
            lines.append(draw(st.sampled_from([" ", "\t", "  "])).join(tokens))
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return end.join(lines) + draw(st.sampled_from(["", end]))


@pytest.mark.skipif(formats._core is None, reason="the compiled core is not built")
@settings(max_examples=400, deadline=None)
@given(dlx_texts())
def test_the_core_reads_as_python_does(text):
    """The same problem, lines, warnings and errors (message, line, column) with and
    without the core's reading of option lines, from a str and from a stream."""
    assert_same_reading(text)


@pytest.mark.skipif(formats._core is None, reason="the compiled core is not built")
@pytest.mark.parametrize("text", [
    "a b | x y\na x:A |5 |7\nb y:B\na b\n",          # colours and costs, read by the core
    "a b\na |5 |2.5\nb |3\n",                        # a float cost: the line goes to Python
    "a b | x\nx\na\n",                                # no primary item: Python warns
    "a b | x\na x:A\nb x:B\na € \n",                 # a fault after lines the core read
    "a b\n" + "a\nb\n" * 3000 + "a b a\n",           # a fault far down (line and column)
    "a b\na |" + "9" * 18 + " |" + "9" * 18 + "\n",  # whole costs past 2**62: Python sums
    "a b\n" + "a\n" * 5000 + "b |7\n",
    "é a\né\na é\n",                                 # Latin-1 names
])
def test_the_core_reads_these_as_python_does(text):
    assert_same_reading(text)


def test_the_fast_path_keeps_the_item_line_s_names():
    p = read_dlx("a b | x\na x:A\nb x:A\n")
    names = {id(n) for n in p.primary + p.secondary}
    assert all(id(e.item if isinstance(e, Colored) else e) in names
               for entries in p.options.values() for e in entries)
    first, second = p.options[0][1], p.options[1][1]
    assert first == second == Colored("x", "A")


COSTS = st.one_of(st.integers(0, 10**20), st.fractions(min_value=0, max_value=100),
                  st.floats(min_value=0, max_value=1e6, allow_nan=False))


@st.composite
def bounded_problems(draw):
    """Random problems with bounds on primary items and costs on options."""
    p = draw(problems())
    bounds = {}
    for item in p.primary:
        if draw(st.booleans()):
            u = draw(st.integers(0, 3))
            bounds[item] = (u, draw(st.integers(max(u, 1), 4)))
    costs = {label: draw(COSTS) for label in p.options if draw(st.booleans())}
    return ExactCover(p.options, secondary=p.secondary, primary=p.primary, bounds=bounds,
                      costs=costs)


@settings(max_examples=200, deadline=None)
@given(bounded_problems())
def test_bounds_and_costs_round_trip(p):
    """write_dlx then read_dlx: the same items, bounds, options and costs (exactly)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DLXFormatWarning)
        q = read_dlx(write_dlx(p))
        with pure_reader():
            r = read_dlx(write_dlx(p))
    primary = set(p.primary)
    kept = [label for label, entries in p.options.items()
            if any((e.item if isinstance(e, Colored) else e) in primary for e in entries)]
    assert (q.primary, q.secondary, q.bounds) == (p.primary, p.secondary, p.bounds)
    assert list(q.options.values()) == [p.options[label] for label in kept]
    assert q.costs == {k: p.costs[label] for k, label in enumerate(kept) if p.cost(label)}
    # floats stay floats (a Fraction p/1 is written p and reads back as an int)
    assert {k: isinstance(c, float) for k, c in q.costs.items()} == \
        {k: isinstance(p.costs[label], float) for k, label in enumerate(kept) if p.cost(label)}
    assert (r.options, r.costs, r.bounds) == (q.options, q.costs, q.bounds)
