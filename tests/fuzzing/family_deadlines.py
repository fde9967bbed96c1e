"""The family "deadlines": time limits on long searches, from the API and the command."""

from __future__ import annotations

import os
import random

from .commands import _case_dir, _what, cli_verdict, langford_dlx, queens_dlx, run_dlx, shell_line
from .core import (
    ANSWER,
    API_SLACK,
    BUDGET_RAN_OUT,
    HANG,
    RAW,
    WRONG,
    Case,
    Verdict,
    attempt,
    engines,
    exception_key,
    reproducer,
)

# ------------------------------------------------------------- the family "deadlines"

_BIG = {   # name: (source of p, engine -> sizes, known counts)
    "queens": ("from problems import queens\np = queens.encode({n})",
               {"c": [15, 16, 17, 18, 300, 447], "python": [11, 12, 13, 300]}),
    "langford": ("from problems import langford\np = langford.encode({n})",
                 {"c": [13, 14, 15, 17], "python": [11, 12, 13]}),
    "pentominoes": ("from problems import polyominoes\np = polyominoes.encode(6, 10)",
                    {"c": [0], "python": [0]}),
}
_UNSAT = {"c": [13, 14, 17], "python": [13, 14]}     # Langford pairs with no solution


def _known(kind: str, n: int) -> int | None:
    from problems import langford, queens

    if kind == "queens":
        return queens.COUNTS[n] if n < len(queens.COUNTS) else None
    if kind == "langford":
        return langford.COUNTS.get(n)
    return 9356


def _case_deadlines(rng: random.Random, case: Case) -> None:
    if rng.random() < 0.5:
        return _deadline_cli(rng, case)
    engine = rng.choice(engines())
    limit = rng.choice([0.05, 0.2, 0.5, 1.0, 1e-6])
    view = rng.choice(["count", "solutions", "first", "is_unique", "best", "best k", "cache",
                       "batch", "prepared", "executor", "sudoku count", "sudoku batch",
                       "sudoku classify"])
    if view in ("first", "is_unique"):
        kind, n = "langford", rng.choice(_UNSAT[engine])
    else:
        kind = rng.choice(list(_BIG))
        n = rng.choice(_BIG[kind][1][engine])
    setup = _BIG[kind][0].format(n=n)
    t = f"timeout={limit!r}"
    exprs = {
        "count": f"dlx.count(p, {t}, engine=ENGINE)",
        "solutions": f"sum(1 for _ in dlx.solutions(p, {t}, engine=ENGINE))",
        "first": f"dlx.first(p, {t}, engine=ENGINE)",
        "is_unique": f"dlx.is_unique(p, {t}, engine=ENGINE)",
        "best": f"dlx.best(p, lambda label: len(repr(label)) % 5, {t}, engine=ENGINE)",
        "best k": f"dlx.best(p, lambda label: hash(label) % 3, k=3, {t}, engine=ENGINE)",
        "cache": f"dlx.count(p, cache=True, {t}, engine=ENGINE)",
        "batch": f"dlx.Prepared(p, engine=ENGINE).batch([[]], limit=None, {t})",
        "prepared": f"dlx.Prepared(p, engine=ENGINE).count({t})",
        "executor": f"threads(lambda ex: dlx.count(p, executor=ex, {t}, engine=ENGINE))",
        "sudoku count": f"sudoku.count('.' * 81, {t})",
        "sudoku batch": f"sudoku.batch(['.' * 81] * 3, None, {t})",
        "sudoku classify": f"sudoku.classify('.' * 17 + '1' + '.' * 63, {t})",
    }
    expr = exprs[view]
    if view.startswith("sudoku"):
        setup = ""
    known = _known(kind, n) if view in ("count", "solutions", "prepared", "executor",
                                        "cache") else None
    case.title = f"{view} with timeout={limit} on {kind} {n if kind != 'pentominoes' else ''}" \
        f" (engine {engine})"
    case.repro = reproducer(setup, expr, (engine,))
    case.allowance = limit + 10

    def run() -> tuple[str, str, str]:
        saved = os.environ.get("DLX_ENGINE")
        os.environ["DLX_ENGINE"] = engine
        try:
            a = attempt(setup, expr, engine)
        finally:
            if saved is None:
                os.environ.pop("DLX_ENGINE", None)
            else:
                os.environ["DLX_ENGINE"] = saved
        key = view.split()[0] if not view.startswith("sudoku") else view
        if a.status == "raw":
            raise Verdict(RAW, f"{key}(timeout=): {exception_key(a.error)}", a.describe())
        if a.seconds > limit + API_SLACK:
            raise Verdict(HANG, f"{key}(timeout=): the time limit not kept"
                          f"{' (engine c)' if engine == 'c' else ''}",
                          f"timeout={limit} but it took {a.seconds:.1f} s: {a.describe()}")
        if a.status == "budget":
            return BUDGET_RAN_OUT, "", ""
        if a.status == "clean":
            raise Verdict(WRONG, f"{key}(timeout=): a valid call refused", a.describe())
        if view == "batch" and not a.value[0].out_of_budget and known is not None \
                and a.value[0].found != known:
            raise Verdict(WRONG, "batch(timeout=): a wrong count", repr(a.value[0]))
        if known is not None and view != "batch" and a.value != known:
            raise Verdict(WRONG, f"{key}(timeout=): a wrong count", f"{a.value}, known {known}")
        return ANSWER, "", ""
    case.run = run
    return None


def _deadline_cli(rng: random.Random, case: Case) -> None:
    limit = rng.choice(["0.3", "1", "2"])
    files = {"l13.dlx": langford_dlx(13).encode(),
             "empty.txt": ("." * 81 + "\n").encode() * 3,
             "rect.txt": _domino_rectangles(8)}
    argv, env = rng.choice([
        (["queens", rng.choice(["15", "16", "17", "18"]), "--count"], {}),
        (["queens", "16", "--count", "--jobs", "2"], {}),
        (["queens", rng.choice(["300", "447"]), "--count"], {}),
        (["dominoes", rng.choice(["200x200", "300x300"]), "--count"], {}),
        (["langford", "300", "--count"], {}),
        (["solve", "big.dlx", "--count"], {}),
        (["langford", rng.choice(["13", "14", "15"]), "--count"], {}),
        (["solve", "l13.dlx", "--count"], {}), (["solve", "l13.dlx", "--count", "--jobs", "2"], {}),
        (["solve", "l13.dlx"], {"DLX_ENGINE": "python"}),
        (["sudoku", "count", "empty.txt", "--limit", "999999999999"], {}),
        (["sudoku", "generate", "--number", "100000"], {}),
        (["sudoku", "generate", "--number", "3", "--box", "5x5"], {}),
        (["sudoku", "score", "empty.txt"], {}),
        (["sudoku", "rate", "empty.txt"], {}),
        (["sudoku", "solve", "empty.txt"], {"DLX_ENGINE": "python"}),
        (["pentominoes", "6x10", "--count"], {"DLX_ENGINE": "python"}),
        (["dominoes", "10x10", "--count"], {}),
        (["rectangles", "rect.txt", "--count"], {}), (["rectangles", "rect.txt"], {}),
    ])
    argv = [*argv, "--timeout", limit]
    what = _what(argv)
    case.title = f"dlx {' '.join(argv)}{' (python engine)' if env else ''}"
    case.repro = "# l13.dlx: Langford pairs n=13; empty.txt: three empty 9x9 grids;" \
        " big.dlx: 400-queens\n" + \
        shell_line(argv, env)
    case.allowance = 60.0

    def run() -> tuple[str, str, str]:
        d = _case_dir(case)
        for file, data in files.items():
            (d / file).write_bytes(data)
        if "big.dlx" in argv:                 # 160,000 options: reading them takes a while
            (d / "big.dlx").write_text(queens_dlx(400))
        ran = run_dlx(argv, cwd=d, env=env, timeout=float(limit) + 20)
        return cli_verdict(ran, what, allowed=(0, 1, 2, 124), timeout=float(limit))
    case.run = run


def _domino_rectangles(n: int) -> bytes:
    """A ZOJ 3209 case: an n x n board, its unit squares and dominoes as the pieces."""
    pieces = [(x, y, x + 1, y + 1) for x in range(n) for y in range(n)]
    pieces += [(x, y, x + 2, y + 1) for x in range(n - 1) for y in range(n)]
    pieces += [(x, y, x + 1, y + 2) for x in range(n) for y in range(n - 1)]
    lines = ["1", f"{n} {n} {len(pieces)}", *(" ".join(map(str, p)) for p in pieces)]
    return ("\n".join(lines) + "\n").encode()
