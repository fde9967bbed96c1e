"""ExactCover validation: every bad input is an ExactCoverError naming the option and item."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx
import dlx.problem
from dlx.links import Links


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(options={"o": ["a", "a"]}), dlx.RepeatedItemError, ["'o'", "'a'", "twice"]),
    (dict(options={"o": ["a", dlx.Colored("x", 1), "x"]}, secondary=["x"]),
     dlx.RepeatedItemError, ["'x'"]),
    (dict(options={"o": ["a", "z"]}, primary=["a"]), dlx.UnknownItemError, ["'o'", "'z'"]),
    (dict(options={"o": ["a"]}, primary=["a", "a"]), dlx.DuplicateItemError, ["'a'", "twice"]),
    (dict(options={"o": ["a"]}, secondary=["x", "x"]), dlx.DuplicateItemError, ["'x'"]),
    (dict(options={"o": ["a"]}, primary=["a"], secondary=["a"]), dlx.DuplicateItemError,
     ["both"]),
    (dict(options={"o": [dlx.Colored("a", 1)]}), dlx.ColorError, ["'a'", "not secondary"]),
    (dict(options={"o": "a b"}), dlx.OptionError, ["string", "['a', 'b']"]),
    (dict(options={"o": 3}), dlx.OptionError, ["iterable"]),
    (dict(options={"o": [["a"]]}), dlx.OptionError, ["hashable"]),
    (dict(options={"o": [dlx.Colored("x", [1])]}, secondary=["x"]), dlx.OptionError,
     ["colour"]),
    (dict(options=[["a"], ["b"]]), dlx.ExactCoverError, ["mapping", "dict(enumerate"]),
    (dict(options={"o": ["a"]}, secondary="x"), dlx.ExactCoverError, ["string"]),
])
def test_bad_problems(kwargs, error, words):
    with pytest.raises(error) as info:
        dlx.ExactCover(**kwargs)
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value)


def test_items_are_any_hashable_and_order_is_kept():
    p = dlx.ExactCover({("opt", 2): [("row", 3), 7, None], frozenset({1}): [7]},
                       secondary=[None])
    assert p.primary == (("row", 3), 7) and p.secondary == (None,)
    assert list(p) == [("opt", 2), frozenset({1})]
    assert list(dlx.solutions(p)) == [(("opt", 2),)]


def test_primary_given_declares_order_and_unused_items():
    p = dlx.ExactCover({"o": ["b"]}, primary=["a", "b"])
    assert p.primary == ("a", "b") and dlx.first(p) is None


def test_option_with_only_secondary_items_is_never_chosen():
    p = dlx.ExactCover({"s": ["x"], "a": ["a"]}, secondary=["x"])
    assert list(dlx.solutions(p)) == [("a",)]
    empty = dlx.ExactCover({"nothing": [], "a": ["a"]})
    assert list(dlx.solutions(empty)) == [("a",)]


def test_colored_flag_and_item_names():
    p = dlx.ExactCover({"o": ["a", dlx.Colored("x", "red")]}, secondary=["x"])
    assert p.colored and p.item_names("o") == ("a", "x")
    assert not dlx.ExactCover({"o": ["a"]}).colored
    assert "1 options" in repr(p)


def test_bounds_costs_and_pickling():
    import pickle

    p = dlx.ExactCover({"x": ["a", "b"], "y": ["a"], "z": ["b"]}, bounds={"a": (0, 2), "b": (1, 1)},
                       costs={"x": 3, "y": 1.5})
    assert p.bounds == {"a": (0, 2)} and p.bound("a") == (0, 2) and p.bound("b") == (1, 1)
    assert p.cost("x") == 3 and p.cost("z") == 0
    # b exactly once, a at most twice: {x}, {x, y}, {z}, {y, z}
    assert sorted(map(sorted, dlx.solutions(p))) == [["x"], ["x", "y"], ["y", "z"], ["z"]]
    q = pickle.loads(pickle.dumps(p))
    assert (q.options, q.primary, q.secondary, q.bounds, q.costs) == \
        (p.options, p.primary, p.secondary, p.bounds, p.costs)
    assert dlx.count(q) == dlx.count(p)


def test_from_matrix():
    p = dlx.ExactCover.from_matrix([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1]],
                                   secondary=[3])
    assert p.primary == (0, 1, 2) and p.secondary == (3,)
    assert p.options == {0: (0, 2), 1: (1, 3), 2: (0, 1), 3: (2, 3)}
    assert sorted(map(sorted, dlx.solutions(p))) == [[0, 1], [2, 3]]
    with pytest.raises(dlx.ExactCoverError, match="not 0 or 1"):
        dlx.ExactCover.from_matrix([[0, 2]])
    with pytest.raises(dlx.ExactCoverError, match="secondary column"):
        dlx.ExactCover.from_matrix([[0, 1]], secondary=[5])
    # an all-zero column is a primary item nobody covers: no solution
    assert dlx.count(dlx.ExactCover.from_matrix([[1, 0], [1, 0]])) == 0


def test_from_matrix_takes_numpy_and_scipy():
    # numpy and scipy are in the dev extra: this test never skips
    import numpy as np
    from scipy import sparse

    rows = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 1]])
    p = dlx.ExactCover.from_matrix(rows)
    assert dlx.count(p) == 2 and p.options[0] == (0, 2)
    q = dlx.ExactCover.from_matrix(sparse.csr_matrix(rows))
    assert q.options == p.options and q.primary == p.primary


# -- the constructor's compiled fast path (dlx._core.scan) against the Python checks

_item = st.one_of(st.integers(0, 6), st.sampled_from("abcxyz"),
                  st.tuples(st.sampled_from("rc"), st.integers(0, 2)), st.just([1]))


@st.composite
def _raw_problems(draw):
    options = draw(st.dictionaries(
        st.one_of(st.integers(0, 20), st.text("pq", max_size=2)),
        st.one_of(st.lists(_item, max_size=4), st.lists(_item, max_size=4).map(tuple),
                  st.just("ab"), st.just(7),
                  st.lists(_item, max_size=3).map(lambda xs: [dlx.Colored(x, 1) for x in xs]
                                                  if all(not isinstance(x, list) for x in xs)
                                                  else xs)),
        max_size=6))
    hashable = st.one_of(st.integers(0, 6), st.sampled_from("abcxyz"))
    secondary = draw(st.lists(hashable, max_size=3))
    primary = draw(st.one_of(st.none(), st.lists(hashable, max_size=5)))
    return options, secondary, primary


def _built(options, secondary, primary):
    try:
        p = dlx.ExactCover(options, secondary=secondary, primary=primary)
    except dlx.ExactCoverError as e:
        return type(e), str(e)
    return p


@settings(deadline=None)
@given(_raw_problems())
def test_the_fast_path_builds_what_the_python_checks_build(raw):
    """Same options, items, errors (type and message), layout and search either way."""
    fast = _built(*raw)
    with _python_checks():
        slow = _built(*raw)
    if isinstance(slow, tuple):
        assert fast == slow
        return
    assert (fast.options, fast.primary, fast.secondary, fast.colored) == (
        slow.options, slow.primary, slow.secondary, slow.colored)
    assert list(map(type, fast.options.values())) == [tuple] * len(fast.options)
    a, b = Links.of(fast), Links.of(slow)
    for name in ("labels", "skipped", "TOP", "OPT", "ROW", "option_nodes", "color_names"):
        assert getattr(a, name) == getattr(b, name), name
    assert a.snapshot() == b.snapshot()
    assert Links.of(fast).node_count() == len(b.TOP)
    for engine in ("python", "c") if dlx.engine.available() else ("python",):
        fs, ss = dlx.Stats(), dlx.Stats()
        assert (list(dlx.solutions(_built(*raw), engine=engine, stats=fs))
                == list(dlx.solutions(slow, engine=engine, stats=ss)))
        assert (fs.nodes, fs.updates) == (ss.nodes, ss.updates)


@contextlib.contextmanager
def _python_checks():
    """ExactCover checks every option in Python inside this block."""
    saved = dlx.problem._scan
    dlx.problem._scan = None
    try:
        yield
    finally:
        dlx.problem._scan = saved


# -- ExactCover.from_csr: integer arrays, against the dict form

@st.composite
def _csr_problems(draw):
    """Random problems as CSR arrays: (indptr, indices, n_items, secondary indices)."""
    n_items = draw(st.integers(1, 7))
    options = draw(st.lists(st.lists(st.integers(0, n_items - 1), max_size=4, unique=True),
                            max_size=9))
    secondary = draw(st.lists(st.integers(0, n_items - 1), max_size=3, unique=True))
    indptr = [0]
    for opt in options:
        indptr.append(indptr[-1] + len(opt))
    return indptr, [k for opt in options for k in opt], n_items, secondary


def _as_dict(indptr, indices, names, secondary, labels=None):
    """The dict form of the same problem (primary items in index order)."""
    labels = range(len(indptr) - 1) if labels is None else labels
    options = {labels[o]: [names[k] for k in indices[indptr[o]:indptr[o + 1]]]
               for o in range(len(indptr) - 1)}
    primary = [names[k] for k in range(len(names)) if k not in set(secondary)]
    return dlx.ExactCover(options, secondary=[names[k] for k in secondary], primary=primary)


_KINDS = ["list", "i", "q", "B", "numpy", "numpy-strided"]


def _array(values, kind):
    from array import array

    if kind == "list":
        return list(values)
    if kind.startswith("numpy"):
        import numpy as np

        a = np.array(values, dtype=np.int64)
        if kind == "numpy-strided":             # every other entry of an array twice as long
            b = np.zeros(2 * len(a), dtype=np.int64)
            b[::2] = a
            a = b[::2]
        return a
    return array(kind, values)


@settings(deadline=None)
@given(_csr_problems(), st.sampled_from(_KINDS), st.booleans(), st.booleans())
def test_from_csr_is_the_dict_form(raw, kind, named, labelled):
    """The same options, items, solutions, counts, node and update counts (both engines),
    and the same numbering for the layout, as the dict form of the same problem."""
    indptr, indices, n_items, secondary = raw
    names = [f"i{k}" for k in range(n_items)] if named else list(range(n_items))
    labels = [("opt", o) for o in range(len(indptr) - 1)] if labelled else None
    p = dlx.ExactCover.from_csr(_array(indptr, kind), _array(indices, kind),
                                items=names if named else n_items, labels=labels,
                                secondary=_array(secondary, kind))
    q = _as_dict(indptr, indices, names, secondary, labels)
    assert (p.options, p.primary, p.secondary) == (q.options, q.primary, q.secondary)
    assert dict(p.options) == q.options and list(p.options.items()) == list(q.options.items())
    assert p._scanned == q._scanned
    for engine in ("python", "c") if dlx.engine.available() else ("python",):
        ps, qs = dlx.Stats(), dlx.Stats()
        assert (list(dlx.solutions(p, engine=engine, stats=ps, max_nodes=10_000))
                == list(dlx.solutions(q, engine=engine, stats=qs, max_nodes=10_000)))
        assert (ps.nodes, ps.updates) == (qs.nodes, qs.updates)
        assert dlx.count(p, engine=engine) == dlx.count(q, engine=engine)
    assert Links.of(p).snapshot() == Links.of(q).snapshot()


@st.composite
def _bad_csr(draw):
    """CSR arrays, often broken: indices out of range or twice, indptr not CSR."""
    indptr, indices, n_items, secondary = draw(_csr_problems())
    change = draw(st.integers(0, 6))
    if change == 1 and indices:
        indices[draw(st.integers(0, len(indices) - 1))] = draw(st.integers(-2, n_items + 2))
    elif change == 2 and len(indptr) > 2:
        k = draw(st.integers(0, len(indptr) - 1))
        indptr[k] = draw(st.integers(-1, len(indices) + 1))
    elif change == 3:
        secondary.append(draw(st.integers(-1, n_items + 1)))
    elif change == 4:
        indptr = draw(st.sampled_from([[], [1], indptr[:-1] or [0, 1]]))
    items = draw(st.sampled_from([None, n_items, "names"]))
    return indptr, indices, (list("abcdefg")[:n_items] if items == "names" else items), secondary


def _made(indptr, indices, items, secondary):
    try:
        p = dlx.ExactCover.from_csr(indptr, indices, items=items, secondary=secondary)
    except dlx.ExactCoverError as e:
        return type(e), str(e)
    return dict(p.options), p.primary, p.secondary, p._scanned


@settings(deadline=None, max_examples=300)
@given(_bad_csr())
def test_from_csr_checks_as_its_pure_twin_does(raw):
    """The core's check of the arrays and the pure engine's: the same problem or the same
    error (type and message); a fault names the option and the item."""
    fast = _made(*raw)
    saved = dlx.problem._csr
    dlx.problem._csr = None
    try:
        slow = _made(*raw)
    finally:
        dlx.problem._csr = saved
    assert fast == slow


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(indptr=[0, 2], indices=[0, 0], items=["a"]), dlx.RepeatedItemError,
     "option 0: item 'a' appears twice"),
    (dict(indptr=[0, 1, 3], indices=[0, 1, 1], items=["a", "b"], labels=["x", "y"]),
     dlx.RepeatedItemError, "option 'y': item 'b' appears twice"),
    (dict(indptr=[0, 2], indices=[0, 5], items=3), dlx.UnknownItemError,
     "option 0: item index 5 (indices[1]) is not an item (0..2)"),
    (dict(indptr=[0, 2], indices=[0, -1]), dlx.UnknownItemError,
     "option 0: item index -1 (indices[1]) is negative"),
    (dict(indptr=[0, 1], indices=[0], items=["a", "b"], secondary=[1, 1]),
     dlx.DuplicateItemError, "secondary item 'b' is declared twice"),
    (dict(indptr=[0, 1], indices=[0], items=2, secondary=[2]), dlx.UnknownItemError,
     "secondary[0] = 2 is not an item index (0..1)"),
    (dict(indptr=[1, 1], indices=[0]), dlx.ExactCoverError, "indptr[0] is 1, not 0"),
    (dict(indptr=[0, 2, 1], indices=[0, 1]), dlx.ExactCoverError,
     "indptr decreases at option 1: indptr[1] = 2, indptr[2] = 1"),
    (dict(indptr=[0, 3], indices=[0, 1]), dlx.ExactCoverError,
     "indptr[1] = 3 is past the end of indices (2 entries)"),
    (dict(indptr=[0, 1], indices=[0, 1]), dlx.ExactCoverError,
     "indptr ends at 1, but indices has 2 entries"),
    (dict(indptr=[], indices=[]), dlx.ExactCoverError, "indptr is empty"),
    (dict(indptr=[0, 1], indices=[0.5]), dlx.ExactCoverError,
     "indices must be an array of integers"),
    (dict(indptr=[0, 1], indices="0"), dlx.ExactCoverError, "not the string '0'"),
    (dict(indptr=[0, 1], indices=[0], items=["a", "a"]), dlx.DuplicateItemError,
     "item 'a' is declared twice"),
    (dict(indptr=[0, 1], indices=[0], labels=["x", "y"]), dlx.ExactCoverError,
     "2 labels for 1 options"),
    (dict(indptr=[0, 1, 2], indices=[0, 0], labels=["x", "x"]), dlx.OptionError,
     "labels: 'x' labels options 0 and 1"),
    (dict(indptr=[0, 1], indices=[0], labels=[["x"]]), dlx.OptionError, "not hashable"),
    (dict(indptr=[0, 1], indices=[0], items=-1), dlx.ExactCoverError, "number of items"),
])
def test_from_csr_names_each_fault(kwargs, error, message):
    with pytest.raises(error) as info:
        dlx.ExactCover.from_csr(**kwargs)
    assert message in str(info.value)


def test_from_csr_refuses_arrays_of_other_shapes():
    np = pytest.importorskip("numpy")
    for bad in (np.zeros((2, 2), dtype=np.int32), np.zeros(2), np.zeros(2, dtype=bool),
                np.zeros(2, dtype=">i8")):
        with pytest.raises(dlx.ExactCoverError, match="1-D array of integers"):
            dlx.ExactCover.from_csr(np.array([0, 2]), bad)


def test_from_csr_keeps_labels_secondary_items_bounds_and_costs():
    p = dlx.ExactCover.from_csr([0, 2, 3, 5, 6], [0, 2, 1, 0, 1, 2], items=["a", "b", "x"],
                                labels=["ax", "b", "ab", "x"], secondary=[2],
                                bounds={"a": (1, 2)}, costs={"ab": 3})
    assert p.primary == ("a", "b") and p.secondary == ("x",)
    assert p.options == {"ax": ("a", "x"), "b": ("b",), "ab": ("a", "b"), "x": ("x",)}
    assert p.bounds == {"a": (1, 2)} and p.cost("ab") == 3 and p.cost("b") == 0
    q = dlx.ExactCover(dict(p.options), secondary=["x"], primary=["a", "b"],
                       bounds={"a": (1, 2)}, costs={"ab": 3})
    assert sorted(map(sorted, dlx.solutions(p))) == sorted(map(sorted, dlx.solutions(q)))
    assert dlx.best(p, k=2) == dlx.best(q, k=2)
    # the option with no primary item is kept, never chosen (as in the dict form)
    assert Links.of(p).skipped == ["x"] == Links.of(q).skipped
    with pytest.raises(dlx.ExactCoverError, match="'zz' is not an option label"):
        dlx.ExactCover.from_csr([0, 1], [0], costs={"zz": 1})


def test_from_csr_options_are_a_read_only_mapping_made_when_looked_at():
    import pickle

    p = dlx.ExactCover.from_csr([0, 2, 3], [0, 1, 1], items=["a", "b"])
    options = p.options
    assert not isinstance(options, dict)
    assert repr(options) == "{0: ('a', 'b'), 1: ('b',)}"
    assert options[1] == ("b",) and options.get(2) is None and 1 in options and 2 not in options
    assert "x" not in options and 1.0 in options          # as a dict of the same options
    with pytest.raises(KeyError):
        options[-1]
    with pytest.raises(TypeError):
        options[0] = ("a",)                                 # type: ignore[index]
    assert list(options.values()) == [("a", "b"), ("b",)] and len(options.items()) == 2
    back = pickle.loads(pickle.dumps(p))
    assert back.options == p.options and dlx.count(back) == dlx.count(p) == 1
    assert dlx.read_dlx(dlx.write_dlx(p)).options == p.options
    assert dlx.verify.is_exact_cover(p, dlx.first(p))


def test_from_csr_makes_no_tuple_per_option():
    """A problem of 20,000 options holds its arrays, not 20,000 tuples: its size is a few
    bytes per entry (tracemalloc), and laying it out makes the core's table alone."""
    import gc
    import tracemalloc
    from array import array

    n = 20_000
    indptr = array("q", range(0, 4 * n + 1, 4))
    indices = array("i", [k for o in range(n) for k in (o % 1000, 1000 + o % 1000,
                                                         2000 + o % 997, 3000 + o % 991)])
    gc.collect()
    tracemalloc.start()
    try:
        p = dlx.ExactCover.from_csr(indptr, indices, secondary=range(2000, 4000))
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(p) == n and p.options[n - 1] == (999, 1999, 2000 + 19_999 % 997, 3000 + 19_999 % 991)
    assert held < 40 * n and peak < 80 * n, (held, peak)   # 4 entries: 28 bytes an option


def test_from_csr_refuses_more_items_than_it_numbers():
    np = pytest.importorskip("numpy")
    huge = np.array([0, 2**64 - 1], dtype=np.uint64)
    for kwargs, message in [
            (dict(indices=[0, 10**12]), "item index 1,000,000,000,000 is too large"),
            (dict(indices=huge), "item index 18446744073709551615 (indices[1]) is too large"),
            (dict(indices=huge, items=3), "(indices[1]) is not an item (0..2)"),
            (dict(indices=[0, 1], items=10**10), "10,000,000,000 items: from_csr takes at most")]:
        for core in (True, False):
            saved = dlx.problem._csr
            dlx.problem._csr = saved if core else None
            try:
                with pytest.raises(dlx.ExactCoverError) as info:
                    dlx.ExactCover.from_csr([0, 2], **kwargs)
            finally:
                dlx.problem._csr = saved
            assert message in str(info.value)
