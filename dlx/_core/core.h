/* dlx._core: the search loop of dlx.search.run, compiled.
 *
 * One algorithm, two implementations: the core follows dlx/search.py step by
 * step (Knuth's Algorithm C, TAOCP 7.2.2.1; Algorithm X is C without colours;
 * Algorithm M where primary items have bounds; steps X1..X8 are named in
 * loop.c), so that both engines visit the same nodes in the same order, count
 * the same updates and report the same solutions.
 *
 * The files, one per concern (this header holds what they share):
 *
 *   dance.h           the node layout, the state of a search (Run) and the dance:
 *                     hide, cover, purify, commit, tweak, always inline (Knuth's
 *                     names and a map of the steps at its top)
 *   choose.h          X3 (M3): the choosers of each rule of dlx/rules.py's table,
 *                     and their dispatch (included at the end of dance.h)
 *   tree.h            X3 for big problems: the tournament tree of the items' keys
 *                     (kept by the dance's steps when the loop has one)
 *   loop.c            THE loop (run_core_impl), written once and compiled by
 *                     constant arguments of an always-inline function: plain (no
 *                     colours; primary items only), on Knuth's cyclic walks,
 *                     coloured, and bounded (Algorithm M), each with the cache
 *                     and with X3's tree, or neither; forced options (X1),
 *                     X3's tree (attach, build) and branch and bound
 *   bits.h, bits.c    the bitset representation of small problems (no colours,
 *                     no bounds): each level's state copied, no undo
 *   table.c           Table: the static, validated arrays of one problem, the
 *                     node layout a search starts from and the walks of hide;
 *                     its type object; the readers of numbers and of sets of
 *                     option indices
 *   search_object.c   Search: one resumable search (dlx.solutions stays lazy), the
 *                     GIL and check points (drive)
 *   batch.c           Table.batch: many sets of forced options, without the GIL
 *                     (dlx.Prepared)
 *   minimize.c        Table.minimize: minimal sets of forced options (dlx.minimal)
 *   estimate.c        Table.estimate: Knuth's random probes (dlx.estimate)
 *   memo.h, memo.c    counting by caching (dlx.memo): the signature and the table
 *   scan.c            scan, csr: ExactCover's fast paths (number the items; no search)
 *   reader.c          item_names, read_options: read_dlx's fast path for option lines
 *   module.c          the module dlx._core
 *
 * Objects:
 *   Table   the static, validated arrays of one problem, plus the node layout a
 *           search starts from (built once per problem, cached by dlx.engine);
 *           Table.batch() searches many sets of forced options on it, without
 *           the GIL (dlx.Prepared).
 *   Search  one search: its own copy of the dynamic arrays and a resumable loop,
 *           so dlx.solutions stays lazy.  Searches share nothing.
 *
 * Pausing: the loop returns at a solution (mode "solutions", or the count
 * limit), at the end, when the node budget runs out, and at "check points"
 * (every PROGRESS_EVERY nodes, where the Python progress callback, the clock and
 * the signal handlers run with the GIL held).  Every pause is between two steps.
 *
 * Functions one file calls in another are named dlx_... and hidden (DLX_HIDDEN):
 * the module exports PyInit__core only.
 */

#ifndef DLX_CORE_H
#define DLX_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "dance.h"

#define PROGRESS_EVERY 4096          /* must equal dlx.search.PROGRESS_EVERY */
#define QUANTUM_UPDATES (1LL << 16)  /* work done holding the GIL before releasing it */

enum { MODE_COUNT = 0, MODE_SOLUTIONS = 1, MODE_BEST = 2 };
/* Why the loop returned. */
enum { R_SOLUTION, R_DONE, R_BUDGET, R_CHECK, R_BROKEN };
/* Where a paused loop goes on: entering a level (X2), after a solution (X8), or
   at X5 with the item of the level covered and x_l not yet committed. */
enum { RESUME_ENTER, RESUME_LEAVE, RESUME_X5 };
/* Why a check point was reached (Run.check_reason, a mask). */
#define CHECK_NODES 1
#define CHECK_QUANTUM 2

/* X5's check point, after counting node `nodes`: why the loop stops for a moment
   (CHECK_NODES every PROGRESS_EVERY nodes, CHECK_QUANTUM when the updates reach
   pause_at), 0 when it goes on. */
ALWAYS_INLINE int
check_due(long long nodes, long long updates, long long pause_at)
{
    return ((nodes & (PROGRESS_EVERY - 1)) == 0 ? CHECK_NODES : 0)
           | (updates >= pause_at ? CHECK_QUANTUM : 0);
}
/* What placing forced options did (dlx_place_forced). */
enum { PLACED, CLASH, DEAD };

/* ------------------------------------------------------------------ Table */

typedef struct Table {
    PyObject_HEAD
    int N1, N;          /* primary items 1..N1, secondary N1+1..N */
    int M;              /* number of nodes (len(TOP)) */
    int n_options;
    int colored;
    int zeros;          /* primary items with an empty list */
    int *block;         /* one allocation for all the arrays below */
    int *LL, *RL;       /* N+2 */
    int *LEN;           /* N+2 (one spare, never read for valid tables) */
    int *U, *D, *TOP, *COL, *OPT;   /* M */
    Node *nodes;        /* M: the node layout every search starts from */
    int *W;             /* the option walks (see build_layout, and hide in dance.h) */
    int *first;         /* per option: its first node in a primary item (forced options) */
    int multi;          /* some primary item has bounds other than (1, 1): Algorithm M */
    int cyclic;         /* no colours, no bounds, and few nodes in secondary items (or
                           none): the walks of W are Knuth's cyclic ones, which
                           do not set the secondary ones apart (build_layout) */
    int *BOUND, *SLACK; /* N1+1 (multi only): bounds v and slack v - u of primary items */
    struct Bits *bits;  /* the bitset representation (bits.c), or NULL */
} TableObject;

extern DLX_HIDDEN PyTypeObject dlx_Table_Type;

/* The levels a search of t can reach: each chooses an option (Algorithm M: or
   closes an item, the null choice), plus two. */
DLX_HIDDEN int dlx_levels(const TableObject *t);

/* The `colored` argument of the dance steps (dance.h) for a search of t outside the
   loop, which keeps secondary items' LEN (keep) or dances as the loop does (not). */
static inline int
dlx_dance(const TableObject *t, int keep)
{
    if (t->colored)
        return keep ? KEPT_LENS : COLOURS;
    return t->cyclic ? CYCLIC : 0;
}

/* Read the n numbers of seq into out: as C ints in [lo, hi] (type 'i'), as long
   longs in [lo, hi] ('L'), or as doubles ('d', lo and hi unused); -1 with an
   exception set naming `name` on error. */
DLX_HIDDEN int dlx_read_numbers(PyObject *seq, const char *name, Py_ssize_t n, char type,
                                long long lo, long long hi, void *out);

/* Sets of option indices, end to end: set k is at[start[k]] .. at[start[k + 1] - 1]. */
typedef struct {
    int *at, *start;
    int count;
} Sets;

DLX_HIDDEN int dlx_read_sets(const TableObject *t, PyObject *seq, const char *what, Sets *s);
DLX_HIDDEN void dlx_free_sets(Sets *s);

/* The options of the choices xs[0..n) (node offsets): their labels (a tuple of one
   label per option), or with labels None their indices; a tuple. */
DLX_HIDDEN PyObject *dlx_options_of(const TableObject *t, const int *xs, int n,
                                    PyObject *labels);

/* Table.batch and Table.minimize (batch.c, minimize.c). */
DLX_HIDDEN PyObject *dlx_Table_batch(TableObject *t, PyObject *args, PyObject *kwds);
DLX_HIDDEN PyObject *dlx_Table_batch_codes(TableObject *t, PyObject *args, PyObject *kwds);
DLX_HIDDEN PyObject *dlx_Table_minimize(TableObject *t, PyObject *args, PyObject *kwds);
DLX_HIDDEN PyObject *dlx_Table_estimate(TableObject *t, PyObject *args, PyObject *kwds);

/* -------------------------------------------------------- branch and bound */

/* Branch and bound (mode best; dlx/bound.py's Bound): option weights to maximise, the
   k best solutions so far, and the default estimate of what the uncovered items
   can still add: for each, the best share weight / primary items among its
   options.  Int weights are exact: shares are scaled by `scale` (so they are whole
   numbers) and the estimate is rounded down; float weights add as doubles. */
typedef struct Best {
    int integral, k, found, width;  /* found: how many of the k best are known */
    long long scale;
    long long *iw, *ishare, *iscore, *ibest;   /* int weights: per option, node, level, k */
    double *fw, *fshare, *fscore, *fbest;      /* float weights: the same */
    int *bx, *blen;                            /* the k best: their choices (width each) */
} Best;

/* -------------------------------------------------------- the loop (loop.c) */

DLX_HIDDEN int dlx_run_alloc(Run *r, const TableObject *t);
DLX_HIDDEN int dlx_run_alloc_bare(Run *r, const TableObject *t);
DLX_HIDDEN void dlx_run_load_links(Run *r);
DLX_HIDDEN int dlx_run_attach(Run *r, int rep);
DLX_HIDDEN void dlx_run_reset(Run *r);
DLX_HIDDEN void dlx_run_start(Run *r);
DLX_HIDDEN int dlx_run_core(Run *r);
DLX_HIDDEN int dlx_place_forced(Run *r, const int *forced, int n);

/* X3's tree (loop.c; tree.h says what it is). */
DLX_HIDDEN int dlx_tree_attach(Run *r, int want);
DLX_HIDDEN void dlx_tree_detach(Run *r);
DLX_HIDDEN void dlx_tree_build(Run *r);

/* The bitset representation (bits.c; bits.h says what it serves). */
DLX_HIDDEN int dlx_bits_build(TableObject *t);
DLX_HIDDEN void dlx_bits_free(struct Bits *b);
DLX_HIDDEN int dlx_bits_attach(Run *r, int want);
DLX_HIDDEN void dlx_bits_detach(Run *r);
DLX_HIDDEN void dlx_bits_reset(Run *r);
DLX_HIDDEN int dlx_bits_place_forced(Run *r, const int *forced, int n);
DLX_HIDDEN int dlx_bits_run(Run *r);
DLX_HIDDEN double dlx_bits_explored(const Run *r);
DLX_HIDDEN int dlx_bits_sibling(const Run *r, int level, int option);

/* Search below forced options just placed, without the GIL (batch.c). */
DLX_HIDDEN int dlx_search_placed(Run *r, long long limit, long long max_nodes,
                                 double deadline, int on_main, PyThreadState **ts, int *late,
                                 int *interrupted);

/* ------------------------------------------------------------------ the rest */

extern DLX_HIDDEN PyTypeObject dlx_Search_Type;
DLX_HIDDEN PyObject *dlx_scan(PyObject *module, PyObject *args);
DLX_HIDDEN PyObject *dlx_csr(PyObject *module, PyObject *args);

/* Take a new tuple of atoms (objects that are not containers, or tuples already
   untracked) out of the garbage collector's lists, as its next collection would
   (_PyTuple_MaybeUntrack): a million options' tuples are then never walked.  (Not
   collecting while they are made is worse: the first collection after it walks
   them all at once, cache-cold.) */
static inline void
dlx_untrack_atoms(PyObject *tuple)
{
    for (Py_ssize_t j = PyTuple_GET_SIZE(tuple); j-- > 0;) {
        PyObject *e = PyTuple_GET_ITEM(tuple, j);
        if (PyObject_IS_GC(e) && (!PyTuple_CheckExact(e) || PyObject_GC_IsTracked(e)))
            return;
    }
    if (PyObject_GC_IsTracked(tuple))
        PyObject_GC_UnTrack(tuple);
}
DLX_HIDDEN PyObject *dlx_item_names(PyObject *module, PyObject *args);
DLX_HIDDEN PyObject *dlx_read_options(PyObject *module, PyObject *args);

/* Ask for huge pages (Linux's transparent ones, where they are given on request)
   for the whole 2 MB pages inside a big block a search has just allocated: a search
   of a big problem jumps about hundreds of megabytes of nodes, and with 4 kB pages
   most of its reads miss the TLB, and each page costs a fault when first written. */
static inline void
dlx_huge_pages(void *block, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)block + huge - 1) & ~(huge - 1);
    uintptr_t hi = ((uintptr_t)block + bytes) & ~(huge - 1);
    if (bytes >= 4 * huge && hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)block;
    (void)bytes;
#endif
}

/* The ident of Python's main thread (the only one where it handles signals). */
extern DLX_HIDDEN unsigned long dlx_main_thread;

static inline double
monotonic_seconds(void)
{
#if defined(CLOCK_MONOTONIC)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#else
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}

#endif /* DLX_CORE_H */
