/* dlx._core: the search loop of dlx.search.run, compiled.
 *
 * One algorithm, two implementations: this file follows dlx/search.py step by
 * step (Knuth's Algorithm C, TAOCP 7.2.2.1; Algorithm X is C without colours;
 * steps X1..X8 are named below), so that both engines visit the same nodes in
 * the same order, count the same updates and report the same solutions.
 * Knuth's one-letter names are used, as in dlx/links.py, whose layout this
 * module reads:
 *
 *   LLINK/RLINK  item list (head 0: primary items; head N+1: secondary items)
 *   ULINK/DLINK  vertical lists; item i's header is node i
 *   TOP          TOP[x] = item of node x; TOP[x] <= 0 marks a spacer node, whose
 *                ULINK is the first node of the option before it and whose DLINK
 *                is the last node of the option after it
 *   LEN          LEN[i] = options left in item i's list
 *   COLOR        colour code of node x (0 none, -1 while purified)
 *   OPT          OPT[x] = option index of node x (-1 for headers and spacers)
 *
 * The loop is written once (run_core_impl) and compiled twice, for problems
 * with and without colours, by a constant argument of an always-inline function.
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
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#define NOINLINE static __attribute__((noinline))
#else
#define ALWAYS_INLINE static inline
#define NOINLINE static
#endif

#define PROGRESS_EVERY 4096          /* must equal dlx.search.PROGRESS_EVERY */
#define QUANTUM_UPDATES (1LL << 16)  /* work done holding the GIL before releasing it */
#define LOOKAHEAD 64                 /* early failure looks this far; as dlx.search */

enum { MODE_COUNT = 0, MODE_SOLUTIONS = 1, MODE_BEST = 2 };
enum { R_SOLUTION, R_DONE, R_BUDGET, R_CHECK, R_BROKEN };
/* Where a paused loop goes on: entering a level (X2), after a solution (X8), or
   at X5 with the item of the level covered and x_l not yet committed. */
enum { RESUME_ENTER, RESUME_LEAVE, RESUME_X5 };
enum { ST_READY, ST_PAUSED, ST_DONE, ST_BUDGET, ST_TIMEOUT, ST_FAILED };
#define CHECK_NODES 1
#define CHECK_QUANTUM 2

/* One node of a search's copy of the links.  Links are byte offsets into the
   node array (node x lives at x * sizeof(Node)); TOP is kept as the offset of
   the item's header node, and an item's LEN lives in its header node, as in
   Knuth's DLX1: the inner loops then address memory without scaling indices. */
typedef struct {
    int u, d;                /* ULINK, DLINK of the node, as node offsets */
    int t;                   /* option nodes: offset of the item's header;
                                spacers: TOP * sizeof(Node) (<= 0); headers: 0 */
    int s;                   /* option nodes: where this node's walk starts in W (see
                                hide); headers: LEN of the item */
} Node;

#define NODE ((int)sizeof(Node))
#define OFF(x) ((x) * NODE)                 /* node index -> node offset */
#define IDX(o) ((o) / NODE)                 /* node offset -> node index */
#define AT(base, off) ((Node *)((char *)(base) + (off)))
#define LEN_OF(base, h) (AT(base, h)->s)    /* LEN of the item whose header is at h */
/* Secondary items' LEN carries this bias, so that "a list became empty"
   (--LEN == 0) is only ever true of a primary item.  No heuristic reads them. */
#define SECONDARY_BIAS (1 << 30)

/* The ident of Python's main thread (the only one where it handles signals). */
static unsigned long main_thread;

static double
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

/* ------------------------------------------------------------------ Table */

typedef struct {
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
    int *W;             /* the option walks (see hide) */
    int *first;         /* per option: its first node in a primary item (forced options) */
    int multi;          /* some primary item has bounds other than (1, 1): Algorithm M */
    int *BOUND, *SLACK; /* N1+1 (multi only): bounds v and slack v - u of primary items */
} TableObject;

static PyTypeObject Table_Type;

/* Copy a list of ints into out[0..n), checking every value is in [lo, hi]. */
static int
read_ints(PyObject *seq, const char *name, Py_ssize_t n, long lo, long hi, int *out)
{
    PyObject *fast = PySequence_Fast(seq, name);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values, got %zd",
                     name, n, PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t k = 0; k < n; k++) {
        long v = PyLong_AsLong(items[k]);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < lo || v > hi) {
            PyErr_Format(PyExc_ValueError, "%s[%zd] = %ld is out of range [%ld, %ld]",
                         name, k, v, lo, hi);
            Py_DECREF(fast);
            return -1;
        }
        out[k] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* Walk the whole layout once, as Links.check does, so that a search on a table
   that passed can never step outside the arrays: options are runs of nodes
   between spacers whose links are Knuth's; every vertical list closes, holds
   only nodes of its item and has LEN nodes; every option node is in its list;
   no option has an item twice (the search's unhide relies on it); the primary
   item list is exactly 1..N1 and the secondary one N1+1..N. */
static int
check_layout(TableObject *t)
{
    int N = t->N, N1 = t->N1, M = t->M;
    const int *U = t->U, *D = t->D, *TOP = t->TOP, *LL = t->LL, *RL = t->RL;
    long long in_lists = 0, option_nodes = 0;
    int prev = N + 1, n_opt = 0;
    int *seen = (int *)PyMem_Calloc((size_t)N + 1, sizeof(int));  /* item -> last option + 1 */
    if (seen == NULL)
        return -1;
    for (int s = N + 2; s < M; s++) {
        if (TOP[s] > 0)
            continue;
        if (s == prev + 1 || D[prev] != s - 1 || U[s] != prev + 1 || TOP[s] != -(n_opt + 1)) {
            PyMem_Free(seen);   /* an empty option, or spacer links not Knuth's */
            return -1;
        }
        for (int x = prev + 1; x < s; x++) {
            if (t->OPT[x] != n_opt || seen[TOP[x]] == n_opt + 1) {
                PyMem_Free(seen);
                return -1;
            }
            seen[TOP[x]] = n_opt + 1;
        }
        option_nodes += s - prev - 1;
        n_opt++;
        prev = s;
    }
    PyMem_Free(seen);
    if (prev != M - 1 || n_opt != t->n_options)
        return -1;
    for (int i = 1; i <= N; i++) {
        long long n = 0;
        if (U[D[i]] != i)
            return -1;
        for (int x = D[i]; x != i; x = D[x]) {
            if (x <= N + 1 || TOP[x] != i || U[D[x]] != x || ++n > M)
                return -1;
        }
        if (n != t->LEN[i])
            return -1;
        in_lists += n;
    }
    if (in_lists != option_nodes)
        return -1;
    for (int head = 0; head <= N + 1; head += N + 1) {
        int lo = head == 0 ? 1 : N1 + 1, hi = head == 0 ? N1 : N;
        int j = head, expect = lo;
        for (;;) {
            int r = RL[j];
            if (LL[r] != j)
                return -1;
            j = r;
            if (j == head)
                break;
            if (j != expect++)
                return -1;
        }
        if (expect != hi + 1)
            return -1;
    }
    return 0;
}


/* The node layout a search starts from, and the option walks W: for each option
   length L that occurs, W holds the node offsets 0, NODE, ..., NODE*(L-1)
   relative to an option's first node, twice in a row.  Node p at position j of
   its option starts its walk at nodes[p].s = (start of L's walk) + j + 1; the
   entry before it, NODE*j, locates the option's first node and is also where the
   walk stops.  So hide's loop has neither a spacer test nor a wrap-around. */
static int
build_layout(TableObject *t)
{
    int N = t->N, N1 = t->N1, M = t->M;
    size_t option_nodes = 0;
    for (int k = N + 1; k < M; k++)
        option_nodes += t->TOP[k] > 0;
    t->nodes = (Node *)PyMem_Malloc((size_t)M * sizeof(Node));
    t->W = (int *)PyMem_Malloc((2 * option_nodes + 1) * sizeof(int));
    t->first = (int *)PyMem_Malloc(((size_t)t->n_options + 1) * sizeof(int));
    int *at = (int *)PyMem_Malloc(((size_t)M + 1) * sizeof(int));  /* length -> walk start */
    if (t->nodes == NULL || t->W == NULL || t->first == NULL || at == NULL) {
        PyMem_Free(at);
        return -1;
    }
    for (int o = 0; o < t->n_options; o++)
        t->first[o] = -1;
    for (int k = M - 1; k > N + 1; k--)       /* the last write per option is its first */
        if (t->TOP[k] > 0 && t->TOP[k] <= N1)
            t->first[t->OPT[k]] = k;
    for (int k = 0; k < M; k++) {
        t->nodes[k].u = OFF(t->U[k]);
        t->nodes[k].d = OFF(t->D[k]);
        t->nodes[k].t = OFF(t->TOP[k]);
        t->nodes[k].s = 0;
    }
    t->zeros = 0;
    for (int k = 1; k <= N; k++) {
        t->nodes[k].s = t->LEN[k] + (k > N1 ? SECONDARY_BIAS : 0);
        t->zeros += k <= N1 && t->LEN[k] == 0;
    }
    for (int k = 0; k <= M; k++)
        at[k] = -1;
    for (int k = N + 2, w = 0; k < M; k++) {
        if (t->TOP[k] <= 0)
            continue;
        int f = k, len = 0;
        while (t->TOP[f + len] > 0)
            len++;
        if (at[len] < 0) {
            at[len] = w;
            for (int j = 0; j < len; j++)
                t->W[w + j] = t->W[w + len + j] = OFF(j);
            w += 2 * len;
        }
        for (int j = 0; j < len; j++)
            t->nodes[f + j].s = at[len] + j + 1;
        k = f + len;       /* the spacer after the option */
    }
    PyMem_Free(at);
    return 0;
}

/* A Table with room for M nodes, its arrays not yet filled. */
static TableObject *
table_alloc(PyTypeObject *type, int N1, int N, Py_ssize_t M, int n_options)
{
    if (N < 0 || N1 < 0 || N1 > N || N > INT_MAX / NODE - 4 || n_options < 0) {
        PyErr_SetString(PyExc_ValueError, "Table: bad item counts");
        return NULL;
    }
    if (M < N + 2 || M > INT_MAX / NODE) {
        PyErr_SetString(PyExc_ValueError, "Table: bad number of nodes");
        return NULL;
    }
    TableObject *t = (TableObject *)type->tp_alloc(type, 0);
    if (t == NULL)
        return NULL;
    size_t total = 3 * (size_t)(N + 2) + 5 * (size_t)M;
    t->block = (int *)PyMem_Malloc(total * sizeof(int));
    if (t->block == NULL) {
        Py_DECREF(t);
        PyErr_NoMemory();
        return NULL;
    }
    t->N1 = N1;
    t->N = N;
    t->M = (int)M;
    t->n_options = n_options;
    t->LL = t->block;
    t->RL = t->LL + (N + 2);
    t->LEN = t->RL + (N + 2);
    t->U = t->LEN + (N + 2);
    t->D = t->U + M;
    t->TOP = t->D + M;
    t->COL = t->TOP + M;
    t->OPT = t->COL + M;
    t->LEN[N + 1] = 0;
    return t;
}

/* Check the filled arrays of a new Table and derive what the searches use;
   on failure, free it and return NULL with an exception set. */
static PyObject *
table_finish(TableObject *t, PyObject *bound, PyObject *slack)
{
    int N = t->N, N1 = t->N1;
    /* Shape checks that the search relies on to stay inside the arrays: headers
       are nodes 1..N, node N+1 and the last node are spacers, option nodes know
       their option, colours are on secondary items only. */
    int colored = 0;
    for (int x = 0; x < t->M; x++) {
        if (x <= N) {
            if (t->TOP[x] != 0 || t->OPT[x] != -1 || t->COL[x] != 0)
                goto bad;
        }
        else if (t->TOP[x] <= 0) {
            if (t->OPT[x] != -1 || t->COL[x] != 0)
                goto bad;
        }
        else {
            if (t->OPT[x] < 0)
                goto bad;
            if (t->COL[x] != 0) {
                if (t->TOP[x] <= N1)
                    goto bad;
                colored = 1;
            }
        }
    }
    if (t->TOP[N + 1] > 0 || t->TOP[t->M - 1] > 0)
        goto bad;
    if (check_layout(t) < 0)
        goto bad;
    t->colored = colored;
    if (bound != Py_None && slack != Py_None) {
        t->BOUND = (int *)PyMem_Malloc(2 * ((size_t)N1 + 1) * sizeof(int));
        if (t->BOUND == NULL) {
            Py_DECREF(t);
            return PyErr_NoMemory();
        }
        t->SLACK = t->BOUND + (N1 + 1);
        if (read_ints(bound, "BOUND", N1 + 1, 0, INT_MAX / 2, t->BOUND) < 0 ||
            read_ints(slack, "SLACK", N1 + 1, 0, INT_MAX / 2, t->SLACK) < 0) {
            Py_DECREF(t);
            return NULL;
        }
        for (int i = 1; i <= N1; i++) {
            if (t->SLACK[i] > t->BOUND[i])
                goto bad;
            t->multi |= t->BOUND[i] != 1 || t->SLACK[i] != 0;
        }
    }
    if (build_layout(t) < 0) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    return (PyObject *)t;
bad:
    PyErr_SetString(PyExc_ValueError, "Table: the arrays are not a dancing-links layout");
    Py_DECREF(t);
    return NULL;
}

static PyObject *
Table_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"N1", "N", "LLINK", "RLINK", "ULINK", "DLINK", "LEN", "TOP",
                             "COLOR", "OPT", "n_options", "BOUND", "SLACK", NULL};
    int N1, N, n_options;
    PyObject *ll, *rl, *ul, *dl, *len, *top, *col, *opt, *bound = Py_None, *slack = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOOOOOOOi|OO:Table", kwlist, &N1, &N, &ll,
                                     &rl, &ul, &dl, &len, &top, &col, &opt, &n_options, &bound,
                                     &slack))
        return NULL;
    Py_ssize_t M = PySequence_Size(top);
    if (M < 0)
        return NULL;
    TableObject *t = table_alloc(type, N1, N, M, n_options);
    if (t == NULL)
        return NULL;
    if (read_ints(ll, "LLINK", N + 2, 0, N + 1, t->LL) < 0 ||
        read_ints(rl, "RLINK", N + 2, 0, N + 1, t->RL) < 0 ||
        read_ints(len, "LEN", N + 1, 0, (long)M, t->LEN) < 0 ||
        read_ints(ul, "ULINK", M, 0, (long)M - 1, t->U) < 0 ||
        read_ints(dl, "DLINK", M, 0, (long)M - 1, t->D) < 0 ||
        read_ints(top, "TOP", M, -(long)n_options, N, t->TOP) < 0 ||
        read_ints(col, "COLOR", M, 0, INT_MAX, t->COL) < 0 ||
        read_ints(opt, "OPT", M, -1, (long)n_options - 1, t->OPT) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    return table_finish(t, bound, slack);
}

/* Table.from_entries(N1, N, entries, BOUND=None, SLACK=None): the Table of numbered
   options, laid out as Links.build lays them out (an option with no primary item
   is left out).  entries is the int32 buffer of dlx._core.scan: for each option
   its length, then its item numbers (1..N1 primary, N1+1..N secondary). */
static PyObject *
Table_from_entries(PyObject *cls, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"N1", "N", "entries", "BOUND", "SLACK", NULL};
    int N1, N;
    Py_buffer buf;
    PyObject *bound = Py_None, *slack = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiy*|OO:from_entries", kwlist, &N1, &N,
                                     &buf, &bound, &slack))
        return NULL;
    const int32_t *e = (const int32_t *)buf.buf;
    Py_ssize_t n = buf.len / (Py_ssize_t)sizeof(int32_t), k = 0;
    Py_ssize_t M = N + 2;
    int kept = 0;
    /* first pass: check the buffer and count the kept options and their nodes */
    while (k < n) {
        int len = e[k];
        if (len < 0 || len > n - k - 1 || N < 0)
            goto bad_buffer;
        int primary = 0;
        for (int j = 1; j <= len; j++) {
            if (e[k + j] < 1 || e[k + j] > N)
                goto bad_buffer;
            primary |= e[k + j] <= N1;
        }
        if (primary) {
            kept++;
            M += len + 1;
        }
        k += len + 1;
    }
    TableObject *t = table_alloc((PyTypeObject *)cls, N1, N, M, kept);
    if (t == NULL) {
        PyBuffer_Release(&buf);
        return NULL;
    }
    /* the item lists: heads 0 (primary) and N+1 (secondary) */
    for (int i = 0; i <= N + 1; i++) {
        t->LL[i] = i - 1;
        t->RL[i] = i + 1;
        t->LEN[i] = 0;
        t->U[i] = t->D[i] = i;
        t->TOP[i] = 0;
        t->COL[i] = 0;
        t->OPT[i] = -1;
    }
    t->LL[0] = N1;
    t->RL[0] = N1 ? 1 : 0;
    if (N1)
        t->RL[N1] = 0;
    if (N > N1) {
        t->LL[N1 + 1] = N + 1;
        t->LL[N + 1] = N;
        t->RL[N + 1] = N1 + 1;
        t->RL[N] = N + 1;
    }
    else
        t->LL[N + 1] = t->RL[N + 1] = N + 1;
    /* the options: each node at the bottom of its item's list, a spacer after each */
    int x = N + 1, spacer = N + 1, first_of_prev = 0, o = 0;
    t->TOP[spacer] = 0;
    for (k = 0; k < n; k += e[k] + 1) {
        int len = e[k], primary = 0;
        for (int j = 1; j <= len; j++)
            primary |= e[k + j] <= N1;
        if (!primary)
            continue;
        int first = x + 1;
        for (int j = 1; j <= len; j++) {
            int i = e[k + j];
            x++;
            t->TOP[x] = i;
            t->COL[x] = 0;
            t->OPT[x] = o;
            t->U[x] = t->U[i];
            t->D[x] = i;
            t->D[t->U[i]] = x;
            t->U[i] = x;
            t->LEN[i]++;
        }
        t->U[spacer] = first_of_prev;
        t->D[spacer] = x;
        first_of_prev = first;
        spacer = ++x;
        t->TOP[spacer] = -(++o);
        t->COL[spacer] = 0;
        t->OPT[spacer] = -1;
    }
    t->U[spacer] = first_of_prev;
    t->D[spacer] = 0;
    PyBuffer_Release(&buf);
    return table_finish(t, bound, slack);
bad_buffer:
    PyBuffer_Release(&buf);
    PyErr_SetString(PyExc_ValueError, "from_entries: not a buffer of numbered options");
    return NULL;
}

static void
Table_dealloc(TableObject *t)
{
    PyMem_Free(t->block);
    PyMem_Free(t->nodes);
    PyMem_Free(t->W);
    PyMem_Free(t->first);
    PyMem_Free(t->BOUND);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

/* ------------------------------------------------------------------- Run */

/* The state of one search, with no Python objects in it (so the loop can run
   without the GIL): a copy of the dynamic arrays, the stack of choices, the
   counters, and where a paused loop goes on. */
typedef struct {
    const TableObject *t;
    int N1, mode, heuristic;
    const int *OPT;
    /* the dynamic arrays (one allocation) */
    void *block;
    Node *nd;
    int *LL, *RL, *COL;
    int *x;                  /* x[l]: node offset of the option tried at level l */
    int *BOUND;              /* (M) how many more times each primary item may be covered */
    const int *SLACK;        /* (M) v - u of its bounds */
    int *first;              /* (M) first[l]: the first option tried at level l */
    int *deg;                /* deg[l]: the options of the item chosen at level l */
    int depth;               /* levels x[] can hold */
    long long *profile;      /* profile[l]: nodes at level l */
    int plen;                /* levels with a node: profile[0..plen) */
    struct Best *bb;         /* branch and bound (mode best), else NULL */
    int *first_x, first_len; /* the first solution (batches) */
    /* counters and limits */
    long long nodes, updates, solutions, budget, limit, pause_at;
    int check_reason;
    int keep_first;          /* keep the first solution in first_x (batches) */
    /* the loop */
    int level, base, i, resume, zeros;
} Run;

static int
run_alloc(Run *r, const TableObject *t)
{
    int N = t->N, N1 = t->N1, M = t->M;
    /* levels: each chooses an option (Algorithm M: or closes an item, the null choice) */
    int depth = N1 + 2;
    if (t->multi) {
        long long d = 0;
        for (int i = 1; i <= N1; i++)
            d += t->BOUND[i];
        depth = (int)((d < t->n_options ? d : t->n_options) + N1 + 2);
    }
    size_t nodes = (size_t)M * sizeof(Node);
    size_t ints = 2 * (size_t)(N + 2) + (size_t)M + 4 * (size_t)depth + (size_t)N1 + 1;
    size_t longs = (size_t)depth + 1;
    char *block = (char *)PyMem_Malloc(nodes + longs * sizeof(long long) + ints * sizeof(int));
    if (block == NULL)
        return -1;
    memset(r, 0, sizeof(Run));
    r->t = t;
    r->N1 = N1;
    r->depth = depth;
    r->OPT = t->OPT;
    r->block = block;
    r->nd = (Node *)block;
    r->profile = (long long *)(block + nodes);
    r->LL = (int *)(block + nodes + longs * sizeof(long long));
    r->RL = r->LL + (N + 2);
    r->COL = r->RL + (N + 2);
    r->x = r->COL + M;
    r->first_x = r->x + depth;
    r->first = r->first_x + depth;
    r->deg = r->first + depth;
    r->BOUND = r->deg + depth;
    r->SLACK = t->SLACK;
    if (t->multi)
        memcpy(r->BOUND, t->BOUND, ((size_t)N1 + 1) * sizeof(int));
    memcpy(r->nd, t->nodes, nodes);
    memcpy(r->LL, t->LL, (size_t)(N + 2) * sizeof(int));
    memcpy(r->RL, t->RL, (size_t)(N + 2) * sizeof(int));
    memcpy(r->COL, t->COL, (size_t)M * sizeof(int));
    r->zeros = t->zeros;
    r->budget = r->limit = -1;
    return 0;
}

/* Put the links back as the table lays them out (after a search of a batch):
   copying them is cheaper than undoing a deep search step by step. */
static void
run_reset(Run *r)
{
    const TableObject *t = r->t;
    memcpy(r->nd, t->nodes, (size_t)t->M * sizeof(Node));
    memcpy(r->LL, t->LL, (size_t)(t->N + 2) * sizeof(int));
    memcpy(r->RL, t->RL, (size_t)(t->N + 2) * sizeof(int));
    if (t->colored)
        memcpy(r->COL, t->COL, (size_t)t->M * sizeof(int));
    if (t->multi)
        memcpy(r->BOUND, t->BOUND, ((size_t)t->N1 + 1) * sizeof(int));
    r->zeros = t->zeros;
    r->level = 0;
    r->resume = RESUME_ENTER;
}

/* Start counting a search whose root is the current level (after the forced
   options): one node, at level `base`; r->updates holds the root's own (see
   place_forced). */
static void
run_start(Run *r)
{
    r->base = r->level;
    memset(r->profile, 0, ((size_t)r->depth + 1) * sizeof(long long));
    r->profile[r->base] = 1;
    r->plen = r->base + 1;
    r->nodes = 1;
    r->solutions = 0;
    r->resume = RESUME_ENTER;
}

/* The inner loop's view of the dynamic state, held in locals of run_core_impl
   (so the compiler keeps the pointers and the zeros counter in registers:
   stores through the link arrays cannot alias them). */
typedef struct {
    Node *nd;
    int *LL, *RL, *COL;
    const int *W;
    int zeros;
} Ctx;

/* Hide option p (7.2.2.1-(13)), leaving purified nodes (COLOR < 0) alone:
   Algorithm C's hide'.  The walk is Knuth's, cyclically from p+1, read from W
   (see build_layout).  Returns the updates. */
ALWAYS_INLINE long long
hide(Ctx *c, int p, const int colored)
{
    char *restrict nd = (char *)c->nd;
    const int *restrict w = c->W + AT(nd, p)->s;
    const int *const w0 = w;
    const int rel = w[-1];               /* p - (first node of its option) */
    char *const fb = nd + (p - rel);     /* the option's first node */
    int zeros = c->zeros;
    long long k = 0;
    for (int r; (r = *w) != rel; w++) {
        const Node *n = (const Node *)(fb + r);
        if (colored && c->COL[IDX((int)(fb + r - nd))] < 0)
            continue;
        int u = n->u, d = n->d, t = n->t;
        AT(nd, u)->d = d;
        AT(nd, d)->u = u;
        zeros += --LEN_OF(nd, t) == 0;    /* only primary items reach 0 */
        if (colored)
            k++;
    }
    c->zeros = zeros;
    return colored ? k : (long long)(w - w0);
}

/* Unhide option p (7.2.2.1-(15)).  Its nodes are in distinct lists, so the order
   in which they return does not matter. */
ALWAYS_INLINE void
unhide(Ctx *c, int p, const int colored)
{
    char *restrict nd = (char *)c->nd;
    const int *restrict w = c->W + AT(nd, p)->s;
    const int rel = w[-1];
    const int f = p - rel;
    int zeros = c->zeros;
    for (int r; (r = *w) != rel; w++) {
        int q = f + r;
        const Node *n = AT(nd, q);
        if (colored && c->COL[IDX(q)] < 0)
            continue;
        int u = n->u, d = n->d, t = n->t;
        AT(nd, u)->d = q;
        AT(nd, d)->u = q;
        zeros -= LEN_OF(nd, t)++ == 0;
    }
    c->zeros = zeros;
}

/* Cover item i (7.2.2.1-(12)): hide every option in its list, then take i out of
   the item list.  Returns the updates (1 + nodes hidden). */
ALWAYS_INLINE long long
cover(Ctx *c, int i, const int colored)
{
    char *nd = (char *)c->nd;
    const int h = OFF(i);
    long long k = 1;
    for (int p = AT(nd, h)->d; p != h; p = AT(nd, p)->d)
        k += hide(c, p, colored);
    int l = c->LL[i], r = c->RL[i];
    c->RL[l] = r;
    c->LL[r] = l;
    c->zeros -= LEN_OF(nd, h) == 0;
    return k;
}

/* Uncover item i (7.2.2.1-(14)): exactly undo cover(i), bottom up. */
ALWAYS_INLINE void
uncover(Ctx *c, int i, const int colored)
{
    char *nd = (char *)c->nd;
    const int h = OFF(i);
    int l = c->LL[i], r = c->RL[i];
    c->RL[l] = i;
    c->LL[r] = i;
    c->zeros += LEN_OF(nd, h) == 0;
    for (int p = AT(nd, h)->u; p != h; p = AT(nd, p)->u)
        unhide(c, p, colored);
}

/* Node p gives its secondary item a colour: hide the options that give the item
   another colour, mark those that agree as purified (Algorithm C's purify). */
static inline long long
purify(Ctx *c, int p)
{
    char *nd = (char *)c->nd;
    int *COL = c->COL;
    int cc = COL[IDX(p)], h = AT(nd, p)->t;
    long long k = 0;
    for (int q = AT(nd, h)->d; q != h; q = AT(nd, q)->d) {
        if (COL[IDX(q)] == cc)
            COL[IDX(q)] = -1;
        else
            k += hide(c, q, 1);
    }
    return k;
}

static inline void
unpurify(Ctx *c, int p)
{
    char *nd = (char *)c->nd;
    int *COL = c->COL;
    int cc = COL[IDX(p)], h = AT(nd, p)->t;
    for (int q = AT(nd, h)->u; q != h; q = AT(nd, q)->u) {
        if (COL[IDX(q)] < 0)
            COL[IDX(q)] = cc;
        else
            unhide(c, q, 1);
    }
}

/* Algorithm C's commit of node q: cover its item when q has no colour, purify it
   when it has one; a node already purified (COLOR < 0) needs nothing.  Without
   colours, every commit is a cover. */
ALWAYS_INLINE long long
commit(Ctx *c, int q, const int colored)
{
    int i = IDX(AT(c->nd, q)->t);
    if (!colored)
        return cover(c, i, 0);
    int cc = c->COL[IDX(q)];
    if (cc == 0)
        return cover(c, i, 1);
    if (cc > 0)
        return purify(c, q);
    return 0;
}

ALWAYS_INLINE void
uncommit(Ctx *c, int q, const int colored)
{
    int i = IDX(AT(c->nd, q)->t);
    if (!colored) {
        uncover(c, i, 0);
        return;
    }
    int cc = c->COL[IDX(q)];
    if (cc == 0)
        uncover(c, i, 1);
    else if (cc > 0)
        unpurify(c, q);
}

/* The next node of x's option after q, cyclically (q+1, or the option's first
   node after its last), and the one before it. */
ALWAYS_INLINE int
next_node(const char *nd, int q)
{
    q += NODE;
    return AT(nd, q)->t <= 0 ? AT(nd, q)->u : q;
}

ALWAYS_INLINE int
prev_node(const char *nd, int q)
{
    q -= NODE;
    return AT(nd, q)->t <= 0 ? AT(nd, q)->d : q;
}

/* X5 for option x: commit its other items, cyclically from x+1 (Algorithm C).
   Early failure (as dlx.search): after each commit, when some uncovered primary
   item is empty and it is not the item of a node still to commit, undo the
   commits, last first, and return -1 - updates. */
ALWAYS_INLINE long long
commit_option(Ctx *c, int x, const int colored)
{
    const char *nd = (const char *)c->nd;
    long long k = 0;
    for (int q = next_node(nd, x); q != x; q = next_node(nd, q)) {
        k += commit(c, q, colored);
        if (c->zeros > 0) {
            int e = 0, rest = 0, r;
            for (r = next_node(nd, q); r != x && rest <= LOOKAHEAD; r = next_node(nd, r)) {
                rest++;
                e += LEN_OF(nd, AT(nd, r)->t) == 0;
            }
            if (rest <= LOOKAHEAD && c->zeros > e) {
                for (r = q; r != x; r = prev_node(nd, r))
                    uncommit(c, r, colored);
                return -1 - k;
            }
        }
    }
    return k;
}

/* X6 for option x: uncommit its other items, right to left. */
ALWAYS_INLINE void
uncommit_option(Ctx *c, int x, const int colored)
{
    const char *nd = (const char *)c->nd;
    for (int q = prev_node(nd, x); q != x; q = prev_node(nd, q))
        uncommit(c, q, colored);
}

/* Minimum remaining values: the first item of shortest list, as dlx.search.
   Called only when no uncovered primary item is empty (zeros == 0), so the scan
   can stop at the first item of length 1. */
static inline int
choose_mrv(const int *RL, const char *nd)
{
    int i = RL[0], j = i, s = LEN_OF(nd, OFF(i));
    while (s > 1) {
        j = RL[j];
        if (j == 0)
            break;
        int t = LEN_OF(nd, OFF(j));
        if (t < s) {
            s = t;
            i = j;
        }
    }
    return i;
}

/* The first uncovered primary item with an empty list (zeros > 0). */
static inline int
first_empty(const int *RL, const char *nd)
{
    int j = RL[0];
    while (LEN_OF(nd, OFF(j)) != 0)
        j = RL[j];
    return j;
}

/* Branch and bound (mode best; dlx.search.Bound): option weights to maximise, the
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

static long long
floor_div(long long a, long long b)       /* b > 0 */
{
    long long q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* Is the k-th best known, and can no completion of this level's partial solution
   beat it? */
static int
hopeless(const Run *r)
{
    const Best *bb = r->bb;
    if (bb->found < bb->k)
        return 0;
    const int *RL = r->RL;
    const char *nd = (const char *)r->nd;
    long long iroom = 0;
    double froom = 0.0;
    for (int j = RL[0]; j != 0; j = RL[j]) {
        const int h = OFF(j);
        int p = AT(nd, h)->d;
        if (p == h)
            return 1;                    /* an item no option can cover */
        if (bb->integral) {
            long long m = bb->ishare[IDX(p)];
            for (p = AT(nd, p)->d; p != h; p = AT(nd, p)->d)
                if (bb->ishare[IDX(p)] > m)
                    m = bb->ishare[IDX(p)];
            iroom += m;
        }
        else {
            double m = bb->fshare[IDX(p)];
            for (p = AT(nd, p)->d; p != h; p = AT(nd, p)->d)
                if (bb->fshare[IDX(p)] > m)
                    m = bb->fshare[IDX(p)];
            froom += m;
        }
    }
    int worst = bb->k - 1;
    if (bb->integral)
        return !(bb->iscore[r->level] + floor_div(iroom, bb->scale) > bb->ibest[worst]);
    return !(bb->fscore[r->level] + froom > bb->fbest[worst]);
}

/* score[level + 1] = score[level] + the weight of option o. */
static inline void
add_weight(Best *bb, int level, int o)
{
    if (bb->integral)
        bb->iscore[level + 1] = bb->iscore[level] + bb->iw[o];
    else
        bb->fscore[level + 1] = bb->fscore[level] + bb->fw[o];
}

/* Whether the score at `level` is better than the j-th best kept (ties are not). */
static inline int
beats(const Best *bb, int level, int j)
{
    return bb->integral ? bb->iscore[level] > bb->ibest[j] : bb->fscore[level] > bb->fbest[j];
}

/* A solution at `level`: keep it if it is among the k best so far (ties: the
   first found stays ahead). */
static void
offer(Run *r, int level)
{
    Best *bb = r->bb;
    int at = bb->found;
    if (at == bb->k) {
        if (!beats(bb, level, at - 1))
            return;
        at--;                           /* the last one kept drops out */
    }
    for (; at > 0 && beats(bb, level, at - 1); at--) {
        if (bb->integral)
            bb->ibest[at] = bb->ibest[at - 1];
        else
            bb->fbest[at] = bb->fbest[at - 1];
        bb->blen[at] = bb->blen[at - 1];
        memcpy(bb->bx + (size_t)at * bb->width, bb->bx + (size_t)(at - 1) * bb->width,
               (size_t)bb->blen[at] * sizeof(int));
    }
    if (bb->integral)
        bb->ibest[at] = bb->iscore[level];
    else
        bb->fbest[at] = bb->fscore[level];
    bb->blen[at] = level;
    memcpy(bb->bx + (size_t)at * bb->width, r->x, (size_t)level * sizeof(int));
    if (bb->found < bb->k)
        bb->found++;
}

/* ---- Algorithm M: bounds on primary items (dlx.search's Dance.commit etc.) ---- */

/* Commit node q: a primary item may be covered BOUND more times (cover it when
   that reaches 0); a secondary item as Algorithm C. */
ALWAYS_INLINE long long
commit_bounded(Ctx *c, Run *r, int q)
{
    int i = IDX(AT(c->nd, q)->t);
    if (i > r->N1)
        return commit(c, q, 1);
    if (--r->BOUND[i] == 0)
        return cover(c, i, 1);
    return 0;
}

ALWAYS_INLINE void
uncommit_bounded(Ctx *c, Run *r, int q)
{
    int i = IDX(AT(c->nd, q)->t);
    if (i > r->N1) {
        uncommit(c, q, 1);
        return;
    }
    if (r->BOUND[i]++ == 0)
        uncover(c, i, 1);
}

static inline void
deactivate(Ctx *c, int i)
{
    int l = c->LL[i], r = c->RL[i];
    c->RL[l] = r;
    c->LL[r] = l;
}

static inline void
reactivate(Ctx *c, int i)
{
    c->RL[c->LL[i]] = i;
    c->LL[c->RL[i]] = i;
}

/* Take node x out of its item's list (Knuth's tweak); with block, hide the rest of
   its option too.  Returns the updates. */
static long long
tweak(Ctx *c, int x, int block)
{
    char *nd = (char *)c->nd;
    Node *n = AT(nd, x);
    AT(nd, n->u)->d = n->d;
    AT(nd, n->d)->u = n->u;
    LEN_OF(nd, n->t)--;
    return 1 + (block ? hide(c, x, 1) : 0);
}

/* Put back the nodes tweaked out of item i's list since `first`, unhiding their
   options when block (Knuth's untweak). */
static void
untweak(Ctx *c, int i, int first, int block)
{
    char *nd = (char *)c->nd;
    const int h = OFF(i);
    int last = AT(nd, h)->d, above = h, k = 0;
    AT(nd, h)->d = first;
    for (int q = first; q != last; q = AT(nd, q)->d) {
        AT(nd, q)->u = above;
        k++;
        if (block)
            unhide(c, q, 1);
        above = q;
    }
    AT(nd, last)->u = above;
    LEN_OF(nd, h) += k;
}

/* X7 for item i: undo its cover, or put back what was tweaked out of its list
   (then undo the cover of its exhausted bound, leaving it out of the item list);
   then give the choice back to its bound. */
static void
restore_bounded(Ctx *c, Run *r, int i)
{
    if (r->BOUND[i] == 0 && r->SLACK[i] == 0) {
        uncover(c, i, 1);
    }
    else {
        untweak(c, i, r->first[r->level], r->BOUND[i] != 0);
        if (r->BOUND[i] == 0) {
            char *nd = (char *)c->nd;
            const int h = OFF(i);
            for (int p = AT(nd, h)->u; p != h; p = AT(nd, p)->u)
                unhide(c, p, 1);
        }
    }
    r->BOUND[i]++;
}

/* Algorithm M's choice: the item of smallest branching degree LEN + s - BOUND + 1
   (s = min(SLACK, BOUND)); ties to the smaller s, then the longer list, then the
   first (dlx.search.choose_bounded).  Returns the degree through *degree. */
static int
choose_bounded(const Run *r, int *degree)
{
    const char *nd = (const char *)r->nd;
    int best = 0, bt = 0, bs = 0, bl = 0;
    for (int j = r->RL[0]; j != 0; j = r->RL[j]) {
        int s = r->SLACK[j] < r->BOUND[j] ? r->SLACK[j] : r->BOUND[j];
        int len = LEN_OF(nd, OFF(j));
        int t = len + s - r->BOUND[j] + 1;
        if (best == 0 || t < bt || (t == bt && (s < bs || (s == bs && len > bl)))) {
            best = j;
            bt = t;
            bs = s;
            bl = len;
        }
    }
    *degree = bt;
    return best;
}

/* THE loop, resumable.  Runs without touching Python objects (the caller may
   have released the GIL) until a solution to report, the end, the budget, or a
   check point; saves its state in r and says why it stopped. */
ALWAYS_INLINE int
run_core_impl(Run *r, const int colored, const int multi)
{
    Ctx c = {r->nd, r->LL, r->RL, r->COL, r->t->W, r->zeros};
    char *nd = (char *)r->nd;
    int *RL = r->RL, *x = r->x;
    int level = r->level, i = r->i, xl;
    long long nodes = r->nodes, updates = r->updates, k;
    const long long budget = r->budget, pause_at = r->pause_at;
    const int base = r->base;
    int why;

    switch (r->resume) {
    case RESUME_LEAVE:
        goto leave;
    case RESUME_X5:
        goto x5_commit;
    default:
        break;
    }

enter:
    /* X2: enter level `level` */
    if (RL[0] == 0) {
        r->solutions++;
        if (r->bb)
            offer(r, level);
        if (r->keep_first && r->solutions == 1) {
            memcpy(r->first_x, x, (size_t)level * sizeof(int));
            r->first_len = level;
        }
        if (r->mode == MODE_SOLUTIONS || r->solutions == r->limit) {
            r->resume = RESUME_LEAVE;
            why = R_SOLUTION;
            goto save;
        }
        goto leave;
    }
    /* X3: choose an item i (a primary item with no option left: a dead end; with
       bounds, one whose branching degree is 0) */
    if (multi) {
        int degree;
        i = choose_bounded(r, &degree);
        if (r->heuristic) {
            i = RL[0];
            int s = r->SLACK[i] < r->BOUND[i] ? r->SLACK[i] : r->BOUND[i];
            degree = LEN_OF(nd, OFF(i)) + s - r->BOUND[i] + 1;
        }
        if (degree <= 0)
            goto leave;
        r->deg[level] = degree;
    }
    else {
        if (c.zeros > 0)
            goto leave;
        i = r->heuristic ? RL[0] : choose_mrv(RL, nd);
        r->deg[level] = LEN_OF(nd, OFF(i));
    }
    if (r->bb) {
        r->level = level;
        if (hopeless(r))
            goto leave;
    }
    if (level >= r->depth - 1) {   /* impossible for a valid table */
        why = R_BROKEN;
        goto save;
    }
    /* X4: cover i (with bounds: one more choice for i, which is covered once its
       bound is used up, and otherwise tweaked option by option) */
    if (multi) {
        if (--r->BOUND[i] == 0)
            updates += cover(&c, i, colored);
        r->first[level] = AT(nd, OFF(i))->d;
    }
    else {
        updates += cover(&c, i, colored);
    }
    x[level] = AT(nd, OFF(i))->d;
    goto try_;

leave:
    /* X8: leave level `level` */
    if (level == base) {
        r->resume = RESUME_ENTER;
        why = R_DONE;
        goto save;
    }
    level--;
    /* X6: try again: uncommit x_l, take the next option of its item */
    xl = x[level];
    if (multi && IDX(xl) <= r->t->N) {
        /* after the null choice: i is active again, and its level is over */
        i = IDX(xl);
        reactivate(&c, i);
        r->level = level;
        restore_bounded(&c, r, i);
        goto leave;
    }
    i = IDX(AT(nd, xl)->t);
    if (multi) {
        for (int q = prev_node(nd, xl); q != xl; q = prev_node(nd, q))
            uncommit_bounded(&c, r, q);
    }
    else {
        uncommit_option(&c, xl, colored);
    }
    x[level] = AT(nd, xl)->d;

try_:
    xl = x[level];
    if (multi && (r->BOUND[i] || r->SLACK[i])) {
        /* i is not covered: stop when it has too few options left for its bound; the
           null choice (xl == i) closes it, keeping what it has */
        if (LEN_OF(nd, OFF(i)) <= r->BOUND[i] - r->SLACK[i]) {
            r->level = level;
            restore_bounded(&c, r, i);
            goto leave;
        }
    }
    else if (xl == OFF(i)) {
        /* X7: backtrack: every option of i has been tried */
        if (multi) {
            r->level = level;
            restore_bounded(&c, r, i);
        }
        else {
            uncover(&c, i, colored);
        }
        goto leave;
    }
    /* X5: try x_l */
    if (nodes == budget) {
        r->resume = RESUME_X5;    /* not resumable: the search is over */
        why = R_BUDGET;
        goto save;
    }
    nodes++;
    {
        int check = 0;
        if ((nodes & (PROGRESS_EVERY - 1)) == 0)
            check |= CHECK_NODES;
        if (updates >= pause_at)
            check |= CHECK_QUANTUM;
        if (check) {
            r->check_reason = check;
            r->resume = RESUME_X5;
            why = R_CHECK;
            goto save;
        }
    }
x5_commit:
    xl = x[level];
    if (r->plen == level + 1)
        r->profile[r->plen++] = 1;
    else
        r->profile[level + 1]++;
    if (multi) {
        if (r->BOUND[i] || r->SLACK[i]) {
            if (xl != OFF(i))
                updates += tweak(&c, xl, r->BOUND[i] != 0);  /* xl leaves i's list */
            else if (r->BOUND[i])
                deactivate(&c, i);                          /* the null choice */
        }
        if (xl != OFF(i))
            for (int q = next_node(nd, xl); q != xl; q = next_node(nd, q))
                updates += commit_bounded(&c, r, q);
        level++;
        goto enter;
    }
    k = commit_option(&c, xl, colored);
    if (k < 0) {
        /* early failure: an item outside x_l has no option left */
        updates += -1 - k;
        x[level] = AT(nd, xl)->d;
        goto try_;
    }
    updates += k;
    if (r->bb)
        add_weight(r->bb, level, r->OPT[IDX(xl)]);
    level++;
    goto enter;

save:
    r->level = level;
    r->i = i;
    r->nodes = nodes;
    r->updates = updates;
    r->zeros = c.zeros;
    return why;
}

NOINLINE int
run_core_plain(Run *r)
{
    return run_core_impl(r, 0, 0);
}

NOINLINE int
run_core_colored(Run *r)
{
    return run_core_impl(r, 1, 0);
}

NOINLINE int
run_core_bounded(Run *r)
{
    return run_core_impl(r, 1, 1);
}

static int
run_core(Run *r)
{
    if (r->t->multi)
        return run_core_bounded(r);
    return r->t->colored ? run_core_colored(r) : run_core_plain(r);
}

/* Is the option of node offset f still available: every node of it still in its
   item's list (not hidden by an earlier choice), and every item it covers (a
   node without a colour) still uncovered?  (dlx.search._available) */
static int
available(const Run *r, int f)
{
    const char *nd = (const char *)r->nd;
    int q = f;
    do {
        const Node *n = AT(nd, q);
        if (AT(nd, n->u)->d != q)
            return 0;
        if (r->COL[IDX(q)] == 0) {
            int j = IDX(n->t);
            if (r->RL[r->LL[j]] != j)
                return 0;
        }
        q = next_node(nd, q);
    } while (q != f);
    return 1;
}

/* X1 for forced options: choose each (its node f, in its first primary item) as
   the search would: cover f's item and commit the others.  The search below them
   counts, as its root, the step that placed the last one: its commit, with early
   failure, as X5 commits a tried option (dlx.search.run does the same).  Returns
   PLACED; CLASH when an option clashes with an earlier one; DEAD when the last one
   fails early (one node, nothing below).  After CLASH or DEAD the links are half
   changed: reset them. */
enum { PLACED, CLASH, DEAD };

static int
place_forced(Run *r, const int *forced, int n)
{
    Ctx c = {r->nd, r->LL, r->RL, r->COL, r->t->W, r->zeros};
    const int colored = r->t->colored;
    long long k = 0;
    if (r->t->multi) {
        /* Algorithm M: each forced option is taken out of every list and counts once
           against the bounds of its items (dlx.search.run does the same) */
        for (int j = 0; j < n; j++) {
            int f = forced[j];
            if (r->level >= r->depth - 1 || !available(r, f)) {
                r->zeros = c.zeros;
                return CLASH;
            }
            r->x[r->level] = f;
            tweak(&c, f, 1);
            const char *nd = (const char *)r->nd;
            int q = f;
            do {
                commit_bounded(&c, r, q);
                q = next_node(nd, q);
            } while (q != f);
            r->level++;
        }
        r->zeros = c.zeros;
        r->updates = 0;
        return PLACED;
    }
    for (int j = 0; j < n; j++) {
        int f = forced[j];
        if (r->level > r->N1 || !available(r, f)) {
            r->zeros = c.zeros;
            return CLASH;
        }
        if (j == n - 1 && c.zeros == 0) {
            /* the last one goes in through the item the search would choose here (when
               it has one), so that its commit is the one the plain search makes */
            const char *nd = (const char *)r->nd;
            int h = OFF(r->heuristic ? r->RL[0] : choose_mrv(r->RL, nd));
            for (int q = next_node(nd, f); q != f; q = next_node(nd, q))
                if (AT(nd, q)->t == h) {
                    f = q;
                    break;
                }
        }
        r->x[r->level] = f;
        cover(&c, IDX(AT(r->nd, f)->t), colored);
        if (j < n - 1) {
            const char *nd = (const char *)r->nd;
            for (int q = next_node(nd, f); q != f; q = next_node(nd, q))
                commit(&c, q, colored);
        }
        else if ((k = commit_option(&c, f, colored)) < 0) {
            r->zeros = c.zeros;
            r->updates = -1 - k;
            return DEAD;
        }
        if (r->bb)
            add_weight(r->bb, r->level, r->OPT[IDX(f)]);
        r->level++;
    }
    r->zeros = c.zeros;
    r->updates = k;
    return PLACED;
}

/* The options of x[0..n): their labels (a tuple, one per option), or with labels
   None their indices. */
static PyObject *
options_of(const Run *r, const int *xs, int n, PyObject *labels)
{
    int m = 0;                      /* Algorithm M's null choices have no option */
    for (int k = 0; k < n; k++)
        m += r->OPT[IDX(xs[k])] >= 0;
    PyObject *out = PyTuple_New(m);
    if (out == NULL)
        return NULL;
    for (int k = 0, j = 0; k < n; k++) {
        int opt = r->OPT[IDX(xs[k])];
        PyObject *o;
        if (opt < 0)
            continue;
        if (labels != Py_None) {
            o = PyTuple_GET_ITEM(labels, opt);
            Py_INCREF(o);
        }
        else if ((o = PyLong_FromLong(opt)) == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, j++, o);
    }
    return out;
}

/* Sets of option indices, end to end: set k is at[start[k]] .. at[start[k + 1] - 1]. */
typedef struct {
    int *at, *start;
    int count;
} Sets;

static void
free_sets(Sets *s)
{
    PyMem_Free(s->at);
    PyMem_Free(s->start);
    s->at = s->start = NULL;
}

/* Read a sequence of sequences of option indices, each an option with a primary
   item; -1 with an exception set (and nothing to free) on error. */
static int
read_sets(const TableObject *t, PyObject *seq, const char *what, Sets *s)
{
    s->at = s->start = NULL;
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast), used = 0, room = 64;
    s->count = (int)count;
    s->start = (int *)PyMem_Malloc(((size_t)count + 1) * sizeof(int));
    s->at = (int *)PyMem_Malloc((size_t)room * sizeof(int));
    if (s->start == NULL || s->at == NULL) {
        PyErr_NoMemory();
        goto bad;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *one = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, k), what);
        if (one == NULL)
            goto bad;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(one);
        if (used + m > room) {
            room = 2 * (used + m);
            int *grown = (int *)PyMem_Realloc(s->at, (size_t)room * sizeof(int));
            if (grown == NULL) {
                Py_DECREF(one);
                PyErr_NoMemory();
                goto bad;
            }
            s->at = grown;
        }
        s->start[k] = (int)used;
        for (Py_ssize_t j = 0; j < m; j++) {
            PyObject *index = PySequence_Fast_GET_ITEM(one, j);
            if (PyBool_Check(index)) {              /* True is not option 1 (as in Python) */
                Py_DECREF(one);
                PyErr_Format(PyExc_TypeError, "option index %R is not a whole number", index);
                goto bad;
            }
            long o = PyLong_AsLong(index);
            if (o == -1 && PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                Py_DECREF(one);
                PyErr_Format(PyExc_ValueError, "an option index of more than 64 bits is not"
                             " in 0..%d", t->n_options - 1);  /* (no repr: it may be huge) */
                goto bad;
            }
            if (o == -1 && PyErr_Occurred()) {
                Py_DECREF(one);
                goto bad;
            }
            if (o < 0 || o >= t->n_options || t->first[o] < 0) {
                if (o < 0 || o >= t->n_options)
                    PyErr_Format(PyExc_ValueError, "option index %ld is not in 0..%d", o,
                                 t->n_options - 1);
                else
                    PyErr_Format(PyExc_ValueError, "option %ld is not an option with a"
                                 " primary item", o);
                Py_DECREF(one);
                goto bad;
            }
            s->at[used++] = (int)o;
        }
        Py_DECREF(one);
    }
    s->start[count] = (int)used;
    Py_DECREF(fast);
    return 0;
bad:
    Py_DECREF(fast);
    free_sets(s);
    return -1;
}

/* Read a sequence of option indices (forced options) into the node offsets where
   the search places them: each option's first node in a primary item. */
static int
read_forced(const TableObject *t, PyObject *seq, int **out, int *n)
{
    Sets one;
    PyObject *wrapped = PyTuple_Pack(1, seq);
    if (wrapped == NULL)
        return -1;
    int bad = read_sets(t, wrapped, "forced must be a sequence of option indices", &one);
    Py_DECREF(wrapped);
    if (bad < 0)
        return -1;
    *n = one.start[1];
    for (int k = 0; k < *n; k++)
        one.at[k] = OFF(t->first[one.at[k]]);
    *out = one.at;
    PyMem_Free(one.start);
    return 0;
}

/* Knuth's estimate of the fraction of the tree done (dlx.search._explored): at each
   level the k-th of d branches takes (k - 1) / d of what is left there. */
static double
explored(const Run *r)
{
    const char *nd = (const char *)r->nd;
    double done = 0.0, width = 1.0;
    for (int l = r->base; l <= r->level; l++) {
        int xl = r->x[l], d = r->deg[l] > 0 ? r->deg[l] : 1;
        int item = IDX(xl) <= r->t->N ? xl : AT(nd, xl)->t;   /* offsets */
        int q = r->t->multi ? r->first[l] : AT(nd, item)->d, k = 1;
        while (q != xl && q != item) {
            q = AT(nd, q)->d;
            k++;
        }
        width *= d;
        done += ((k < d ? k : d) - 1) / width;
    }
    return done + 0.5 / width;
}

/* ----------------------------------------------------------------- Search */

typedef struct {
    PyObject_HEAD
    TableObject *table;
    PyObject *labels;        /* tuple: option index -> label */
    PyObject *progress;      /* callable or NULL */
    PyObject *stats;         /* a dlx.Stats (or any object) or NULL */
    double explored;         /* the fraction of the tree done, at the last check point */
    Best best;               /* branch and bound (mode best) */
    void *bblock;            /* its arrays */
    double deadline;         /* monotonic seconds, or 0: none */
    int status, busy, clash, dead;
    Run run;
} SearchObject;

static PyTypeObject Search_Type;

/* Write nodes, updates, solutions and profile into the stats object. */
static int
sync_stats(SearchObject *S)
{
    if (S->stats == NULL)
        return 0;
    Run *r = &S->run;
    PyObject *v;
    v = PyLong_FromLongLong(S->clash ? 0 : r->nodes);     /* a dead root: 1 */
    if (v == NULL || PyObject_SetAttrString(S->stats, "nodes", v) < 0)
        goto fail;
    Py_DECREF(v);
    v = PyLong_FromLongLong(r->updates);
    if (v == NULL || PyObject_SetAttrString(S->stats, "updates", v) < 0)
        goto fail;
    Py_DECREF(v);
    v = PyLong_FromLongLong(r->solutions);
    if (v == NULL || PyObject_SetAttrString(S->stats, "solutions", v) < 0)
        goto fail;
    Py_DECREF(v);
    int plen = S->clash ? 0 : r->plen;
    v = PyList_New(plen);
    if (v == NULL)
        return -1;
    for (int k = 0; k < plen; k++) {
        PyObject *n = PyLong_FromLongLong(r->profile[k]);
        if (n == NULL)
            goto fail;
        PyList_SET_ITEM(v, k, n);
    }
    if (PyObject_SetAttrString(S->stats, "profile", v) < 0)
        goto fail;
    Py_DECREF(v);
    int over = S->clash || S->dead || S->status == ST_DONE;
    v = PyFloat_FromDouble(over ? 1.0 : S->explored);
    if (v == NULL || PyObject_SetAttrString(S->stats, "explored", v) < 0)
        goto fail;
    Py_DECREF(v);
    return 0;
fail:
    Py_XDECREF(v);
    return -1;
}

/* Sync the stats without losing the exception being raised. */
static void
sync_stats_keeping_error(SearchObject *S)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (sync_stats(S) < 0)
        PyErr_Clear();
    PyErr_Restore(type, value, tb);
}

/* Run until a result (R_SOLUTION, R_DONE, R_BUDGET); -1 with an exception set
   when the progress callback or a signal handler raised.  The first quantum of
   work runs holding the GIL (short searches pay nothing for threads); after
   that the GIL is released, and taken back only at the check points, where the
   progress callback, the clock and the signal handlers run. */
static int
drive(SearchObject *S)
{
    Run *r = &S->run;
    int released = 0, why;
    if (S->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running");
        return -1;
    }
    if (S->status != ST_READY && S->status != ST_PAUSED) {
        PyErr_SetString(PyExc_RuntimeError, "this search is over");
        return -1;
    }
    if (S->clash || S->dead) {
        S->status = ST_DONE;
        return sync_stats(S) < 0 ? -1 : R_DONE;
    }
    S->busy = 1;
    r->pause_at = r->updates + QUANTUM_UPDATES;
    /* With no callback and no clock, and off the main thread (where signals are
       not handled), a check point needs no Python: it stays without the GIL, so
       that a worker thread does not wait for the GIL every PROGRESS_EVERY nodes. */
    int quiet = S->progress == NULL && S->deadline <= 0 &&
                PyThread_get_thread_ident() != main_thread;
    for (;;) {
        if (released) {
            Py_BEGIN_ALLOW_THREADS
            for (;;) {
                why = run_core(r);
                if (!(quiet && why == R_CHECK && r->check_reason == CHECK_NODES))
                    break;
                S->explored = explored(r);
            }
            Py_END_ALLOW_THREADS
        }
        else {
            why = run_core(r);
        }
        if (why != R_CHECK)
            break;
        if (r->check_reason & CHECK_QUANTUM) {
            released = 1;
            r->pause_at = LLONG_MAX;
        }
        if (r->check_reason & CHECK_NODES) {
            /* At X5, x_l counted but not tried: a stop here takes the count back. */
            S->explored = explored(r);
            if (S->progress != NULL) {
                if (sync_stats(S) < 0)
                    goto fail_uncount;
                PyObject *res = PyObject_CallOneArg(S->progress, S->stats ? S->stats : Py_None);
                if (res == NULL)
                    goto fail_uncount;
                Py_DECREF(res);
            }
            if (PyErr_CheckSignals() < 0)
                goto fail_uncount;
            if (S->deadline > 0 && monotonic_seconds() > S->deadline) {
                r->nodes--;
                S->busy = 0;
                S->status = ST_TIMEOUT;
                return sync_stats(S) < 0 ? -1 : R_BUDGET;
            }
        }
    }
    S->busy = 0;
    if (why == R_BROKEN) {
        S->status = ST_FAILED;
        PyErr_SetString(PyExc_RuntimeError, "dlx._core: inconsistent links (a bug)");
        sync_stats_keeping_error(S);
        return -1;
    }
    S->status = why == R_SOLUTION ? ST_PAUSED : why == R_DONE ? ST_DONE : ST_BUDGET;
    if (sync_stats(S) < 0) {
        S->status = ST_FAILED;
        return -1;
    }
    return why;
fail_uncount:
    r->nodes--;
    S->busy = 0;
    S->status = ST_FAILED;
    sync_stats_keeping_error(S);
    return -1;
}

static PyObject *
labels_of(SearchObject *S, const int *xs, int n)
{
    Py_ssize_t n_labels = PyTuple_GET_SIZE(S->labels);
    int m = 0;                      /* Algorithm M's null choices have no option */
    for (int k = 0; k < n; k++)
        m += S->run.OPT[IDX(xs[k])] >= 0;
    PyObject *out = PyTuple_New(m);
    if (out == NULL)
        return NULL;
    for (int k = 0, j = 0; k < n; k++) {
        int o = S->run.OPT[IDX(xs[k])];
        if (o < 0)
            continue;
        if (o >= n_labels) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_RuntimeError, "dlx._core: option without a label");
            return NULL;
        }
        PyObject *label = PyTuple_GET_ITEM(S->labels, o);
        Py_INCREF(label);
        PyTuple_SET_ITEM(out, j++, label);
    }
    return out;
}

static int
read_doubles(PyObject *seq, const char *name, Py_ssize_t n, double *out)
{
    PyObject *fast = PySequence_Fast(seq, name);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values", name, n);
        Py_DECREF(fast);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t k = 0; k < n; k++) {
        double v = PyFloat_AsDouble(items[k]);
        if (v == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[k] = v;
    }
    Py_DECREF(fast);
    return 0;
}

/* Read n numbers: int64 (for int weights) or double. */
static int
read_numbers(PyObject *seq, const char *name, Py_ssize_t n, int integral, long long *iout,
             double *fout)
{
    PyObject *fast = PySequence_Fast(seq, name);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values", name, n);
        Py_DECREF(fast);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t k = 0; k < n; k++) {
        if (integral) {
            iout[k] = PyLong_AsLongLong(items[k]);
            if (iout[k] == -1 && PyErr_Occurred())
                goto fail;
        }
        else {
            fout[k] = PyFloat_AsDouble(items[k]);
            if (fout[k] == -1.0 && PyErr_Occurred())
                goto fail;
        }
    }
    Py_DECREF(fast);
    return 0;
fail:
    Py_DECREF(fast);
    return -1;
}

/* Branch and bound: per option weights and shares (spread over the nodes), per
   level scores, and room for the k best. */
static int
read_bound(SearchObject *S, PyObject *weights, PyObject *shares, int integral, int k,
           long long scale)
{
    const TableObject *t = S->table;
    size_t n_opt = (size_t)t->n_options, M = (size_t)t->M, width = (size_t)t->N1 + 2;
    size_t numbers = 2 * n_opt + M + width + 1 + (size_t)k;
    Best *bb = &S->best;
    S->bblock = PyMem_Malloc(numbers * 8 + ((size_t)k * width + (size_t)k + 1) * sizeof(int));
    if (S->bblock == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    bb->integral = integral;
    bb->k = k;
    bb->width = (int)width;
    bb->scale = scale;
    long long *il = (long long *)S->bblock;
    double *fl = (double *)S->bblock;
    bb->iw = il, bb->fw = fl;                           /* per option */
    long long *iper = il + n_opt;
    double *fper = fl + n_opt;                          /* shares per option (read) */
    bb->ishare = il + 2 * n_opt, bb->fshare = fl + 2 * n_opt;            /* per node */
    bb->iscore = il + 2 * n_opt + M, bb->fscore = fl + 2 * n_opt + M;    /* per level */
    bb->ibest = il + 2 * n_opt + M + width, bb->fbest = fl + 2 * n_opt + M + width;
    bb->bx = (int *)(il + numbers);
    bb->blen = bb->bx + (size_t)k * width;
    if (read_numbers(weights, "weights", (Py_ssize_t)n_opt, integral, bb->iw, bb->fw) < 0 ||
        read_numbers(shares, "ratios", (Py_ssize_t)n_opt, integral, iper, fper) < 0)
        return -1;
    for (size_t q = 0; q < M; q++) {
        int o = t->OPT[q];
        if (integral)
            bb->ishare[q] = o >= 0 ? iper[o] : 0;
        else
            bb->fshare[q] = o >= 0 ? fper[o] : 0.0;
    }
    for (size_t l = 0; l < width; l++) {
        if (integral)
            bb->iscore[l] = 0;
        else
            bb->fscore[l] = 0.0;
    }
    bb->found = 0;
    S->run.bb = bb;
    return 0;
}

static PyObject *
Search_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"table", "labels", "mode", "max_nodes", "limit", "heuristic",
                             "progress", "stats", "weights", "ratios", "integral", "forced",
                             "timeout", "k", "scale", NULL};
    TableObject *t;
    PyObject *labels, *progress = Py_None, *stats = Py_None, *weights = Py_None,
             *ratios = Py_None, *forced = NULL;
    const char *mode_name;
    long long max_nodes = -1, limit = -1, scale = 1;
    int heuristic = 0, integral = 0, k = 1;
    double timeout = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!Os|$LLiOOOOpOdiL:Search", kwlist,
                                     &Table_Type, &t, &labels, &mode_name, &max_nodes, &limit,
                                     &heuristic, &progress, &stats, &weights, &ratios,
                                     &integral, &forced, &timeout, &k, &scale))
        return NULL;
    if (k < 1 || (integral && scale < 1)) {
        PyErr_SetString(PyExc_ValueError, "k and scale must be at least 1");
        return NULL;
    }
    int mode;
    if (strcmp(mode_name, "count") == 0)
        mode = MODE_COUNT;
    else if (strcmp(mode_name, "solutions") == 0)
        mode = MODE_SOLUTIONS;
    else if (strcmp(mode_name, "best") == 0)
        mode = MODE_BEST;
    else {
        PyErr_Format(PyExc_ValueError, "unknown mode %s: use count, solutions or best",
                     mode_name);
        return NULL;
    }
    if (heuristic != 0 && heuristic != 1) {
        PyErr_SetString(PyExc_ValueError, "heuristic must be 0 (mrv) or 1 (first)");
        return NULL;
    }
    if (progress != Py_None && !PyCallable_Check(progress)) {
        PyErr_SetString(PyExc_TypeError, "progress must be callable or None");
        return NULL;
    }
    if ((mode == MODE_BEST) != (weights != Py_None) || (weights == Py_None) != (ratios == Py_None)) {
        PyErr_SetString(PyExc_ValueError, "weights and ratios are needed for mode best, only");
        return NULL;
    }
    PyObject *label_tuple = PySequence_Tuple(labels);
    if (label_tuple == NULL)
        return NULL;
    if (PyTuple_GET_SIZE(label_tuple) != t->n_options) {
        Py_DECREF(label_tuple);
        PyErr_SetString(PyExc_ValueError, "labels: one per option needed");
        return NULL;
    }
    int *f = NULL, n_forced = 0;
    if (forced != NULL && forced != Py_None && read_forced(t, forced, &f, &n_forced) < 0) {
        Py_DECREF(label_tuple);
        return NULL;
    }
    SearchObject *S = (SearchObject *)type->tp_alloc(type, 0);
    if (S == NULL) {
        Py_DECREF(label_tuple);
        PyMem_Free(f);
        return NULL;
    }
    S->labels = label_tuple;
    Py_INCREF(t);
    S->table = t;
    if (progress != Py_None) {
        Py_INCREF(progress);
        S->progress = progress;
    }
    if (stats != Py_None) {
        Py_INCREF(stats);
        S->stats = stats;
    }
    Run *r = &S->run;
    if (run_alloc(r, t) < 0) {
        PyMem_Free(f);
        Py_DECREF(S);
        return PyErr_NoMemory();
    }
    r->mode = mode;
    r->heuristic = heuristic;
    if (mode == MODE_BEST && read_bound(S, weights, ratios, integral, k, scale) < 0) {
        PyMem_Free(f);
        Py_DECREF(S);
        return NULL;
    }
    r->updates = 0;
    int placed = place_forced(r, f, n_forced);
    PyMem_Free(f);
    if (placed == DEAD)
        r->level++;                  /* the root, at the level after the forced options */
    run_start(r);
    S->clash = placed == CLASH;
    S->dead = placed == DEAD;
    r->budget = max_nodes < 1 ? -1 : max_nodes;
    r->limit = limit < 1 ? -1 : limit;
    S->deadline = timeout > 0 ? monotonic_seconds() + timeout : 0.0;
    S->status = ST_READY;
    return (PyObject *)S;
}

static int
Search_traverse(SearchObject *S, visitproc visit, void *arg)
{
    Py_VISIT(S->labels);
    Py_VISIT(S->progress);
    Py_VISIT(S->stats);
    return 0;
}

static int
Search_clear(SearchObject *S)
{
    Py_CLEAR(S->labels);
    Py_CLEAR(S->progress);
    Py_CLEAR(S->stats);
    return 0;
}

static void
Search_dealloc(SearchObject *S)
{
    PyObject_GC_UnTrack(S);
    Search_clear(S);
    Py_XDECREF(S->table);
    PyMem_Free(S->run.block);
    PyMem_Free(S->bblock);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static int
need_mode(SearchObject *S, int mode, const char *what)
{
    if (S->run.mode != mode) {
        PyErr_Format(PyExc_RuntimeError, "%s() needs a search made with mode=%s", what,
                     mode == MODE_COUNT ? "'count'" : mode == MODE_SOLUTIONS ? "'solutions'"
                                                                               : "'best'");
        return -1;
    }
    return 0;
}

static int
is_over(SearchObject *S)
{
    return S->status == ST_DONE || S->status == ST_BUDGET || S->status == ST_TIMEOUT;
}

static PyObject *
Search_next(SearchObject *S, PyObject *unused)
{
    if (need_mode(S, MODE_SOLUTIONS, "next") < 0)
        return NULL;
    if (is_over(S))
        Py_RETURN_NONE;
    int why = drive(S);
    if (why < 0)
        return NULL;
    if (why == R_SOLUTION)
        return labels_of(S, S->run.x, S->run.level);
    Py_RETURN_NONE;
}

static PyObject *
Search_count(SearchObject *S, PyObject *unused)
{
    if (need_mode(S, MODE_COUNT, "count") < 0)
        return NULL;
    if (!is_over(S) && drive(S) < 0)
        return NULL;
    return PyLong_FromLongLong(S->run.solutions);
}

static PyObject *
Search_best(SearchObject *S, PyObject *unused)
{
    if (need_mode(S, MODE_BEST, "best") < 0)
        return NULL;
    if (!is_over(S) && drive(S) < 0)
        return NULL;
    const Best *bb = &S->best;
    PyObject *out = PyList_New(bb->found);
    if (out == NULL)
        return NULL;
    for (int j = 0; j < bb->found; j++) {
        PyObject *sol = labels_of(S, bb->bx + (size_t)j * bb->width, bb->blen[j]);
        PyObject *item = sol == NULL ? NULL
            : bb->integral ? Py_BuildValue("(LN)", bb->ibest[j], sol)
                           : Py_BuildValue("(dN)", bb->fbest[j], sol);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, j, item);
    }
    return out;
}

/* The subtrees a search stopped at X5 has not explored (dlx.search._frontier):
   x[level] and the options after it in its item's list, then those after x[k] in
   theirs for k = level-1 .. base; each as the option indices of its path. */
static PyObject *
Search_frontier(SearchObject *S, PyObject *unused)
{
    const Run *r = &S->run;
    if (r->t->multi)
        Py_RETURN_NONE;             /* siblings tweaked away are not forced options */
    if (S->status != ST_BUDGET && S->status != ST_TIMEOUT)
        return PyList_New(0);
    const char *nd = (const char *)r->nd;
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    for (int k = r->level; k >= r->base; k--) {
        int head = k == r->level ? OFF(r->i) : AT(nd, r->x[k])->t;
        int q = k == r->level ? r->x[k] : AT(nd, r->x[k])->d;
        for (; q != head; q = AT(nd, q)->d) {
            PyObject *piece = PyTuple_New(k + 1);
            if (piece == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            for (int j = 0; j <= k; j++) {
                PyObject *o = PyLong_FromLong(r->OPT[IDX(j < k ? r->x[j] : q)]);
                if (o == NULL) {
                    Py_DECREF(piece);
                    Py_DECREF(out);
                    return NULL;
                }
                PyTuple_SET_ITEM(piece, j, o);
            }
            if (PyList_Append(out, piece) < 0) {
                Py_DECREF(piece);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(piece);
        }
    }
    return out;
}

static PyObject *
Search_get_status(SearchObject *S, void *closure)
{
    static const char *names[] = {"ready", "paused", "done", "budget", "timeout", "failed"};
    return PyUnicode_FromString(names[S->status]);
}

static PyObject *
Search_get_nodes(SearchObject *S, void *closure)
{
    return PyLong_FromLongLong(S->clash ? 0 : S->run.nodes);
}

static PyObject *
Search_get_updates(SearchObject *S, void *closure)
{
    return PyLong_FromLongLong(S->run.updates);
}

static PyObject *
Search_get_solutions(SearchObject *S, void *closure)
{
    return PyLong_FromLongLong(S->run.solutions);
}

static PyMethodDef Search_methods[] = {
    {"next", (PyCFunction)Search_next, METH_NOARGS,
     "next() -> tuple of labels, or None when the search is over (mode 'solutions')."},
    {"count", (PyCFunction)Search_count, METH_NOARGS,
     "count() -> solutions found: runs to the end, the limit or the budget (mode 'count')."},
    {"best", (PyCFunction)Search_best, METH_NOARGS,
     "best() -> [(score, labels), ...]: the k best solutions, best first (mode 'best')."},
    {"frontier", (PyCFunction)Search_frontier, METH_NOARGS,
     "frontier() -> after a stop by budget or time, the unexplored subtrees, each as the\n"
     "option indices of its forced path, in search order ([] otherwise)."},
    {NULL},
};

static PyGetSetDef Search_getset[] = {
    {"status", (getter)Search_get_status, NULL,
     "'ready', 'paused' (at a solution), 'done', 'budget', 'timeout' or 'failed'", NULL},
    {"nodes", (getter)Search_get_nodes, NULL, "nodes visited so far", NULL},
    {"updates", (getter)Search_get_updates, NULL, "link updates so far", NULL},
    {"solutions", (getter)Search_get_solutions, NULL, "solutions reached so far", NULL},
    {NULL},
};

static PyTypeObject Search_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "dlx._core.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Search(table, labels, mode, *, max_nodes=-1, limit=-1, heuristic=0,\n"
              "       progress=None, stats=None, weights=None, ratios=None, integral=False,\n"
              "       forced=None, timeout=-1.0, k=1, scale=1)\n\n"
              "One search over its own copy of a Table: mode 'count', 'solutions' or 'best';\n"
              "forced: nodes of options chosen first (a clash: no solution).",
    .tp_traverse = (traverseproc)Search_traverse,
    .tp_clear = (inquiry)Search_clear,
    .tp_new = Search_new,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ---------------------------------------------------------------- batches */

enum { BATCH_DONE, BATCH_CLASH, BATCH_BUDGET, BATCH_TIMEOUT };

/* Search below the forced options just placed, to `limit` solutions (< 1: all)
   within `max_nodes` (< 1: no budget), without the GIL (*ts holds the thread
   state), taking it back at check points only to handle signals on the main
   thread.  Returns the loop's last reason; R_CHECK means it stopped at a check
   point: the deadline passed (*late) or a signal handler raised (*interrupted). */
static int
search_placed(Run *r, long long limit, long long max_nodes, double deadline, int on_main,
              PyThreadState **ts, int *late, int *interrupted)
{
    run_start(r);
    r->budget = max_nodes < 1 ? -1 : max_nodes;
    r->limit = limit < 1 ? -1 : limit;
    r->pause_at = LLONG_MAX;
    for (;;) {
        int why = run_core(r);
        if (why != R_CHECK)
            return why;
        if (deadline > 0 && monotonic_seconds() > deadline) {
            *late = 1;
            return why;
        }
        if (!on_main)
            continue;
        PyEval_RestoreThread(*ts);
        if (PyErr_CheckSignals() < 0)
            *interrupted = 1;
        *ts = PyEval_SaveThread();
        if (*interrupted)
            return why;
    }
}

/* Table.batch(forced_sets, limit=1, max_nodes=-1): search the problem under each
   set of forced options, on one copy of the links, without the GIL.  For each
   set: place the forced options (a clash: nothing searched), count the solutions
   up to `limit` keeping the first, then undo everything.  Answers, node counts
   and budgets are those of Search(..., mode="count", forced=set). */
static PyObject *
Table_batch(TableObject *t, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"forced_sets", "limit", "max_nodes", "labels", "timeout", NULL};
    PyObject *sets, *labels = Py_None;
    long long limit = 1, max_nodes = -1;
    double timeout = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|LLOd:batch", kwlist, &sets, &limit,
                                     &max_nodes, &labels, &timeout))
        return NULL;
    if (labels != Py_None && (!PyTuple_Check(labels)
                              || PyTuple_GET_SIZE(labels) != t->n_options)) {
        PyErr_SetString(PyExc_ValueError, "labels must be a tuple of one label per option");
        return NULL;
    }
    Sets forced;
    if (read_sets(t, sets, "forced_sets must be a sequence of sequences of option indices",
                  &forced) < 0)
        return NULL;
    Py_ssize_t count = forced.count;
    const int *start = forced.start;
    int *all = forced.at;
    for (int k = 0; k < start[count]; k++)      /* where the search places each */
        all[k] = OFF(t->first[all[k]]);

    Run run, *r = &run;
    long long *found = (long long *)PyMem_Malloc(((size_t)count + 1) * 2 * sizeof(long long));
    double *secs = (double *)PyMem_Malloc(((size_t)count + 1) * sizeof(double));
    int *status = (int *)PyMem_Malloc(((size_t)count + 1) * sizeof(int));
    size_t width = (size_t)t->N1 + 2;
    if (t->multi) {
        long long d = 0;
        for (int i = 1; i <= t->N1; i++)
            d += t->BOUND[i];
        width = (size_t)((d < t->n_options ? d : t->n_options) + t->N1 + 2);
    }
    int *firsts = (int *)PyMem_Malloc(((size_t)count * width + 1) * sizeof(int));
    int *first_len = (int *)PyMem_Malloc(((size_t)count + 1) * sizeof(int));
    if (found == NULL || firsts == NULL || first_len == NULL || secs == NULL || status == NULL
        || run_alloc(r, t) < 0) {
        PyMem_Free(found);
        PyMem_Free(secs);
        PyMem_Free(status);
        PyMem_Free(firsts);
        PyMem_Free(first_len);
        free_sets(&forced);
        return PyErr_NoMemory();
    }
    long long *nodes_of = found + count + 1;
    r->mode = MODE_COUNT;
    r->keep_first = 1;
    int broken = 0, interrupted = 0, late = 0;
    /* signals are handled on the main thread only: elsewhere a check point needs
       no GIL (see drive) */
    int on_main = PyThread_get_thread_ident() == main_thread;
    double deadline = timeout > 0 ? monotonic_seconds() + timeout : 0.0;
    PyThreadState *ts = PyEval_SaveThread();
    for (Py_ssize_t k = 0; k < count && !broken && !interrupted; k++) {
        int *first = firsts + k * width;
        double began = monotonic_seconds();
        first_len[k] = -1;
        r->updates = 0;
        if (late || (deadline > 0 && began > deadline)) {
            late = 1;                           /* out of time: not searched */
            found[k] = nodes_of[k] = 0;
            status[k] = BATCH_TIMEOUT;
            secs[k] = 0.0;
            continue;
        }
        int placed = place_forced(r, all + start[k], (int)(start[k + 1] - start[k]));
        if (placed != PLACED) {
            run_reset(r);
            found[k] = 0;
            nodes_of[k] = placed == DEAD;       /* a dead root is one node */
            status[k] = placed == CLASH ? BATCH_CLASH : BATCH_DONE;
            secs[k] = monotonic_seconds() - began;
            continue;
        }
        int why = search_placed(r, limit, max_nodes, deadline, on_main, &ts, &late,
                                &interrupted);
        if (why == R_BROKEN)
            broken = 1;
        found[k] = r->solutions;
        status[k] = late ? BATCH_TIMEOUT : why == R_BUDGET ? BATCH_BUDGET : BATCH_DONE;
        nodes_of[k] = r->nodes - late;      /* stopped at X5: x_l counted, not tried */
        if (r->solutions > 0) {
            first_len[k] = r->first_len;
            memcpy(first, r->first_x, (size_t)r->first_len * sizeof(int));
        }
        run_reset(r);
        secs[k] = monotonic_seconds() - began;
    }
    PyEval_RestoreThread(ts);
    PyObject *result = NULL;
    if (interrupted)
        goto done;
    if (broken) {
        PyErr_SetString(PyExc_RuntimeError, "dlx._core: inconsistent links (a bug)");
        goto done;
    }
    result = PyList_New(count);
    if (result == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *sol;
        if (first_len[k] < 0) {
            sol = Py_None;
            Py_INCREF(sol);
        }
        else {
            sol = options_of(r, firsts + k * width, first_len[k], labels);
        }
        PyObject *item = sol == NULL ? NULL : Py_BuildValue("(LLNid)", found[k], nodes_of[k],
                                                            sol, status[k], secs[k]);
        if (item == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, k, item);
    }
done:
    PyMem_Free(found);
    PyMem_Free(secs);
    PyMem_Free(status);
    PyMem_Free(firsts);
    PyMem_Free(first_len);
    free_sets(&forced);
    PyMem_Free(r->block);
    return result;
}

/* --------------------------------------------------------------- minimize */

/* Table.minimize (dlx.minimal has the reference, step by step): drop groups of
   forced options while the problem under the options left keeps exactly one
   solution.  Two phases, as the reference: groups whose options are implied by
   the others go without a search; each other group is searched once. */

/* The nodes of option o in the table's layout: indices [*lo, *hi). */
static void
option_span(const TableObject *t, int o, int *lo, int *hi)
{
    int a = t->first[o], b = a;
    while (t->TOP[a - 1] > 0)
        a--;
    while (t->TOP[b] > 0)
        b++;
    *lo = a;
    *hi = b;
}

/* Add (delta 1) or take away (-1) option o to or from the forced options, as
   cov[i] (how many of them have item i) and hue[i] (their colour there) see them. */
static void
force(const TableObject *t, int *cov, int *hue, int o, int delta)
{
    int lo, hi;
    option_span(t, o, &lo, &hi);
    for (int p = lo; p < hi; p++) {
        int i = t->TOP[p];
        if (delta > 0 && cov[i] == 0)
            hue[i] = t->COL[p];
        cov[i] += delta;
    }
}

/* Does the option of node x clash with the forced options: a primary item of
   theirs, or a secondary one where they or it have no colour or another one? */
static int
clashes(const TableObject *t, const int *cov, const int *hue, int x)
{
    int q = x;
    do {
        int i = t->TOP[q];
        if (cov[i] && (i <= t->N1 || t->COL[q] == 0 || t->COL[q] != hue[i]))
            return 1;
        q++;
        if (t->TOP[q] <= 0)             /* a spacer: back to the option's first node */
            q = t->U[q];
    } while (q != x);
    return 0;
}

/* Are the forced options (as cov and hue count them) a whole solution: every primary
   item covered once, and at a secondary item held twice or more, the same colour? */
static int
whole(const TableObject *t, const int *cov, const int *hue, const int *opts, int n)
{
    for (int i = 1; i <= t->N1; i++)
        if (cov[i] != 1)
            return 0;
    for (int k = 0; k < n; k++) {
        int lo, hi;
        option_span(t, opts[k], &lo, &hi);
        for (int p = lo; p < hi; p++) {
            int i = t->TOP[p];
            if (i > t->N1 && cov[i] > 1 && (t->COL[p] == 0 || t->COL[p] != hue[i]))
                return 0;
        }
    }
    return 1;
}

/* Is option o (not forced) implied by the forced options: does one of its
   primary items have no other option that does not clash with them? */
static int
implied(const TableObject *t, const int *cov, const int *hue, int o)
{
    int lo, hi;
    option_span(t, o, &lo, &hi);
    for (int p = lo; p < hi; p++) {
        int i = t->TOP[p], open = 0;
        if (i > t->N1)
            continue;
        for (int x = t->D[i]; x != i && !open; x = t->D[x])
            open = t->OPT[x] != o && !clashes(t, cov, hue, x);
        if (!open)
            return 1;
    }
    return 0;
}

/* Take option o out of its items' lists before a search (unexclude or run_reset puts
   it back). */
static void
exclude(Run *r, int o)
{
    char *nd = (char *)r->nd;
    int lo, hi;
    option_span(r->t, o, &lo, &hi);
    for (int p = lo; p < hi; p++) {
        Node *n = AT(nd, OFF(p));
        AT(nd, n->u)->d = n->d;
        AT(nd, n->d)->u = n->u;
        if (--LEN_OF(nd, n->t) == 0)
            r->zeros++;
    }
}

enum { KEPT = 1, DROPPED = 2 };
enum { MIN_DONE, MIN_NOT_ONE, MIN_BUDGET };

/* The groups of each option of set 0 of `of` alone, in order; -1 on no memory. */
static int
each_alone(const Sets *of, Sets *s)
{
    int n = of->start[1];
    s->count = n;
    s->at = (int *)PyMem_Malloc(((size_t)n + 1) * sizeof(int));
    s->start = (int *)PyMem_Malloc(((size_t)n + 1) * sizeof(int));
    if (s->at == NULL || s->start == NULL) {
        free_sets(s);
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k <= n; k++)
        s->start[k] = k;
    if (n)
        memcpy(s->at, of->at, (size_t)n * sizeof(int));
    return 0;
}

/* The first nodes of the forced options still kept, in order, less group g's
   (g = -2: all of them). */
static int
kept_but(const TableObject *t, const int *opts, int n, const int *state, const int *group_of,
         int g, int *out)
{
    int m = 0;
    for (int k = 0; k < n; k++)
        if (state[opts[k]] == KEPT && group_of[opts[k]] != g)
            out[m++] = OFF(t->first[opts[k]]);
    return m;
}

/* Must group g stay because an unavoidable set meeting it keeps no option outside
   it?  sets_of[of_at[o] .. of_at[o + 1]) are the sets that hold option o. */
static int
unavoidable(const Sets *u, const int *of_at, const int *sets_of, const Sets *groups, int g,
            const int *state, const int *group_of)
{
    for (int k = groups->start[g]; k < groups->start[g + 1]; k++) {
        int o = groups->at[k];
        for (int j = of_at[o]; j < of_at[o + 1]; j++) {
            int s = sets_of[j], left = 0;
            for (int x = u->start[s]; x < u->start[s + 1] && !left; x++)
                left = state[u->at[x]] == KEPT && group_of[u->at[x]] != g;
            if (!left)
                return 1;
        }
    }
    return 0;
}

/* One search under the kept forced options less group g (a group of one: with its
   option excluded), to `limit` solutions: how many were found; *nodes grows. */
static long long
search_without(Run *r, const Sets *groups, int g, const int *opts, int n, const int *state,
               const int *group_of, int *place, long long limit, long long max_nodes,
               int on_main, PyThreadState **ts, int *why, int *interrupted, long long *nodes)
{
    int late = 0, m = kept_but(r->t, opts, n, state, group_of, g, place);
    long long found = 0;
    if (g >= 0 && groups->start[g + 1] - groups->start[g] == 1)
        exclude(r, groups->at[groups->start[g]]);
    int placed = place_forced(r, place, m);
    *why = R_DONE;
    if (placed == PLACED) {
        *why = search_placed(r, limit, max_nodes, 0.0, on_main, ts, &late, interrupted);
        found = r->solutions;
        *nodes += r->nodes;
    }
    else
        *nodes += placed == DEAD;
    run_reset(r);
    return found;
}

/* ----- phase 2 without re-placing: the forced options of the checks, divided and
   conquered.  Check j (of hard group j) searches under the kept options of no group,
   the hard groups before j that stayed, and every hard group after j.  Going through
   the checks in order, solve(a, b) is entered with those of the groups before a that
   stayed and of the groups from b on in place: it places the groups [mid, b) for the
   first half, takes them away again (in reverse: dancing links undo in reverse), and
   places those of [a, mid) that stayed for the second half.  Each group is placed
   about log2(checks) times in all, instead of once per check.  A search that ends
   has undone itself; one that stops early (at the solution it looked for) is
   unwound, level by level.  Under bounds (Algorithm M) nothing is placed ahead:
   each check places its forced options afresh (search_without). */

/* Place option o as X5 would (cover its first primary item, commit the others). */
static void
place_option(Run *r, int o)
{
    Ctx c = {r->nd, r->LL, r->RL, r->COL, r->t->W, r->zeros};
    const char *nd = (const char *)r->nd;
    const int colored = r->t->colored, f = OFF(r->t->first[o]);
    cover(&c, IDX(AT(nd, f)->t), colored);
    for (int q = next_node(nd, f); q != f; q = next_node(nd, q))
        commit(&c, q, colored);
    r->zeros = c.zeros;
    r->level++;
}

/* Exactly undo place_option(r, o). */
static void
unplace_option(Run *r, int o)
{
    Ctx c = {r->nd, r->LL, r->RL, r->COL, r->t->W, r->zeros};
    const char *nd = (const char *)r->nd;
    const int colored = r->t->colored, f = OFF(r->t->first[o]);
    for (int q = prev_node(nd, f); q != f; q = prev_node(nd, q))
        uncommit(&c, q, colored);
    uncover(&c, IDX(AT(nd, f)->t), colored);
    r->zeros = c.zeros;
    r->level--;
}

/* Undo what a search that stopped early (at a solution, or out of budget at X5 with
   the item of its level covered) did below its root, level by level (X6, X7). */
static void
unwind(Run *r, int why)
{
    Ctx c = {r->nd, r->LL, r->RL, r->COL, r->t->W, r->zeros};
    const char *nd = (const char *)r->nd;
    const int colored = r->t->colored;
    if (why == R_BUDGET)
        uncover(&c, r->i, colored);
    while (r->level > r->base) {
        int xl = r->x[--r->level];
        uncommit_option(&c, xl, colored);
        uncover(&c, IDX(AT(nd, xl)->t), colored);
    }
    r->zeros = c.zeros;
}

/* Put back option o after exclude(r, o), in reverse. */
static void
unexclude(Run *r, int o)
{
    char *nd = (char *)r->nd;
    int lo, hi;
    option_span(r->t, o, &lo, &hi);
    for (int p = hi - 1; p >= lo; p--) {
        Node *n = AT(nd, OFF(p));
        AT(nd, n->u)->d = OFF(p);
        AT(nd, n->d)->u = OFF(p);
        r->zeros -= LEN_OF(nd, n->t)++ == 0;
    }
}

typedef struct {
    Run *r;
    const Sets *groups, *u;
    const int *of_at, *sets_of, *hard, *group_of;
    int *state;
    long long max_nodes, searches, nodes, unknown;
    int on_main, interrupted, broken;
    PyThreadState *ts;
    int left, keep;             /* forced options kept; fewest to keep */
    const int *opts;            /* (under bounds) the forced options, their count, and */
    int n;                      /* room for their first nodes: each check places them */
    int *place;                 /* afresh, as Algorithm M's tweaks need */
} Pass;

/* Place (undo 0) or take away (undo 1, in reverse) the options of the hard groups
   hard[a..b), all of them (stayed 0) or those that stayed (stayed 1). */
static void
place_groups(Pass *p, int a, int b, int stayed, int undo)
{
    const Sets *gs = p->groups;
    if (p->broken || p->interrupted || p->r->t->multi)  /* stopped (the links are given
                                                           up), or placed by each check */
        return;
    for (int j = undo ? b - 1 : a; undo ? j >= a : j < b; j += undo ? -1 : 1) {
        int g = p->hard[j], lo = gs->start[g], hi = gs->start[g + 1];
        if (stayed && p->state[gs->at[lo]] != KEPT)
            continue;
        for (int k = undo ? hi - 1 : lo; undo ? k >= lo : k < hi; k += undo ? -1 : 1) {
            if (undo)
                unplace_option(p->r, gs->at[k]);
            else
                place_option(p->r, gs->at[k]);
        }
    }
}

/* Check hard group j against the options in place. */
static void
check(Pass *p, int j)
{
    Run *r = p->r;
    const Sets *gs = p->groups;
    int g = p->hard[j], lo = gs->start[g], size = gs->start[g + 1] - lo, single = size == 1;
    if (p->left - size < p->keep
        || unavoidable(p->u, p->of_at, p->sets_of, gs, g, p->state, p->group_of))
        return;
    int late = 0, why;
    long long found;
    p->searches++;
    if (r->t->multi) {
        found = search_without(r, gs, g, p->opts, p->n, p->state, p->group_of, p->place,
                               single ? 1 : 2, p->max_nodes, p->on_main, &p->ts, &why,
                               &p->interrupted, &p->nodes);
    }
    else {
        if (single)
            exclude(r, gs->at[lo]);
        why = search_placed(r, single ? 1 : 2, p->max_nodes, 0.0, p->on_main, &p->ts, &late,
                            &p->interrupted);
        found = r->solutions;
        p->nodes += r->nodes;
        if (why == R_SOLUTION || why == R_BUDGET)   /* it stopped early: back to its root */
            unwind(r, why);
        if (single && why != R_BROKEN && !p->interrupted)
            unexclude(r, gs->at[lo]);
    }
    p->broken = why == R_BROKEN;
    if (why == R_BUDGET)
        p->unknown++;
    else if (!p->interrupted && found == (single ? 0 : 1)) {
        for (int k = lo; k < gs->start[g + 1]; k++)
            p->state[gs->at[k]] = DROPPED;
        p->left -= size;
    }
}

/* Check the hard groups a..b in order (see above). */
static void
solve(Pass *p, int a, int b)
{
    if (p->interrupted || p->broken)
        return;
    if (b - a == 1) {
        check(p, a);
        return;
    }
    int mid = a + (b - a) / 2;
    place_groups(p, mid, b, 0, 0);
    solve(p, a, mid);
    place_groups(p, mid, b, 0, 1);
    place_groups(p, a, mid, 1, 0);
    solve(p, mid, b);
    place_groups(p, a, mid, 1, 1);
}

/* Table.minimize(forced, groups, max_nodes=-1, unavoidable=())
       -> (status, found, kept, searches, nodes, unknown) */
static PyObject *
Table_minimize(TableObject *t, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"forced", "groups", "max_nodes", "unavoidable", "keep", NULL};
    PyObject *forced_seq, *groups_seq, *sets_seq = NULL, *result = NULL;
    long long max_nodes = -1;
    int keep = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|LOi:minimize", kwlist, &forced_seq,
                                     &groups_seq, &max_nodes, &sets_seq, &keep))
        return NULL;
    int n_opt = t->n_options;
    Sets forced = {NULL, NULL, 0}, groups = {NULL, NULL, 0}, u = {NULL, NULL, 0};
    int *state = NULL, *group_of = NULL, *cov = NULL, *hue = NULL, *place = NULL;
    int *hard = NULL, *mark = NULL, *of_at = NULL, *sets_of = NULL;
    Run run, *r = &run;
    r->block = NULL;
    PyObject *one = PyTuple_Pack(1, forced_seq);
    if (one == NULL)
        return NULL;
    int bad = read_sets(t, one, "forced must be a sequence of option indices", &forced) < 0
        || (groups_seq == Py_None ? each_alone(&forced, &groups)
            : read_sets(t, groups_seq, "groups must be sequences of option indices", &groups)) < 0
        || (sets_seq != NULL && read_sets(t, sets_seq, "unavoidable must be sequences of"
                                          " option indices", &u) < 0);
    Py_DECREF(one);
    if (bad)
        goto done;
    const int *opts = forced.at;
    int n = forced.start[1];
    state = (int *)PyMem_Calloc((size_t)n_opt + 1, sizeof(int));
    group_of = (int *)PyMem_Malloc(((size_t)n_opt + 1) * sizeof(int));
    cov = (int *)PyMem_Calloc((size_t)t->N + 2, sizeof(int));
    hue = (int *)PyMem_Calloc((size_t)t->N + 2, sizeof(int));
    place = (int *)PyMem_Malloc(((size_t)n + 1) * sizeof(int));
    hard = (int *)PyMem_Malloc(((size_t)groups.count + 1) * sizeof(int));
    mark = (int *)PyMem_Calloc((size_t)n_opt + 1, sizeof(int));
    of_at = (int *)PyMem_Calloc((size_t)n_opt + 2, sizeof(int));
    sets_of = (int *)PyMem_Malloc(((size_t)(u.count ? u.start[u.count] : 0) + 1) * sizeof(int));
    if (state == NULL || group_of == NULL || cov == NULL || hue == NULL || place == NULL
        || hard == NULL || mark == NULL || of_at == NULL || sets_of == NULL
        || run_alloc(r, t) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (int o = 0; o < n_opt; o++)
        group_of[o] = -1;
    for (int k = 0; k < n; k++) {
        if (state[opts[k]]) {
            PyErr_Format(PyExc_ValueError, "option %d is forced twice", opts[k]);
            goto done;
        }
        state[opts[k]] = KEPT;
    }
    for (int g = 0; g < groups.count; g++) {
        if (groups.start[g] == groups.start[g + 1]) {
            PyErr_SetString(PyExc_ValueError, "a group of options to drop is empty");
            goto done;
        }
        for (int k = groups.start[g]; k < groups.start[g + 1]; k++) {
            int o = groups.at[k];
            if (state[o] != KEPT || group_of[o] >= 0) {
                PyErr_Format(PyExc_ValueError, state[o] != KEPT ? "option %d of a group is"
                             " not forced" : "option %d is in two groups", o);
                goto done;
            }
            group_of[o] = g;
        }
    }
    /* the unavoidable sets by option: sets_of[of_at[o] .. of_at[o + 1]) hold o */
    for (int k = 0; k < (u.count ? u.start[u.count] : 0); k++)
        of_at[u.at[k] + 1]++;
    for (int o = 0; o < n_opt; o++)
        of_at[o + 1] += of_at[o];
    for (int s = 0; s < u.count; s++)
        for (int k = u.start[s]; k < u.start[s + 1]; k++)
            sets_of[of_at[u.at[k]] + mark[u.at[k]]++] = s;
    memset(mark, 0, ((size_t)n_opt + 1) * sizeof(int));

    long long searches = 1, nodes = 0, unknown = 0;
    int status = MIN_DONE, interrupted = 0, why, n_hard = 0;
    int on_main = PyThread_get_thread_ident() == main_thread;
    r->mode = MODE_COUNT;
    PyThreadState *ts = PyEval_SaveThread();
    /* the forced options must have exactly one solution.  When they are a whole one,
       their search would count one node (its root: nothing left to cover) and stop
       there, so it is not run. */
    long long counted;
    if (!t->multi) {
        for (int k = 0; k < n; k++)
            force(t, cov, hue, opts[k], 1);
    }
    if (!t->multi && whole(t, cov, hue, opts, n)) {
        counted = nodes = 1;
        why = R_DONE;
    }
    else
        counted = search_without(r, &groups, -2, opts, n, state, group_of, place, 2,
                                 max_nodes, on_main, &ts, &why, &interrupted, &nodes);
    if (why == R_BUDGET)
        status = MIN_BUDGET;
    else if (counted != 1)
        status = MIN_NOT_ONE;
    if (status != MIN_DONE || interrupted || why == R_BROKEN)
        goto searched;
    /* groups implied by the options left go without a search (not under bounds); a
       group that would leave fewer than `keep` options stays */
    int left = n;
    for (int g = 0; g < groups.count; g++) {
        int lo = groups.start[g], hi = groups.start[g + 1], back = 0, progress = 1;
        if (t->multi) {
            hard[n_hard++] = g;
            continue;
        }
        if (left - (hi - lo) < keep)
            continue;
        for (int k = lo; k < hi; k++)
            force(t, cov, hue, groups.at[k], -1);
        while (progress && back < hi - lo) {
            progress = 0;
            for (int k = lo; k < hi; k++) {
                int o = groups.at[k];
                if (!mark[o] && implied(t, cov, hue, o)) {
                    force(t, cov, hue, o, 1);
                    mark[o] = progress = 1;
                    back++;
                }
            }
        }
        for (int k = lo; k < hi; k++) {
            int o = groups.at[k];
            if (back == hi - lo) {          /* all put back: the group goes */
                force(t, cov, hue, o, -1);
                state[o] = DROPPED;
                left--;
            }
            else if (!mark[o])              /* not: the group stays */
                force(t, cov, hue, o, 1);
            mark[o] = 0;
        }
        if (back < hi - lo)
            hard[n_hard++] = g;
    }
    /* each other group, unless an unavoidable set keeps it, is searched: one option
       goes when no solution avoids it (a second solution without it cannot have
       it); several go when the options left have one solution */
    Pass pass = {r, &groups, &u, of_at, sets_of, hard, group_of, state, max_nodes,
                 searches, nodes, 0, on_main, 0, 0, ts, left, keep, opts, n, place};
    if (!t->multi) {
        for (int h = 0; h < n_hard; h++)
            mark[hard[h]] = 1;              /* (mark: now by group) */
        for (int k = 0; k < n; k++)         /* every option kept but those of hard groups */
            if (state[opts[k]] == KEPT && (group_of[opts[k]] < 0 || !mark[group_of[opts[k]]]))
                place_option(r, opts[k]);
    }
    if (n_hard)
        solve(&pass, 0, n_hard);
    searches = pass.searches;
    nodes = pass.nodes;
    unknown = pass.unknown;
    interrupted = pass.interrupted;
    why = pass.broken ? R_BROKEN : R_DONE;
    ts = pass.ts;
searched:
    PyEval_RestoreThread(ts);
    if (interrupted)
        goto done;
    if (why == R_BROKEN) {
        PyErr_SetString(PyExc_RuntimeError, "dlx._core: inconsistent links (a bug)");
        goto done;
    }
    PyObject *kept = PyList_New(0);
    if (kept == NULL)
        goto done;
    for (int k = 0; k < n; k++) {
        if (state[opts[k]] != KEPT)
            continue;
        PyObject *o = PyLong_FromLong(opts[k]);
        if (o == NULL || PyList_Append(kept, o) < 0) {
            Py_XDECREF(o);
            Py_DECREF(kept);
            goto done;
        }
        Py_DECREF(o);
    }
    result = Py_BuildValue("(iLNLLL)", status, counted, kept, searches, nodes, unknown);
done:
    free_sets(&forced);
    free_sets(&groups);
    free_sets(&u);
    PyMem_Free(state);
    PyMem_Free(group_of);
    PyMem_Free(cov);
    PyMem_Free(hue);
    PyMem_Free(place);
    PyMem_Free(hard);
    PyMem_Free(mark);
    PyMem_Free(of_at);
    PyMem_Free(sets_of);
    PyMem_Free(r->block);
    return result;
}

static PyObject *
Table_get_nodes(TableObject *t, void *closure)
{
    return PyLong_FromLong(t->M);
}

static PyObject *
Table_get_colored(TableObject *t, void *closure)
{
    return PyBool_FromLong(t->colored);
}

static PyMethodDef Table_methods[] = {
    {"from_entries", (PyCFunction)(void (*)(void))Table_from_entries,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "Table.from_entries(N1, N, entries, BOUND=None, SLACK=None)\n\n"
     "The Table of numbered options (the entries buffer of dlx._core.scan), laid out\n"
     "as dlx.links.Links.build lays them out."},
    {"batch", (PyCFunction)(void (*)(void))Table_batch, METH_VARARGS | METH_KEYWORDS,
     "batch(forced_sets, limit=1, max_nodes=-1, labels=None, timeout=-1.0)\n"
     "    -> [(count, nodes, first, status, seconds), ...]\n\n"
     "Search under each set of forced options (option indices) without the GIL: count\n"
     "is the number of solutions found up to limit, nodes the search's nodes, first the\n"
     "first solution (its labels, with labels a tuple of one per option, else its option\n"
     "indices) or None, status 0 (done), 1 (the forced options clash), 2 (the node\n"
     "budget ran out) or 3 (the batch's time, timeout seconds, ran out: this set was\n"
     "stopped or not searched), seconds the time it took."},
    {"minimize", (PyCFunction)(void (*)(void))Table_minimize, METH_VARARGS | METH_KEYWORDS,
     "minimize(forced, groups, max_nodes=-1, unavoidable=(), keep=0)\n"
     "    -> (status, found, kept, searches, nodes, unknown)\n\n"
     "Drop each group of forced options (option indices) whose removal leaves exactly\n"
     "one solution (dlx.minimal.minimize, the reference); a group that would leave an\n"
     "unavoidable set without a kept option stays, unsearched.  status 0: done; 1: the\n"
     "forced options have `found` solutions, not one (nothing dropped); 2: that check\n"
     "ran out of max_nodes.  kept: the forced options left, in order."},
    {NULL},
};

static PyGetSetDef Table_getset[] = {
    {"nodes", (getter)Table_get_nodes, NULL, "number of nodes (headers, spacers, options)", NULL},
    {"colored", (getter)Table_get_colored, NULL, "True when some node has a colour", NULL},
    {NULL},
};

static PyTypeObject Table_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "dlx._core.Table",
    .tp_basicsize = sizeof(TableObject),
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Table(N1, N, LLINK, RLINK, ULINK, DLINK, LEN, TOP, COLOR, OPT, n_options)\n\n"
              "The validated arrays of a dlx.links.Links master table, in C.",
    .tp_new = Table_new,
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
};

/* ------------------------------------------------------------------- scan */

/* A growable int32 buffer. */
typedef struct {
    int32_t *v;
    Py_ssize_t n, cap;
} Ints;

static int
ints_push(Ints *a, int32_t x)
{
    if (a->n == a->cap) {
        Py_ssize_t cap = a->cap ? 2 * a->cap : 1024;
        int32_t *v = (int32_t *)PyMem_Realloc(a->v, (size_t)cap * sizeof(int32_t));
        if (v == NULL)
            return -1;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

/* What scan keeps while it walks the options. */
typedef struct {
    PyObject *codes;    /* item -> +k for primary item k, -j for secondary item j */
    PyObject *firsts;   /* the items numbered as they appeared (primary not given) */
    PyTypeObject *colored;
    int known;          /* the primary items were given: a new item is unknown */
    int n1;             /* primary items numbered so far */
    Ints entries;       /* per option: its length, then its items' codes */
    Ints seen;          /* per item code slot: the last option (1, 2, ...) naming it */
} Scan;

enum { SCAN_OK = 0, SCAN_ERROR = -1, SCAN_IRREGULAR = -2 };

/* The code of one item of option o, numbering a new one; SCAN_IRREGULAR when the
   item is coloured, unhashable, unknown or already in option o. */
static int
scan_item(Scan *s, PyObject *item, int32_t o, int32_t *code)
{
    if (PyObject_TypeCheck(item, s->colored))
        return SCAN_IRREGULAR;
    PyObject *found = PyDict_GetItemWithError(s->codes, item);   /* borrowed */
    long c;
    if (found != NULL)
        c = PyLong_AsLong(found);
    else if (PyErr_Occurred() || s->known)
        return SCAN_IRREGULAR;
    else {
        c = ++s->n1;
        PyObject *number = PyLong_FromLong(c);
        int failed = number == NULL || PyDict_SetItem(s->codes, item, number) < 0 ||
                     PyList_Append(s->firsts, item) < 0;
        Py_XDECREF(number);
        if (failed)
            return SCAN_IRREGULAR;
    }
    Py_ssize_t slot = c > 0 ? 2 * c : -2 * c + 1;
    while (s->seen.n <= slot)
        if (ints_push(&s->seen, 0) < 0)
            return SCAN_ERROR;
    if (s->seen.v[slot] == o)
        return SCAN_IRREGULAR;              /* twice in this option */
    s->seen.v[slot] = o;
    *code = (int32_t)c;
    return ints_push(&s->entries, *code) < 0 ? SCAN_ERROR : SCAN_OK;
}

/* One option: its items as a tuple, stored in out[label]. */
static int
scan_option(Scan *s, PyObject *label, PyObject *value, int32_t o, PyObject *out)
{
    PyObject *tup;
    if (PyTuple_CheckExact(value)) {
        tup = value;
        Py_INCREF(tup);
    }
    else if (PyList_CheckExact(value))
        tup = PyList_AsTuple(value);
    else
        return SCAN_IRREGULAR;
    if (tup == NULL)
        return SCAN_ERROR;
    Py_ssize_t len = PyTuple_GET_SIZE(tup);
    int status = len > INT32_MAX / 2 ? SCAN_IRREGULAR
                 : ints_push(&s->entries, (int32_t)len) < 0 ? SCAN_ERROR : SCAN_OK;
    for (Py_ssize_t j = 0; j < len && status == SCAN_OK; j++) {
        int32_t code;
        status = scan_item(s, PyTuple_GET_ITEM(tup, j), o, &code);
    }
    if (status == SCAN_OK && PyDict_SetItem(out, label, tup) < 0)
        status = SCAN_ERROR;
    Py_DECREF(tup);
    return status;
}

/* Number the items of `items` (primary if sign > 0, secondary if < 0) 1, 2, ...;
   SCAN_IRREGULAR if one is unhashable or named twice. */
static int
scan_declare(Scan *s, PyObject *items, int sign)
{
    Py_ssize_t before = PyDict_GET_SIZE(s->codes), n = PyTuple_GET_SIZE(items);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *number = PyLong_FromSsize_t(sign * (k + 1));
        int failed = number == NULL ||
                     PyDict_SetItem(s->codes, PyTuple_GET_ITEM(items, k), number) < 0;
        Py_XDECREF(number);
        if (failed)
            return SCAN_IRREGULAR;
    }
    return PyDict_GET_SIZE(s->codes) == before + n ? SCAN_OK : SCAN_IRREGULAR;
}

/* scan(options, secondary, primary, colored) -> (options, primary, entries, skipped)
   or None

   The fast path of ExactCover's constructor, for the common case: a dict of
   tuples or lists of plain items (no `colored` entry, every item hashable, none
   twice in an option, and with primary given, none unknown).  It returns the
   options as a dict of tuples, the primary items (those given, or every item
   that is not secondary in order of first appearance) and the options
   numbered for Table.from_entries: for each option its length, then its items'
   numbers (primary 1..N1, secondary N1+1..N), and the indices of the options
   with no primary item (never chosen).  Anything else returns None, and
   the constructor checks the options itself and names the fault. */
static PyObject *
core_scan(PyObject *module, PyObject *args)
{
    PyObject *options, *secondary, *primary, *colored;
    if (!PyArg_ParseTuple(args, "OO!OO:scan", &options, &PyTuple_Type, &secondary, &primary,
                          &colored))
        return NULL;
    if (!PyDict_CheckExact(options) || !PyType_Check(colored) ||
        (primary != Py_None && !PyTuple_Check(primary)))
        Py_RETURN_NONE;
    Scan s = {PyDict_New(), PyList_New(0), (PyTypeObject *)colored, primary != Py_None, 0,
              {NULL, 0, 0}, {NULL, 0, 0}};
    PyObject *out = PyDict_New(), *result = NULL;
    int status = s.codes == NULL || s.firsts == NULL || out == NULL ? SCAN_ERROR : SCAN_OK;
    if (status == SCAN_OK && s.known) {
        status = scan_declare(&s, primary, 1);
        s.n1 = (int)PyTuple_GET_SIZE(primary);
    }
    if (status == SCAN_OK)
        status = scan_declare(&s, secondary, -1);
    Py_ssize_t pos = 0;
    PyObject *label, *value;
    int32_t o = 0;
    while (status == SCAN_OK && PyDict_Next(options, &pos, &label, &value)) {
        Py_INCREF(label);     /* an item's __eq__ may change the dict under us */
        Py_INCREF(value);
        status = scan_option(&s, label, value, ++o, out);
        Py_DECREF(label);
        Py_DECREF(value);
    }
    PyObject *skipped = status == SCAN_OK ? PyList_New(0) : NULL;
    if (status == SCAN_OK && skipped != NULL) {
        /* number the secondary items after the primary ones; note the options
           without a primary item (never chosen) */
        int32_t *e = s.entries.v;
        for (Py_ssize_t k = 0, opt = 0; k < s.entries.n; k += e[k] + 1, opt++) {
            int has_primary = 0;
            for (int32_t j = 1; j <= e[k]; j++) {
                if (e[k + j] < 0)
                    e[k + j] = s.n1 - e[k + j];
                else
                    has_primary = 1;
            }
            if (!has_primary) {
                PyObject *index = PyLong_FromSsize_t(opt);
                int failed = index == NULL || PyList_Append(skipped, index) < 0;
                Py_XDECREF(index);
                if (failed)
                    break;
            }
        }
        PyObject *prim = s.known ? Py_NewRef(primary) : PyList_AsTuple(s.firsts);
        PyObject *bytes = PyBytes_FromStringAndSize(
            (const char *)e, s.entries.n * (Py_ssize_t)sizeof(int32_t));
        if (prim != NULL && bytes != NULL && !PyErr_Occurred())
            result = PyTuple_Pack(4, out, prim, bytes, skipped);
        Py_XDECREF(prim);
        Py_XDECREF(bytes);
    }
    Py_XDECREF(skipped);
    if (status == SCAN_IRREGULAR) {
        PyErr_Clear();
        result = Py_NewRef(Py_None);
    }
    else if (result == NULL && !PyErr_Occurred())
        PyErr_NoMemory();
    Py_XDECREF(s.codes);
    Py_XDECREF(s.firsts);
    Py_XDECREF(out);
    PyMem_Free(s.entries.v);
    PyMem_Free(s.seen.v);
    return result;
}

static PyMethodDef core_functions[] = {
    {"scan", core_scan, METH_VARARGS,
     "scan(options, secondary, primary, colored)\n"
     "    -> (options, primary, entries, skipped) or None\n\n"
     "ExactCover's fast path: the options of a dict of plain item lists, checked and\n"
     "numbered in one pass (None: let the constructor check them itself)."},
    {NULL},
};

/* ----------------------------------------------------------------- module */

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "dlx._core",
    .m_doc = "The compiled search of dlx (the same algorithm as dlx.search.run).",
    .m_size = -1,
    .m_methods = core_functions,
};

PyMODINIT_FUNC
PyInit__core(void)
{
    if (PyType_Ready(&Table_Type) < 0 || PyType_Ready(&Search_Type) < 0)
        return NULL;
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *main = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
    PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
    Py_XDECREF(threading);
    Py_XDECREF(main);
    if (ident == NULL)
        return NULL;
    main_thread = PyLong_AsUnsignedLong(ident);
    Py_DECREF(ident);
    if (PyErr_Occurred())
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&Table_Type);
    if (PyModule_AddObject(m, "Table", (PyObject *)&Table_Type) < 0) {
        Py_DECREF(&Table_Type);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&Search_Type);
    if (PyModule_AddObject(m, "Search", (PyObject *)&Search_Type) < 0) {
        Py_DECREF(&Search_Type);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_NODES", INT_MAX / NODE) < 0 ||
        PyModule_AddIntConstant(m, "PROGRESS_EVERY", PROGRESS_EVERY) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
