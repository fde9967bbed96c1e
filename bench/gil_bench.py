"""A core search in a worker thread beside a thread that always wants the GIL.

Run by hand: ``.venv/bin/python bench/gil_bench.py [N]`` (N-queens N, default 13).
Dask workers run tasks in a thread beside their event loop; a search that took the
GIL back at every check point (every PROGRESS_EVERY nodes) waited up to the switch
interval (5 ms) each time.  With no progress callback, no timeout and off the main
thread, the core now stays without the GIL at its check points: the worker's time
should equal the time alone.
"""

import sys
import threading
import time

import dlx
from problems.queens import encode as queens


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 13
    p = queens(n)
    dlx.count(p)
    t = time.perf_counter()
    dlx.count(p)
    alone = time.perf_counter() - t
    stop = threading.Event()

    def busy() -> None:
        while not stop.is_set():
            sum(range(1000))

    took: list[float] = []

    def work() -> None:
        t = time.perf_counter()
        dlx.count(p)
        took.append(time.perf_counter() - t)

    spinner = threading.Thread(target=busy)
    spinner.start()
    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    stop.set()
    spinner.join()
    print(f"queens {n}: alone {alone:.3f} s, in a thread beside a busy one {took[0]:.3f} s"
          f" ({took[0] / alone:.2f}x)")


if __name__ == "__main__":
    main()
