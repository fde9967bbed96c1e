"""dlx.links: a problem's arrays are laid out once, on first use, checking for a stop every
few thousand options, and threads sharing a problem never see them half laid out.
"""

from __future__ import annotations

import threading

import pytest

import dlx
from dlx import engine as engines
from dlx.links import Links


def test_the_layout_calls_its_check_every_few_thousand_options():
    n = 3 * Links.CHECK_EVERY + 5
    p = dlx.ExactCover({k: ["a", ("s", k)] for k in range(n)},
                       secondary=[("s", k) for k in range(n)])
    calls = []
    links = Links.build(p, check=lambda: calls.append(1))
    links.lay_out(check=lambda: calls.append(1))
    assert len(calls) == 3
    links.check()

    class Late(Exception):
        pass

    def stop():
        raise Late

    q = dlx.ExactCover({k: [k] for k in range(n)})
    with pytest.raises(Late):       # (laid out when built, or when first used)
        Links.of(q, stop).lay_out(stop)
    Links.of(q).check()             # the next use lays it out whole
    assert dlx.count(q, engine="python") == 1


@pytest.mark.slow
def test_threads_sharing_a_problem_never_see_it_half_laid_out():
    # a problem shared by threads is laid out on first use: a thread that came second
    # read the arrays while the first was making them ("'Links' object has no attribute
    # 'TOP'"); many fresh problems, four threads each, started together
    n = 20_000
    faults: list[str] = []
    for rep in range(12):
        p = dlx.ExactCover({("o", rep, i): ["a", ("s", i)] for i in range(n)},
                           secondary=[("s", i) for i in range(n)])
        barrier = threading.Barrier(4)

        def search(k: int, p: dlx.ExactCover = p, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            try:
                if k == 3 and engines.available():
                    got = dlx.Prepared(p, engine="python").batch([[]], limit=3)[0].found
                else:
                    got = dlx.count(p, limit=3, engine="python" if k < 2 else "auto")
                if got != 3:
                    faults.append(f"thread {k}: {got} solutions, not 3")
            except Exception as e:  # noqa: BLE001 - any exception in a thread is the fault
                faults.append(f"thread {k}: {type(e).__name__}: {e}")

        pool = [threading.Thread(target=search, args=(k,)) for k in range(4)]
        for t in pool:
            t.start()
        for t in pool:
            t.join(60)
        assert not faults, faults[:3]
        Links.of(p).check()
