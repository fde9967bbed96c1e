/* dlx._core: the search loop of dlx.search.run, compiled.
 *
 * One algorithm, two implementations: this file mirrors dlx/search.py step by
 * step (Knuth's Algorithm X/C, TAOCP 7.2.2.1, steps X2..X8 named below), so that
 * both engines visit the same nodes in the same order, count the same updates and
 * report the same solutions.  Knuth's one-letter names are used, as in
 * dlx/links.py, whose flat layout this module reads:
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
 * Objects:
 *   Table   the static, validated arrays of one problem (built once, cached by
 *           dlx.engine); it holds no Python references.
 *   Search  one search: its own copies of the dynamic arrays, an explicit stack and
 *           a resumable state machine.  Searches share nothing, so two threads can
 *           run two searches at once; the GIL is released during long stretches.
 *
 * Pausing: run_core() returns at a solution (mode "solutions", or the count limit),
 * at the end, when the node budget runs out, and at "check points" (every
 * PROGRESS_EVERY nodes, where the Python progress callback and the signal handlers
 * run with the GIL held).  Every pause is between two steps, and the search can be
 * resumed from it exactly, which is how dlx.solutions stays lazy.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PROGRESS_EVERY 4096          /* must equal dlx.search.PROGRESS_EVERY */
#define QUANTUM_UPDATES (1LL << 16)  /* work done holding the GIL before releasing it */

enum { MODE_COUNT = 0, MODE_SOLUTIONS = 1, MODE_BEST = 2 };
enum { R_SOLUTION, R_DONE, R_BUDGET, R_CHECK, R_BROKEN };
enum { RESUME_ENTER, RESUME_LEAVE, RESUME_X5 };
enum { ST_READY, ST_PAUSED, ST_DONE, ST_BUDGET, ST_FAILED };
#define CHECK_NODES 1
#define CHECK_QUANTUM 2

/* ------------------------------------------------------------------ Table */

typedef struct {
    PyObject_HEAD
    int N1, N;          /* primary items 1..N1, secondary N1+1..N */
    int M;              /* number of nodes (len(TOP)) */
    int n_options;
    int colored;
    int *block;         /* one allocation for all the arrays below */
    int *LL, *RL;       /* N+2 */
    int *LEN;           /* N+2 (one spare, never read for valid tables) */
    int *U, *D, *TOP, *COL, *OPT;   /* M */
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

static PyObject *
Table_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"N1", "N", "LLINK", "RLINK", "ULINK", "DLINK", "LEN", "TOP",
                             "COLOR", "OPT", "n_options", NULL};
    int N1, N, n_options;
    PyObject *ll, *rl, *ul, *dl, *len, *top, *col, *opt;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOOOOOOOi:Table", kwlist, &N1, &N, &ll,
                                     &rl, &ul, &dl, &len, &top, &col, &opt, &n_options))
        return NULL;
    if (N < 0 || N1 < 0 || N1 > N || N > INT_MAX / 4 - 4 || n_options < 0) {
        PyErr_SetString(PyExc_ValueError, "Table: bad item counts");
        return NULL;
    }
    Py_ssize_t M = PySequence_Size(top);
    if (M < 0)
        return NULL;
    if (M < N + 2 || M > INT_MAX / 4) {
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
        return PyErr_NoMemory();
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
    /* Shape checks that the search relies on to stay inside the arrays: headers
       are nodes 1..N, node N+1 and the last node are spacers, option nodes know
       their option. */
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
    return (PyObject *)t;
bad:
    PyErr_SetString(PyExc_ValueError, "Table: the arrays are not a dancing-links layout");
    Py_DECREF(t);
    return NULL;
}

static void
Table_dealloc(TableObject *t)
{
    PyMem_Free(t->block);
    Py_TYPE(t)->tp_free((PyObject *)t);
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
    .tp_getset = Table_getset,
};

/* ----------------------------------------------------------------- Search */

/* One node of a search's private copy of the links.  Links are byte offsets into
   the node array (node x lives at x << NODE_SHIFT), TOP is kept as the offset of
   the item's header node, and an item's LEN lives in its header node (Knuth's
   DLX1 does the same): the inner loops then address memory without scaling
   indices or a second base pointer. */
typedef struct {
    int u, d;                /* ULINK, DLINK of the node, as node offsets */
    int t;                   /* option nodes: offset of the item's header (TOP << NODE_SHIFT);
                                spacers: TOP << NODE_SHIFT (<= 0); headers: 0 */
    int s;                   /* option nodes: where this node's walk starts in W (see
                                hide); headers: LEN of the item */
} Node;

#define NODE_SHIFT 4         /* sizeof(Node) == 1 << NODE_SHIFT */
#define OFF(x) ((x) << NODE_SHIFT)   /* node index -> node offset */
#define IDX(o) ((o) >> NODE_SHIFT)   /* node offset -> node index */
#define AT(base, off) ((Node *)((char *)(base) + (off)))
#define LEN_OF(base, h) (AT(base, h)->s)  /* LEN of the item whose header is at h */
/* Secondary items' LEN (in their headers) carries this bias, so that "a list became empty"
   (--LEN == 0) is only ever true of a primary item.  MRV never reads them. */
#define SECONDARY_BIAS (1 << 30)

typedef struct {
    PyObject_HEAD
    TableObject *table;
    PyObject *labels;        /* tuple: option index -> label */
    PyObject *progress;      /* callable or NULL */
    PyObject *stats;         /* a dlx.Stats (or any object) or NULL */
    /* sizes and static arrays (borrowed from table) */
    int N1, N, colored, mode, heuristic, bb, integral;
    const int *OPT;
    /* dynamic arrays (own copies, one block) */
    int *block;
    int *LL, *RL;
    Node *nd;                /* M nodes */
    int *COL;                /* M: COLOR (in block), by node index */
    int *W;                  /* the option walks: per option length L, 0..L-1 twice (see hide) */
    int *x;                  /* x[l]: node offset of the option tried at level l; N1+1 */
    long long *profile;      /* N1+2 */
    int plen;
    /* branch and bound */
    double *dblock;
    double *score;           /* N1+2 */
    double *ratio;           /* per node */
    double *weight;          /* per option */
    double best_score;
    int *best_x;             /* N1+1 */
    int best_len, have_best;
    /* counters and limits */
    long long nodes, updates, solutions, budget, limit, pause_at;
    int check_nodes;         /* stop at every PROGRESS_EVERY-th node? */
    int check_reason;
    /* the paused loop */
    int level, i, resume, status, busy;
    int zeros;               /* uncovered primary items with LEN 0 (see choose_mrv) */
} SearchObject;

static PyTypeObject Search_Type;

/* The inner loop's view of the dynamic state, held in locals of run_core (so the
   compiler keeps the pointers and the zeros counter in registers: stores through
   the link arrays cannot alias them). */
typedef struct {
    Node *nd;
    int *LL, *RL, *COL;
    const int *W;
    int zeros;
} Ctx;

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* Hide option p (7.2.2.1-(13)), leaving purified nodes (COLOR < 0) alone, as
   Algorithm C's hide'.  The walk is Knuth's, cyclically from p+1, read from a
   small shared table: for each option length L that occurs, W holds the node
   offsets 0, 16, ..., 16(L-1) relative to an option's first node, twice in a
   row.  Node p at position j of its option starts at nd[p].s = (start of L's
   walk) + j + 1; the entry before it, 16j, locates the first node and is also
   where the walk stops.  So the loop has neither a spacer test nor a wrap-around,
   and W stays in cache.  `colored` is a compile-time constant: run_core is
   instantiated twice. */
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

/* Unhide option p (7.2.2.1-(15)).  The nodes of one option are in distinct
   lists, so the order in which they return does not matter: undoing the hides
   of each list last-in first-out is what restores the links exactly, and unhide
   is called in the reverse order of hide. */
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

/* Cover item i (7.2.2.1-(12)); returns the updates (1 + nodes hidden). */
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

/* Keep only the options that agree with node p's colour on its item (Algorithm C). */
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

/* Commit node q of the option being tried (Algorithm C): cover its item when q
   has no colour, purify it when it has one; a node already purified (COLOR < 0)
   needs nothing.  Without colours, every node is covered. */
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

/* Minimum remaining values: the first item of shortest list, as in dlx.search.
   Called only when no uncovered primary item has an empty list (zeros == 0), so
   the shortest length is at least 1 and the scan can stop at the first item of
   length 1: the same choice, without walking the rest of the item list. */
static inline int
choose_mrv(const int *RL, const int *LEN)
{
    int i = RL[0], j = i, s = LEN[i];
    while (s > 1) {
        j = RL[j];
        if (j == 0)
            break;
        int t = LEN[j];
        if (t < s) {
            s = t;
            i = j;
        }
    }
    return i;
}

/* Early failure (xcover's lookahead), checked after each node q of x_l is committed
   while some primary item is empty: true when more primary items are empty than
   the nodes of x_l still to commit (after q, cyclically, up to x_l) account for,
   so some empty item lies outside x_l and the option cannot lead anywhere.  Only
   tested while at most EARLY_SPAN nodes remain (a huge option stays linear).  The
   same test as dlx.search._fails; secondary LENs carry SECONDARY_BIAS, never 0. */
#define EARLY_SPAN 64
static inline int
early_failure(const char *nd, int zeros, int q, int xl)
{
    int e = 0, rest = 0, r = q + (int)sizeof(Node);
    while (r != xl) {
        const Node *n = AT(nd, r);
        if (n->t <= 0) {
            r = n->u;
            continue;
        }
        if (++rest > EARLY_SPAN)
            return 0;
        e += LEN_OF(nd, n->t) == 0;
        r += (int)sizeof(Node);
    }
    return zeros > e;
}

/* choose_mrv, reading the lengths in the item headers. */
static inline int
choose_mrv_nodes(const int *RL, const char *nd)
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

/* Upper bound on the weight still to come: for each uncovered primary item, the
   best weight-per-primary-item ratio among its options (see dlx.search.run). */
static double
optimistic(SearchObject *S)
{
    const int *RL = S->RL;
    const char *nd = (const char *)S->nd;
    const double *ratio = S->ratio;
    double total = 0.0;
    for (int j = RL[0]; j != 0; j = RL[j]) {
        double m = -INFINITY;
        const int h = OFF(j);
        for (int p = AT(nd, h)->d; p != h; p = AT(nd, p)->d)
            if (ratio[IDX(p)] > m)
                m = ratio[IDX(p)];
        total += m;
    }
    return total;
}

/* THE loop, resumable.  Runs without touching Python objects (the caller may
   have released the GIL) until a solution to report, the end, the budget, or a
   check point; saves its state in S and says why it stopped. */
ALWAYS_INLINE int
run_core_impl(SearchObject *S, const int colored)
{
    Ctx c = {S->nd, S->LL, S->RL, S->COL, S->W, S->zeros};
    char *nd = (char *)S->nd;
    int *RL = S->RL, *x = S->x;
    const int *OPT = S->OPT;
    int level = S->level, i = S->i, xl, q;
    long long nodes = S->nodes, updates = S->updates;
    const long long budget = S->budget, pause_at = S->pause_at;
    const int bb = S->bb, mode = S->mode, N1 = S->N1, check_nodes = S->check_nodes;
    const double eps = 1e-9;
    int r;

    switch (S->resume) {
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
        S->solutions++;
        if (bb && S->score[level] > S->best_score) {
            S->best_score = S->score[level];
            memcpy(S->best_x, x, (size_t)level * sizeof(int));
            S->best_len = level;
            S->have_best = 1;
        }
        if (mode == MODE_SOLUTIONS || S->solutions == S->limit) {
            S->resume = RESUME_LEAVE;
            r = R_SOLUTION;
            goto save;
        }
        goto leave;
    }
    /* X3: choose an item i.  Early-failure lookahead, whatever the heuristic: an
       uncovered primary item with no option left makes this a dead end (MRV would
       choose it and find it dead; dlx.search does the same).  The counter of such
       items gives that answer without scanning the item list. */
    if (c.zeros > 0)
        goto leave;
    if (S->heuristic) {
        i = RL[0];
    }
    else {
        i = choose_mrv_nodes(RL, nd);
        if (LEN_OF(nd, OFF(i)) == 0)
            goto leave;          /* (never, while the counter is right) */
    }
    if (bb && S->best_score > -INFINITY) {
        double room = optimistic(S);
        if (S->integral)
            room = floor(room + eps);
        if (S->score[level] + room <= S->best_score + eps * (1 + fabs(S->best_score)))
            goto leave;
    }
    if (level >= N1) {           /* impossible for a valid table */
        r = R_BROKEN;
        goto save;
    }
    /* X4: cover i */
    updates += cover(&c, i, colored);
    x[level] = AT(nd, OFF(i))->d;
    goto try_;

leave:
    /* X8: leave level `level` */
    if (level == 0) {
        r = R_DONE;
        goto save;
    }
    level--;
    /* X6: try again: undo x_l (other items right to left), next option */
    xl = x[level];
    i = IDX(AT(nd, xl)->t);
    q = xl - (int)sizeof(Node);
    while (q != xl) {
        if (AT(nd, q)->t <= 0) {
            q = AT(nd, q)->d;
            continue;
        }
        uncommit(&c, q, colored);
        q -= (int)sizeof(Node);
    }
    x[level] = AT(nd, xl)->d;

try_:
    xl = x[level];
    if (xl == OFF(i)) {
        /* X7: backtrack: every option of i has been tried */
        uncover(&c, i, colored);
        goto leave;
    }
    /* X5: try x_l */
    if (nodes == budget) {
        S->resume = RESUME_X5;   /* not resumable: the search is over */
        r = R_BUDGET;
        goto save;
    }
    nodes++;
    {
        int why = 0;
        if (check_nodes && (nodes & (PROGRESS_EVERY - 1)) == 0)
            why |= CHECK_NODES;
        if (updates >= pause_at)
            why |= CHECK_QUANTUM;
        if (why) {
            S->check_reason = why;
            S->resume = RESUME_X5;
            r = R_CHECK;
            goto save;
        }
    }
x5_commit:
    xl = x[level];
    if (S->plen == level + 1)
        S->profile[S->plen++] = 1;
    else
        S->profile[level + 1]++;
    q = xl + (int)sizeof(Node);
    while (q != xl) {
        if (AT(nd, q)->t <= 0) {
            q = AT(nd, q)->u;
            continue;
        }
        updates += commit(&c, q, colored);
        if (c.zeros > 0 && early_failure(nd, c.zeros, q, xl)) {
            /* An item outside x_l has no option left: undo this commit, last node
               first (as X6 does), and try the next option. */
            int r = q;
            while (r != xl) {
                if (AT(nd, r)->t <= 0) {
                    r = AT(nd, r)->d;
                    continue;
                }
                uncommit(&c, r, colored);
                r -= (int)sizeof(Node);
            }
            x[level] = AT(nd, xl)->d;
            goto try_;
        }
        q += (int)sizeof(Node);
    }
    if (bb)
        S->score[level + 1] = S->score[level] + S->weight[OPT[IDX(xl)]];
    level++;
    goto enter;

save:
    S->level = level;
    S->i = i;
    S->nodes = nodes;
    S->updates = updates;
    S->zeros = c.zeros;
    return r;
}
static int __attribute__((noinline))
run_core_plain(SearchObject *S)
{
    return run_core_impl(S, 0);
}

static int __attribute__((noinline))
run_core_colored(SearchObject *S)
{
    return run_core_impl(S, 1);
}

static int
run_core(SearchObject *S)
{
    return S->colored ? run_core_colored(S) : run_core_plain(S);
}

/* Write nodes, updates, solutions and profile into the stats object. */
static int
sync_stats(SearchObject *S)
{
    if (S->stats == NULL)
        return 0;
    PyObject *v;
    v = PyLong_FromLongLong(S->nodes);
    if (v == NULL || PyObject_SetAttrString(S->stats, "nodes", v) < 0)
        goto fail;
    Py_DECREF(v);
    v = PyLong_FromLongLong(S->updates);
    if (v == NULL || PyObject_SetAttrString(S->stats, "updates", v) < 0)
        goto fail;
    Py_DECREF(v);
    v = PyLong_FromLongLong(S->solutions);
    if (v == NULL || PyObject_SetAttrString(S->stats, "solutions", v) < 0)
        goto fail;
    Py_DECREF(v);
    v = PyList_New(S->plen);
    if (v == NULL)
        return -1;
    for (int k = 0; k < S->plen; k++) {
        PyObject *n = PyLong_FromLongLong(S->profile[k]);
        if (n == NULL)
            goto fail;
        PyList_SET_ITEM(v, k, n);
    }
    if (PyObject_SetAttrString(S->stats, "profile", v) < 0)
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
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *exc = PyErr_GetRaisedException();
    if (sync_stats(S) < 0)
        PyErr_Clear();
    PyErr_SetRaisedException(exc);
#else
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (sync_stats(S) < 0)
        PyErr_Clear();
    PyErr_Restore(type, value, tb);
#endif
}

static int
is_main_thread(void)
{
#if PY_VERSION_HEX < 0x030D0000
    return _PyOS_IsMainThread();
#else
    return 1;   /* be safe: check for signals in every thread */
#endif
}

/* Run until a result (R_SOLUTION, R_DONE, R_BUDGET); -1 with an exception set
   when the progress callback or a signal handler raised.  The first quantum of
   work runs holding the GIL (short searches pay nothing for threads); after
   that the GIL is released, and taken back only at the check points. */
static int
drive(SearchObject *S)
{
    int released = 0, r;
    if (S->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running");
        return -1;
    }
    if (S->status != ST_READY && S->status != ST_PAUSED) {
        PyErr_SetString(PyExc_RuntimeError, "this search is over");
        return -1;
    }
    S->busy = 1;
    S->check_nodes = S->progress != NULL || is_main_thread();
    S->pause_at = S->updates + QUANTUM_UPDATES;
    for (;;) {
        if (released) {
            Py_BEGIN_ALLOW_THREADS
            r = run_core(S);
            Py_END_ALLOW_THREADS
        }
        else {
            r = run_core(S);
        }
        if (r != R_CHECK)
            break;
        if (S->check_reason & CHECK_QUANTUM) {
            released = 1;
            S->pause_at = LLONG_MAX;
        }
        if (S->check_reason & CHECK_NODES) {
            if (S->progress != NULL && (S->nodes & (PROGRESS_EVERY - 1)) == 0) {
                if (sync_stats(S) < 0)
                    goto fail;
                PyObject *res = PyObject_CallOneArg(S->progress, S->stats ? S->stats : Py_None);
                if (res == NULL)
                    goto fail;
                Py_DECREF(res);
            }
            if (PyErr_CheckSignals() < 0)
                goto fail;
        }
    }
    S->busy = 0;
    if (r == R_BROKEN) {
        S->status = ST_FAILED;
        PyErr_SetString(PyExc_RuntimeError, "dlx._core: inconsistent links (a bug)");
        sync_stats_keeping_error(S);
        return -1;
    }
    S->status = r == R_SOLUTION ? ST_PAUSED : r == R_DONE ? ST_DONE : ST_BUDGET;
    if (sync_stats(S) < 0) {
        S->status = ST_FAILED;
        return -1;
    }
    return r;
fail:
    S->busy = 0;
    S->status = ST_FAILED;
    sync_stats_keeping_error(S);
    return -1;
}

static PyObject *
labels_of(SearchObject *S, const int *xs, int n)
{
    Py_ssize_t n_labels = PyTuple_GET_SIZE(S->labels);
    PyObject *out = PyTuple_New(n);
    if (out == NULL)
        return NULL;
    for (int k = 0; k < n; k++) {
        int o = S->OPT[IDX(xs[k])];
        if (o < 0 || o >= n_labels) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_RuntimeError, "dlx._core: option without a label");
            return NULL;
        }
        PyObject *label = PyTuple_GET_ITEM(S->labels, o);
        Py_INCREF(label);
        PyTuple_SET_ITEM(out, k, label);
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

static PyObject *
Search_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"table", "labels", "mode", "max_nodes", "limit", "heuristic",
                             "progress", "stats", "weights", "ratios", "integral", NULL};
    TableObject *t;
    PyObject *labels, *progress = Py_None, *stats = Py_None, *weights = Py_None,
             *ratios = Py_None;
    const char *mode_name;
    long long max_nodes = -1, limit = -1;
    int heuristic = 0, integral = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!Os|$LLiOOOOp:Search", kwlist,
                                     &Table_Type, &t, &labels, &mode_name, &max_nodes, &limit,
                                     &heuristic, &progress, &stats, &weights, &ratios,
                                     &integral))
        return NULL;
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
    SearchObject *S = (SearchObject *)type->tp_alloc(type, 0);
    if (S == NULL) {
        Py_DECREF(label_tuple);
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
    int N = t->N, N1 = t->N1, M = t->M;
    S->N1 = N1;
    S->N = N;
    S->colored = t->colored;
    S->mode = mode;
    S->heuristic = heuristic;
    S->integral = integral;
    S->OPT = t->OPT;
    if (M > (INT_MAX >> NODE_SHIFT)) {
        Py_DECREF(S);
        PyErr_SetString(PyExc_MemoryError, "dlx._core: too many nodes for one search");
        return NULL;
    }
    size_t option_nodes = 0;
    for (int k = N + 1; k < M; k++)
        option_nodes += t->TOP[k] > 0;
    size_t total = 2 * (size_t)(N + 2) + 2 * (size_t)M + 2 * (size_t)(N1 + 1);
    total += total & 1;    /* keep the long long profile 8-byte aligned */
    size_t profile_bytes = (size_t)(N1 + 2) * sizeof(long long);
    S->block = (int *)PyMem_Malloc(total * sizeof(int) + profile_bytes);
    S->nd = (Node *)PyMem_Malloc((size_t)M * sizeof(Node));
    S->W = (int *)PyMem_Malloc((2 * option_nodes + 1) * sizeof(int));
    if (S->block == NULL || S->nd == NULL || S->W == NULL) {
        Py_DECREF(S);
        return PyErr_NoMemory();
    }
    S->LL = S->block;
    S->RL = S->LL + (N + 2);
    S->COL = S->RL + (N + 2);
    int *scratch = S->COL + M;
    S->x = scratch + M;
    S->best_x = S->x + (N1 + 1);
    S->profile = (long long *)(S->block + total);
    memcpy(S->LL, t->LL, (size_t)(N + 2) * sizeof(int));
    memcpy(S->RL, t->RL, (size_t)(N + 2) * sizeof(int));
    for (int k = 0; k < M; k++) {
        S->nd[k].u = OFF(t->U[k]);
        S->nd[k].d = OFF(t->D[k]);
        S->nd[k].t = OFF(t->TOP[k]);
        S->nd[k].s = 0;
    }
    for (int k = 1; k <= N; k++)
        S->nd[k].s = t->LEN[k] + (k > N1 ? SECONDARY_BIAS : 0);
    memcpy(S->COL, t->COL, (size_t)M * sizeof(int));
    /* W: the walk 0, 16, ..., 16(L-1), twice, once for each option length L
       that occurs; each option node points just after its own entry (see hide). */
    {
        int *at = scratch;     /* at[L]: where the walk of options of length L starts in W */
        for (int k = 0; k < M; k++)
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
                    S->W[w + j] = S->W[w + len + j] = OFF(j);
                w += 2 * len;
            }
            for (int j = 0; j < len; j++)
                S->nd[f + j].s = at[len] + j + 1;
            k = f + len;       /* the spacer after the option */
        }
    }
    memset(S->x, 0, (size_t)(N1 + 1) * sizeof(int));
    S->zeros = 0;
    for (int k = 1; k <= N1; k++)
        if (t->LEN[k] == 0)
            S->zeros++;
    S->profile[0] = 1;
    S->plen = 1;
    S->nodes = 1;
    S->updates = 0;
    S->solutions = 0;
    S->budget = max_nodes < 1 ? -1 : max_nodes;
    S->limit = limit < 1 ? -1 : limit;
    S->best_score = -INFINITY;
    S->resume = RESUME_ENTER;
    S->status = ST_READY;
    if (mode == MODE_BEST) {
        int n_opt = t->n_options;
        S->bb = 1;
        S->dblock = (double *)PyMem_Malloc(((size_t)(N1 + 2) + (size_t)M + (size_t)n_opt + 1)
                                           * sizeof(double));
        if (S->dblock == NULL) {
            Py_DECREF(S);
            return PyErr_NoMemory();
        }
        S->score = S->dblock;
        S->ratio = S->score + (N1 + 2);
        S->weight = S->ratio + M;
        memset(S->score, 0, (size_t)(N1 + 2) * sizeof(double));
        if (read_doubles(weights, "weights", n_opt, S->weight) < 0) {
            Py_DECREF(S);
            return NULL;
        }
        /* ratios are per option; spread them over the nodes */
        double *per_option = (double *)PyMem_Malloc(((size_t)n_opt + 1) * sizeof(double));
        if (per_option == NULL) {
            Py_DECREF(S);
            return PyErr_NoMemory();
        }
        if (read_doubles(ratios, "ratios", n_opt, per_option) < 0) {
            PyMem_Free(per_option);
            Py_DECREF(S);
            return NULL;
        }
        for (int q = 0; q < M; q++)
            S->ratio[q] = t->OPT[q] >= 0 ? per_option[t->OPT[q]] : 0.0;
        PyMem_Free(per_option);
    }
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
    PyMem_Free(S->block);
    PyMem_Free(S->nd);
    PyMem_Free(S->W);
    PyMem_Free(S->dblock);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static int
need_mode(SearchObject *S, int mode, const char *what)
{
    if (S->mode != mode) {
        PyErr_Format(PyExc_RuntimeError, "%s() needs a search made with mode=%s", what,
                     mode == MODE_COUNT ? "'count'" : mode == MODE_SOLUTIONS ? "'solutions'"
                                                                               : "'best'");
        return -1;
    }
    return 0;
}

static PyObject *
Search_next(SearchObject *S, PyObject *unused)
{
    if (need_mode(S, MODE_SOLUTIONS, "next") < 0)
        return NULL;
    if (S->status == ST_DONE || S->status == ST_BUDGET)
        Py_RETURN_NONE;
    int r = drive(S);
    if (r < 0)
        return NULL;
    if (r == R_SOLUTION)
        return labels_of(S, S->x, S->level);
    Py_RETURN_NONE;
}

static PyObject *
Search_count(SearchObject *S, PyObject *unused)
{
    if (need_mode(S, MODE_COUNT, "count") < 0)
        return NULL;
    if (S->status != ST_DONE && S->status != ST_BUDGET && drive(S) < 0)
        return NULL;
    return PyLong_FromLongLong(S->solutions);
}

static PyObject *
Search_best(SearchObject *S, PyObject *unused)
{
    if (need_mode(S, MODE_BEST, "best") < 0)
        return NULL;
    if (S->status != ST_DONE && S->status != ST_BUDGET && drive(S) < 0)
        return NULL;
    if (!S->have_best)
        Py_RETURN_NONE;
    PyObject *sol = labels_of(S, S->best_x, S->best_len);
    if (sol == NULL)
        return NULL;
    return Py_BuildValue("(dN)", S->best_score, sol);
}

static PyObject *
Search_get_status(SearchObject *S, void *closure)
{
    static const char *names[] = {"ready", "paused", "done", "budget", "failed"};
    return PyUnicode_FromString(names[S->status]);
}

static PyObject *
Search_get_nodes(SearchObject *S, void *closure)
{
    return PyLong_FromLongLong(S->nodes);
}

static PyObject *
Search_get_updates(SearchObject *S, void *closure)
{
    return PyLong_FromLongLong(S->updates);
}

static PyObject *
Search_get_solutions(SearchObject *S, void *closure)
{
    return PyLong_FromLongLong(S->solutions);
}

static PyMethodDef Search_methods[] = {
    {"next", (PyCFunction)Search_next, METH_NOARGS,
     "next() -> tuple of labels, or None when the search is over (mode 'solutions')."},
    {"count", (PyCFunction)Search_count, METH_NOARGS,
     "count() -> solutions found: runs to the end, the limit or the budget (mode 'count')."},
    {"best", (PyCFunction)Search_best, METH_NOARGS,
     "best() -> (score, labels) of the first best solution, or None (mode 'best')."},
    {NULL},
};

static PyGetSetDef Search_getset[] = {
    {"status", (getter)Search_get_status, NULL,
     "'ready', 'paused' (at a solution), 'done', 'budget' or 'failed'", NULL},
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
              "       progress=None, stats=None, weights=None, ratios=None, integral=False)\n\n"
              "One search over its own copy of a Table: mode 'count', 'solutions' or 'best'.",
    .tp_traverse = (traverseproc)Search_traverse,
    .tp_clear = (inquiry)Search_clear,
    .tp_new = Search_new,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ------------------------------------------------------------ grid batches */

/* The Sudoku fast path: many puzzles of one shape on one matrix.
 *
 * A GridTable is the Table of the full matrix of a grid shape (one option per
 * (cell, digit), every item of the shape), plus which option is which.  Its
 * batch() takes a blob of puzzles (one byte per cell, 0 for a blank) and, on one
 * set of working arrays for the whole batch, for each puzzle:
 *
 *   1. chooses the option of every given, in cell order, by covering each of its
 *      items (X4 + X5 without counting a node).  A given whose option is already
 *      gone (one of its items was covered by an earlier given: the two share a
 *      unit and digit) makes the puzzle "contradictory": exactly the puzzles whose
 *      givens put a digit twice in one unit;
 *   2. runs the search of run_core (MRV, the same zero-length lookahead) on what is
 *      left, up to `limit` solutions, writing the digits of the first one;
 *   3. undoes everything (the search's levels, then the givens in reverse), so the
 *      arrays are ready for the next puzzle.
 *
 * What is left after step 1 is exactly the problem that problems.sudoku.encode
 * builds (it drops the options that conflict with a given, and keeps the given's
 * own option, whose items then have that option alone), with the options and
 * items in the same relative order.  So the search meets the same solutions in
 * the same order.  It also reports the same node counts as dlx.count on
 * encode(puzzle): there, a given's option is a forced choice (its items have
 * length 1 and choosing it changes no other length), which MRV takes as soon as
 * its cell item is the first item of minimum length.  Cell items come first, in
 * cell order, so on every path the givens placed so far are those of the first
 * cells: at a node where MRV picks cell item j of length 1, the pure search has
 * first placed the givens of cells before j; anywhere else (length >= 2, a unit
 * item, or a solution) it has first placed all of them.  batch() counts those
 * placements as nodes (gp[level] = givens placed on the path), budget included.
 */

typedef struct {
    PyObject_HEAD
    TableObject *table;
    int n, ncells;
    int *first;         /* first[cell * n + digit - 1] = first node of that option */
    int *opt_cell;      /* per option: its cell and digit */
    int *opt_digit;
} GridTableObject;

static PyTypeObject GridTable_Type;

/* The working arrays of one batch (no Python objects: used without the GIL). */
typedef struct {
    int *U, *D, *LEN, *LL, *RL;
    const int *TOP;
    int N1, zeros;
} Dance;

/* Hide option p: 7.2.2.1-(13), no colours. */
static inline void
dance_hide(Dance *S, int p)
{
    int *U = S->U, *D = S->D, *LEN = S->LEN;
    const int *TOP = S->TOP;
    int q = p + 1;
    while (q != p) {
        int t = TOP[q];
        if (t <= 0) {
            q = U[q];
            continue;
        }
        int u = U[q], d = D[q];
        D[u] = d;
        U[d] = u;
        if (--LEN[t] == 0 && t <= S->N1)
            S->zeros++;
        q++;
    }
}

static inline void
dance_unhide(Dance *S, int p)
{
    int *U = S->U, *D = S->D, *LEN = S->LEN;
    const int *TOP = S->TOP;
    int q = p - 1;
    while (q != p) {
        int t = TOP[q];
        if (t <= 0) {
            q = D[q];
            continue;
        }
        int u = U[q], d = D[q];
        D[u] = q;
        U[d] = q;
        if (LEN[t]++ == 0 && t <= S->N1)
            S->zeros--;
        q--;
    }
}

/* Cover item i (7.2.2.1-(12)). */
static inline void
dance_cover(Dance *S, int i)
{
    int *D = S->D, *LL = S->LL, *RL = S->RL;
    for (int p = D[i]; p != i; p = D[p])
        dance_hide(S, p);
    int l = LL[i], r = RL[i];
    RL[l] = r;
    LL[r] = l;
    if (S->LEN[i] == 0 && i <= S->N1)
        S->zeros--;
}

/* Uncover item i (7.2.2.1-(14)). */
static inline void
dance_uncover(Dance *S, int i)
{
    int *U = S->U, *LL = S->LL, *RL = S->RL;
    int l = LL[i], r = RL[i];
    RL[l] = i;
    LL[r] = i;
    if (S->LEN[i] == 0 && i <= S->N1)
        S->zeros++;
    for (int p = U[i]; p != i; p = U[p])
        dance_unhide(S, p);
}

/* Cover the other items of option x_l, left to right (X5), and undo that (X6). */
static inline void
dance_commit(Dance *S, int xl)
{
    const int *TOP = S->TOP;
    int q = xl + 1;
    while (q != xl) {
        if (TOP[q] <= 0) {
            q = S->U[q];
            continue;
        }
        dance_cover(S, TOP[q]);
        q++;
    }
}

static inline void
dance_uncommit(Dance *S, int xl)
{
    const int *TOP = S->TOP;
    int q = xl - 1;
    while (q != xl) {
        if (TOP[q] <= 0) {
            q = S->D[q];
            continue;
        }
        dance_uncover(S, TOP[q]);
        q--;
    }
}

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

static PyObject *
GridTable_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"table", "n", "option_cells", "option_digits", NULL};
    TableObject *t;
    int n;
    PyObject *cells, *digits;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!iOO:GridTable", kwlist, &Table_Type, &t,
                                     &n, &cells, &digits))
        return NULL;
    if (n < 1 || n > 255) {
        PyErr_SetString(PyExc_ValueError, "GridTable: n must be 1..255");
        return NULL;
    }
    int ncells = n * n;
    if (t->colored || t->N1 < ncells || t->n_options != ncells * n) {
        PyErr_SetString(PyExc_ValueError, "GridTable: the table must have one option per"
                        " (cell, digit), cell items first, and no colours");
        return NULL;
    }
    GridTableObject *g = (GridTableObject *)type->tp_alloc(type, 0);
    if (g == NULL)
        return NULL;
    Py_INCREF(t);
    g->table = t;
    g->n = n;
    g->ncells = ncells;
    int n_opt = t->n_options;
    g->first = (int *)PyMem_Malloc(3 * (size_t)n_opt * sizeof(int));
    if (g->first == NULL) {
        Py_DECREF(g);
        return PyErr_NoMemory();
    }
    g->opt_cell = g->first + n_opt;
    g->opt_digit = g->opt_cell + n_opt;
    if (read_ints(cells, "option_cells", n_opt, 0, ncells - 1, g->opt_cell) < 0 ||
        read_ints(digits, "option_digits", n_opt, 1, n, g->opt_digit) < 0) {
        Py_DECREF(g);
        return NULL;
    }
    for (int k = 0; k < n_opt; k++)
        g->first[k] = -1;
    /* first node of each option; each (cell, digit) once; the cell item first */
    int N = t->N;
    for (int x = N + 2; x < t->M; x++) {
        if (t->TOP[x] <= 0 || t->TOP[x - 1] > 0)
            continue;
        int o = t->OPT[x];
        int c = g->opt_cell[o], d = g->opt_digit[o];
        int slot = c * n + d - 1;
        if (g->first[slot] != -1 || t->TOP[x] != c + 1) {
            PyErr_SetString(PyExc_ValueError, "GridTable: every (cell, digit) needs one option,"
                            " whose first item is its cell's item (cell + 1)");
            Py_DECREF(g);
            return NULL;
        }
        g->first[slot] = x;
    }
    return (PyObject *)g;
}

static void
GridTable_dealloc(GridTableObject *g)
{
    Py_XDECREF(g->table);
    PyMem_Free(g->first);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

enum { B_DONE, B_LIMIT, B_BUDGET, B_BROKEN };
#define GRID_CLASH (-1)
#define GRID_BUDGET (-2)
#define GRID_CHECK_EVERY 8192     /* work units (nodes; 16 per puzzle) between signal checks */

static PyObject *
GridTable_batch(GridTableObject *g, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"puzzles", "limit", "max_nodes", NULL};
    PyObject *blob;
    long long limit = 1, max_nodes = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!|LL:batch", kwlist, &PyBytes_Type, &blob,
                                     &limit, &max_nodes))
        return NULL;
    TableObject *t = g->table;
    const int n = g->n, ncells = g->ncells, N = t->N, M = t->M, N1 = t->N1;
    const Py_ssize_t size = PyBytes_GET_SIZE(blob);
    const unsigned char *puz = (const unsigned char *)PyBytes_AS_STRING(blob);
    if (size % ncells != 0) {
        PyErr_Format(PyExc_ValueError, "batch: %zd bytes is not a whole number of %d-cell"
                     " puzzles", size, ncells);
        return NULL;
    }
    const Py_ssize_t count = size / ncells;
    for (Py_ssize_t k = 0; k < size; k++) {
        if (puz[k] > n) {
            PyErr_Format(PyExc_ValueError, "batch: puzzle %zd, cell %zd: value %d is not 0..%d",
                         k / ncells, k % ncells, (int)puz[k], n);
            return NULL;
        }
    }
    if (limit < 1)
        limit = -1;
    const long long budget = max_nodes < 1 ? -1 : max_nodes;

    PyObject *sol = PyBytes_FromStringAndSize(NULL, size);
    long long *counts = PyMem_Malloc(((size_t)count + 1) * 2 * sizeof(long long));
    double *secs = PyMem_Malloc(((size_t)count + 1) * sizeof(double));
    size_t ints = 3 * (size_t)(N + 2) + 2 * (size_t)M + 2 * (size_t)(N1 + 2)
                  + 2 * (size_t)(ncells + 1);
    int *block = PyMem_Malloc(ints * sizeof(int));
    if (sol == NULL || counts == NULL || secs == NULL || block == NULL) {
        Py_XDECREF(sol);
        PyMem_Free(counts);
        PyMem_Free(secs);
        PyMem_Free(block);
        return PyErr_NoMemory();
    }
    long long *nodes_of = counts + count + 1;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(sol);
    Dance S;
    S.LL = block;
    S.RL = S.LL + (N + 2);
    S.LEN = S.RL + (N + 2);
    S.U = S.LEN + (N + 2);
    S.D = S.U + M;
    int *x = S.D + M;               /* x[level]: node tried at that level */
    int *gp = x + (N1 + 2);         /* gp[level]: givens placed on the path (node counts) */
    int *givens = gp + (N1 + 2);    /* the given cells, in order */
    int *less = givens + (ncells + 1);   /* less[c]: givens in cells before c */
    memcpy(S.LL, t->LL, (size_t)(N + 2) * sizeof(int));
    memcpy(S.RL, t->RL, (size_t)(N + 2) * sizeof(int));
    memcpy(S.LEN, t->LEN, (size_t)(N + 2) * sizeof(int));
    memcpy(S.U, t->U, (size_t)M * sizeof(int));
    memcpy(S.D, t->D, (size_t)M * sizeof(int));
    S.TOP = t->TOP;
    S.N1 = N1;
    S.zeros = 0;
    for (int k = 1; k <= N1; k++)
        if (S.LEN[k] == 0)
            S.zeros++;
    const int zeros0 = S.zeros;
    const int *TOP = t->TOP, *OPT = t->OPT, *first = g->first;
    int *RL = S.RL, *LL = S.LL, *D = S.D, *LEN = S.LEN;
    const int check = is_main_thread();
    long long work = 0, next_check = GRID_CHECK_EVERY;
    int broken = 0, interrupted = 0;

    PyThreadState *ts = PyEval_SaveThread();
    for (Py_ssize_t p = 0; p < count && !broken && !interrupted; p++) {
        double start = monotonic_seconds();
        const unsigned char *v = puz + p * ncells;
        unsigned char *o = out + p * ncells;
        memcpy(o, v, (size_t)ncells);
        int G = 0;
        for (int c = 0; c < ncells; c++) {
            less[c] = G;
            if (v[c])
                givens[G++] = c;
        }
        /* 1. the givens */
        int placed = 0, clash = 0;
        for (; placed < G; placed++) {
            int c = givens[placed];
            int f = first[c * n + v[c] - 1];
            for (int q = f; TOP[q] > 0; q++) {
                int i = TOP[q];
                if (RL[LL[i]] != i) {   /* item i was covered by an earlier given */
                    clash = 1;
                    break;
                }
            }
            if (clash)
                break;
            for (int q = f; TOP[q] > 0; q++)
                dance_cover(&S, TOP[q]);
        }
        long long nodes = 1, solutions = 0;
        int level = 0, i = 0, why = B_DONE;
        if (clash) {
            nodes = 0;
            goto undo_givens;
        }
        /* 2. the search: run_core's loop, without colours, pauses or bounds */
        gp[0] = 0;
enter:
        /* X2: enter level `level` */
        if (RL[0] == 0) {
            int extra = G - gp[level];
            if (budget >= 0 && nodes + extra > budget) {
                nodes = budget;         /* placed givens up to the budget */
                why = B_BUDGET;
                goto unwind;
            }
            nodes += extra;
            if (++solutions == 1) {
                for (int l = 0; l < level; l++) {
                    int op = OPT[x[l]];
                    o[g->opt_cell[op]] = (unsigned char)g->opt_digit[op];
                }
            }
            if (solutions == limit) {
                why = B_LIMIT;
                goto unwind;
            }
            goto leave;
        }
        /* X3: choose an item i (MRV); a primary item with no option: dead end */
        if (S.zeros > 0)
            goto leave;
        if (level >= N1) {          /* impossible for a valid table */
            broken = 1;
            goto unwind;
        }
        i = choose_mrv(RL, LEN);
        {
            int want = (LEN[i] == 1 && i <= ncells) ? less[i - 1] : G;
            int have = gp[level];
            if (want > have) {
                if (budget >= 0 && nodes + (want - have) > budget) {
                    nodes = budget;     /* placed givens up to the budget */
                    why = B_BUDGET;
                    goto unwind;
                }
                nodes += want - have;
                have = want;
            }
            gp[level + 1] = have;
        }
        /* X4: cover i */
        dance_cover(&S, i);
        x[level] = D[i];
        goto try_;
leave:
        /* X8: leave level `level` */
        if (level == 0)
            goto undo_givens;
        level--;
        /* X6: try again */
        dance_uncommit(&S, x[level]);
        i = TOP[x[level]];
        x[level] = D[x[level]];
try_:
        if (x[level] == i) {
            /* X7: backtrack */
            dance_uncover(&S, i);
            goto leave;
        }
        /* X5: try x_l */
        if (nodes == budget) {
            why = B_BUDGET;
            dance_uncover(&S, i);
            goto unwind;
        }
        nodes++;
        if (check && ++work >= next_check) {
            next_check = work + GRID_CHECK_EVERY;
            PyEval_RestoreThread(ts);
            if (PyErr_CheckSignals() < 0)
                interrupted = 1;
            ts = PyEval_SaveThread();
            if (interrupted)
                break;      /* the arrays are ours: no need to undo */
        }
        dance_commit(&S, x[level]);
        level++;
        goto enter;
unwind:
        /* stopped inside the tree: undo the levels below, as X6 + X7 would */
        while (level > 0) {
            level--;
            dance_uncommit(&S, x[level]);
            dance_uncover(&S, TOP[x[level]]);
        }
undo_givens:
        /* 3. undo the givens, last first */
        while (placed > 0) {
            placed--;
            int c = givens[placed];
            int f = first[c * n + v[c] - 1], q = f;
            while (TOP[q + 1] > 0)
                q++;
            for (; q >= f; q--)
                dance_uncover(&S, TOP[q]);
        }
        if (S.zeros != zeros0 || RL[0] != t->RL[0] || LL[0] != t->LL[0])
            broken = 1;
        counts[p] = clash ? GRID_CLASH : why == B_BUDGET ? GRID_BUDGET : solutions;
        nodes_of[p] = nodes;
        secs[p] = monotonic_seconds() - start;
        work += 16;
        if (check && work >= next_check) {
            next_check = work + GRID_CHECK_EVERY;
            PyEval_RestoreThread(ts);
            if (PyErr_CheckSignals() < 0)
                interrupted = 1;
            ts = PyEval_SaveThread();
        }
    }
    PyEval_RestoreThread(ts);
    PyObject *result = NULL, *lc = NULL, *ln = NULL, *ls = NULL;
    if (interrupted)
        goto done;
    if (broken) {
        PyErr_SetString(PyExc_RuntimeError, "dlx._core: inconsistent links (a bug)");
        goto done;
    }
    lc = PyList_New(count);
    ln = PyList_New(count);
    ls = PyList_New(count);
    if (lc == NULL || ln == NULL || ls == NULL)
        goto done;
    for (Py_ssize_t p = 0; p < count; p++) {
        PyObject *a = PyLong_FromLongLong(counts[p]);
        PyObject *b = PyLong_FromLongLong(nodes_of[p]);
        PyObject *c = PyFloat_FromDouble(secs[p]);
        if (a == NULL || b == NULL || c == NULL) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            Py_XDECREF(c);
            goto done;
        }
        PyList_SET_ITEM(lc, p, a);
        PyList_SET_ITEM(ln, p, b);
        PyList_SET_ITEM(ls, p, c);
    }
    result = PyTuple_Pack(4, lc, ln, sol, ls);
done:
    Py_XDECREF(lc);
    Py_XDECREF(ln);
    Py_XDECREF(ls);
    Py_DECREF(sol);
    PyMem_Free(counts);
    PyMem_Free(secs);
    PyMem_Free(block);
    return result;
}

static PyObject *
GridTable_get_n(GridTableObject *g, void *closure)
{
    return PyLong_FromLong(g->n);
}

static PyMethodDef GridTable_methods[] = {
    {"batch", (PyCFunction)(void (*)(void))GridTable_batch, METH_VARARGS | METH_KEYWORDS,
     "batch(puzzles: bytes, limit=1, max_nodes=-1) -> (counts, nodes, solutions, seconds)\n\n"
     "puzzles: one byte per cell (0 blank, else the digit), puzzle after puzzle.\n"
     "counts[k]: solutions found (at most limit; limit < 1: no limit), -1 when the givens\n"
     "clash, -2 when max_nodes ran out; nodes[k]: as dlx.count on the encoded puzzle;\n"
     "solutions: the first solution of each puzzle (its givens when there is none);\n"
     "seconds[k]: time spent on puzzle k."},
    {NULL},
};

static PyGetSetDef GridTable_getset[] = {
    {"n", (getter)GridTable_get_n, NULL, "digits (and rows, and columns)", NULL},
    {NULL},
};

static PyTypeObject GridTable_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "dlx._core.GridTable",
    .tp_basicsize = sizeof(GridTableObject),
    .tp_dealloc = (destructor)GridTable_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "GridTable(table, n, option_cells, option_digits)\n\n"
              "The full matrix of an n x n grid shape (a Table with one option per (cell,\n"
              "digit), each starting with its cell's item, cells being items 1..n*n), for\n"
              "solving batches of puzzles with batch().",
    .tp_new = GridTable_new,
    .tp_methods = GridTable_methods,
    .tp_getset = GridTable_getset,
};

/* ----------------------------------------------------------------- module */

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "dlx._core",
    .m_doc = "The compiled search of dlx (the same algorithm as dlx.search.run).",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__core(void)
{
    if (PyType_Ready(&Table_Type) < 0 || PyType_Ready(&Search_Type) < 0)
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
    if (PyType_Ready(&GridTable_Type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&GridTable_Type);
    if (PyModule_AddObject(m, "GridTable", (PyObject *)&GridTable_Type) < 0) {
        Py_DECREF(&GridTable_Type);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_NODES", INT_MAX >> NODE_SHIFT) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "PROGRESS_EVERY", PROGRESS_EVERY) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
