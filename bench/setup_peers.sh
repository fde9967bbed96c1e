#!/usr/bin/env bash
# Recreate the peer venvs used by bench/peers.py: one venv per peer, outside the repo.
#
#   bash bench/setup_peers.sh                 # into /work/peers (or $DLX_PEERS_DIR)
#   bash bench/setup_peers.sh xcover miniexact    # only these (bench/big.py's peers)
#   FORCE=1 bash bench/setup_peers.sh         # rebuild venvs that already exist
#   PYTHON=python3.11 bash bench/setup_peers.sh
#
# Each peer gets its own venv: PyPI's `dlx` clashes with our module name, and the numba peers
# pull numpy/numba/llvmlite. Versions are pinned to the ones bench/README.md reports. After the
# install, each peer runs `bench/peers.py PEER selftest` (Knuth's toy problem, 4-queens, one
# Sudoku, whichever the peer supports): a smoke test that
# also fills the numba caches, so later runs measure a cache load rather than a cold compile.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PEERS_DIR="${DLX_PEERS_DIR:-/work/peers}"
PYTHON="${PYTHON:-python3.11}"
FORCE="${FORCE:-0}"

# venv name (= peer name in bench/peers.py) and its pinned requirement
PEERS=(
    "dlx104          dlx==1.0.4"
    "xcover          xcover==0.2.6"
    "exact_cover     exact-cover==1.5.0"
    "exact_cover_py  exact-cover-py==0.1.2"
    "py_sudoku       py-sudoku==2.0.0"
    "miniexact       miniexact==1.6.1"
)
if (($#)); then                 # only the peers named on the command line
    chosen=()
    for line in "${PEERS[@]}"; do
        read -r venv _ <<<"$line"
        for want in "$@"; do
            [[ "$venv" == "$want" ]] && chosen+=("$line")
        done
    done
    PEERS=("${chosen[@]}")
fi

mkdir -p "$PEERS_DIR"
for line in "${PEERS[@]}"; do
    read -r venv req <<<"$line"
    dir="$PEERS_DIR/$venv"
    if [[ "$FORCE" != 1 && -x "$dir/bin/python" ]] && tr '_' '-' < "$dir/freeze.txt" 2>/dev/null | grep -qix "${req//_/-}"; then
        echo "== $venv: $req already installed" >&2
    else
        echo "== $venv: installing $req" >&2
        rm -rf "$dir"
        "$PYTHON" -m venv "$dir"
        "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$req"
        "$dir/bin/python" -m pip freeze --disable-pip-version-check > "$dir/freeze.txt"
    fi
    "$dir/bin/python" "$HERE/peers.py" "$venv" selftest 2>/dev/null | grep -q '"result": "ok"' \
        || { echo "!! $venv: bench/peers.py $venv selftest failed" >&2; exit 1; }
done

# Record exactly what is installed.
for line in "${PEERS[@]}"; do
    read -r venv _ <<<"$line"
    echo "-- $venv: $(tr '\n' ' ' < "$PEERS_DIR/$venv/freeze.txt")"
done
