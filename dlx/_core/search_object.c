/* dlx._core's Search: one search over its own copy of a Table's links, its
 * loop resumable, so that dlx.solutions stays lazy (one solution per call into
 * C).  drive() runs the loop: the first quantum of work holding the GIL, then
 * without it, taking it back at the check points only, where the progress
 * callback, the clock and the signal handlers run.  Searches share nothing.
 */

#include "core.h"
#include "memo.h"

#include <float.h>

/* A search's status, as Search.status names it. */
enum { ST_READY, ST_PAUSED, ST_DONE, ST_BUDGET, ST_TIMEOUT, ST_FAILED };

typedef struct {
    PyObject_HEAD
    TableObject *table;
    PyObject *labels;        /* tuple: option index -> label */
    PyObject *progress;      /* callable or NULL */
    PyObject *stats;         /* a dlx.Stats (or any object) or NULL */
    PyObject *sharp;         /* (heuristic sharp) bytes: which primary items are sharp */
    double explored;         /* the fraction of the tree done, at the last check point */
    Best best;               /* branch and bound (mode best) */
    void *bblock;            /* its arrays */
    double deadline;         /* monotonic seconds, or 0: none */
    int status, busy, clash, dead;
    int *forced, n_forced;   /* the forced options (node offsets), for restart() */
    Run run;
} SearchObject;

/* Read a sequence of option indices (forced options) into the node offsets where
   the search places them: each option's first node in a primary item. */
static int
read_forced(const TableObject *t, PyObject *seq, int **out, int *n)
{
    Sets one;
    PyObject *wrapped = PyTuple_Pack(1, seq);
    if (wrapped == NULL)
        return -1;
    int bad = dlx_read_sets(t, wrapped, "forced must be a sequence of option indices", &one);
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
    if (r->bits != NULL)
        return dlx_bits_explored(r);
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
        if (width > DBL_MAX)
            break;      /* the levels below add 0 (and so does 0.5 / width): a deep
                           search's estimate costs its first levels, not all of them */
    }
    return done + 0.5 / width;
}

/* A 128-bit count as a Python int. */
static PyObject *
long_of(u128 v)
{
    if (v >> 64 == 0)
        return PyLong_FromUnsignedLongLong((unsigned long long)v);
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(v >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)v);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *out = NULL, *up = NULL;
    if (hi != NULL && lo != NULL && shift != NULL && (up = PyNumber_Lshift(hi, shift)) != NULL)
        out = PyNumber_Or(up, lo);
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(shift);
    Py_XDECREF(up);
    return out;
}

/* The solutions counted so far: with a cache, those of cache hits too. */
static PyObject *
solutions_of(const Run *r)
{
    return r->memo != NULL ? long_of(r->memo->total) : PyLong_FromLongLong(r->solutions);
}

/* ----------------------------------------------------------- driving */

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
    v = solutions_of(r);
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
                PyThread_get_thread_ident() != dlx_main_thread;
    for (;;) {
        if (released) {
            Py_BEGIN_ALLOW_THREADS
            for (;;) {
                why = dlx_run_core(r);
                if (!(quiet && why == R_CHECK && r->check_reason == CHECK_NODES))
                    break;
                S->explored = explored(r);
            }
            Py_END_ALLOW_THREADS
        }
        else {
            why = dlx_run_core(r);
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

/* The labels of the choices xs[0..n) (Search_new checked there is one per option). */
static PyObject *
labels_of(SearchObject *S, const int *xs, int n)
{
    return dlx_options_of(S->table, xs, n, S->labels);
}

/* Branch and bound: per option weights and shares (spread over the nodes), per
   level scores, and room for the k best. */
static int
read_bound(SearchObject *S, PyObject *weights, PyObject *shares, int integral, int k,
           long long scale)
{
    const TableObject *t = S->table;
    size_t n_opt = (size_t)t->n_options, M = (size_t)t->M, width = (size_t)dlx_levels(t);
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
    char type = integral ? 'L' : 'd';
    if (dlx_read_numbers(weights, "weights", (Py_ssize_t)n_opt, type, LLONG_MIN, LLONG_MAX,
                         integral ? (void *)bb->iw : (void *)bb->fw) < 0 ||
        dlx_read_numbers(shares, "ratios", (Py_ssize_t)n_opt, type, LLONG_MIN, LLONG_MAX,
                         integral ? (void *)iper : (void *)fper) < 0)
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
                             "timeout", "k", "scale", "cache", "sharp", "zdd", "bits", "seed",
                             NULL};
    TableObject *t;
    PyObject *labels, *progress = Py_None, *stats = Py_None, *weights = Py_None,
             *ratios = Py_None, *forced = NULL, *sharp = Py_None;
    const char *mode_name;
    long long max_nodes = -1, limit = -1, scale = 1, cache = 0;
    unsigned long long seed = 0;
    int heuristic = 0, integral = 0, k = 1, zdd = 0, bits = -1;
    double timeout = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!Os|$LLiOOOOpOdiLLOpiK:Search", kwlist,
                                     &dlx_Table_Type, &t, &labels, &mode_name, &max_nodes, &limit,
                                     &heuristic, &progress, &stats, &weights, &ratios,
                                     &integral, &forced, &timeout, &k, &scale, &cache, &sharp,
                                     &zdd, &bits, &seed))
        return NULL;
    if (zdd && (cache <= 0 || t->multi)) {
        PyErr_SetString(PyExc_ValueError, "zdd needs a cache and no bounds");
        return NULL;
    }
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
    if (cache < 0 || (cache > 0 && mode != MODE_COUNT)) {
        PyErr_SetString(PyExc_ValueError, "cache (entries, 0: none) is for mode count only");
        return NULL;
    }
    if (heuristic < 0 || heuristic >= H_RULES) {
        PyErr_Format(PyExc_ValueError, "heuristic must be a rule's code, 0 to %d (dance.h's"
                     " H_ codes, dlx.rules.RULES)", H_RULES - 1);
        return NULL;
    }
    if ((heuristic == H_SHARP) != (sharp != Py_None) || (sharp != Py_None
            && (!PyBytes_Check(sharp) || PyBytes_GET_SIZE(sharp) != (Py_ssize_t)t->N1 + 1))) {
        PyErr_SetString(PyExc_ValueError, "sharp (bytes, one per primary item and one before)"
                        " goes with heuristic 2, only");
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
    if (dlx_run_alloc_bare(r, t) < 0) {
        PyMem_Free(f);
        Py_DECREF(S);
        return PyErr_NoMemory();
    }
    r->mode = mode;
    r->heuristic = heuristic;
    r->rng = (uint64_t)seed;
    if (sharp != Py_None) {
        Py_INCREF(sharp);
        S->sharp = sharp;
        r->sharp = (const unsigned char *)PyBytes_AS_STRING(sharp);
    }
    if (heuristic == H_WEIGHTED) {
        r->wt = (long long *)PyMem_Malloc(((size_t)t->N1 + 1) * sizeof(long long));
        if (r->wt == NULL) {
            PyMem_Free(f);
            Py_DECREF(S);
            return PyErr_NoMemory();
        }
        for (int j = 0; j <= t->N1; j++)
            r->wt[j] = 1;
    }
    if (mode == MODE_BEST && read_bound(S, weights, ratios, integral, k, scale) < 0) {
        PyMem_Free(f);
        Py_DECREF(S);
        return NULL;
    }
    if (dlx_run_attach(r, cache > 0 ? 0 : bits) < 0) {
        PyMem_Free(f);
        Py_DECREF(S);
        return PyErr_NoMemory();
    }
    r->updates = 0;
    int placed = dlx_place_forced(r, f, n_forced);
    S->forced = f;
    S->n_forced = n_forced;
    if (r->tree != NULL && placed == PLACED)
        dlx_tree_build(r);
    if (placed == DEAD)
        r->level++;                  /* the root, at the level after the forced options */
    dlx_run_start(r);
    if (cache > 0) {
        r->memo = dlx_memo_new(r, (size_t)cache);
        if (r->memo == NULL) {
            Py_DECREF(S);
            return PyErr_NoMemory();
        }
        dlx_memo_start(r->memo, r);
        if (zdd && dlx_memo_want_zdd(r->memo, r) < 0) {
            Py_DECREF(S);
            return PyErr_NoMemory();
        }
    }
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
    Py_CLEAR(S->sharp);
    return 0;
}

static void
Search_dealloc(SearchObject *S)
{
    PyObject_GC_UnTrack(S);
    Search_clear(S);
    Py_XDECREF(S->table);
    PyMem_Free(S->run.block);
    dlx_bits_detach(&S->run);
    dlx_tree_detach(&S->run);
    PyMem_Free(S->bblock);
    PyMem_Free(S->run.wt);
    PyMem_Free(S->forced);
    dlx_memo_free(S->run.memo);
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
    return solutions_of(&S->run);
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

/* Undo every level of a search that stopped between two steps, the forced options'
   included (they were placed keeping secondary items' LEN: dlx_dance(t, 1)), as X6
   and X7 would; `holding`: stopped at X5, the item of its level covered. */
static void
unwind_levels(Run *r, int holding)
{
    Ctx c = ctx_of(r);
    const char *nd = (const char *)r->nd;
    const int danced = dlx_dance(r->t, 0), placed = dlx_dance(r->t, 1);
    const int turned = r->heuristic == H_MRV_RANDOM;    /* (lists started elsewhere) */
    if (holding) {
        if (turned)
            start_at((char *)r->nd, r->i, r->first[r->level]);
        uncover(&c, r->i, danced);
    }
    while (r->level > 0) {
        int xl = r->x[--r->level], how = r->level < r->base ? placed : danced;
        uncommit_option(&c, xl, prev_node(nd, xl), how);
        if (turned && r->level >= r->base)
            start_at((char *)r->nd, IDX(AT(nd, xl)->t), r->first[r->level]);
        uncover(&c, IDX(AT(nd, xl)->t), how);
    }
    r->zeros = c.zeros;
}

/* restart(seed, max_nodes=-1, timeout=-1.0, heuristic=-1): the same search from its
   root again, its random draws (the rule H_MRV_RANDOM's) from `seed`, with a new
   budget and time limit, its counters from zero, and (heuristic >= 0) another rule
   that needs nothing the search lacks: what a new Search would do, without copying
   the links again.  The levels a stop left are undone step by step (without bounds,
   on the links: that costs what reaching them cost); else the links are copied
   back.  After a stop (budget, time) or at a solution. */
static PyObject *
Search_restart(SearchObject *S, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"seed", "max_nodes", "timeout", "heuristic", NULL};
    unsigned long long seed;
    long long max_nodes = -1;
    double timeout = -1.0;
    int heuristic = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "K|Ldi:restart", kwlist, &seed, &max_nodes,
                                     &timeout, &heuristic))
        return NULL;
    Run *r = &S->run;
    if (S->busy || r->memo != NULL || r->bb != NULL
        || (S->status != ST_BUDGET && S->status != ST_TIMEOUT && S->status != ST_PAUSED
            && S->status != ST_DONE)) {
        PyErr_SetString(PyExc_RuntimeError, "restart() is for a search without a cache or a"
                        " bound, once it has stopped");
        return NULL;
    }
    if (heuristic >= H_RULES || (heuristic >= 0 && r->bits != NULL)
        || (heuristic >= 0 && heuristic != H_MRV && r->tree != NULL)   /* (the tree: mrv) */
        || (heuristic == H_SHARP && r->sharp == NULL)
        || (heuristic == H_WEIGHTED && r->wt == NULL)) {
        PyErr_SetString(PyExc_ValueError, "restart(): a rule this search cannot take (on the"
                        " links, with what it needs)");
        return NULL;
    }
    if (S->clash || S->dead || r->t->multi || r->bits != NULL)
        dlx_run_reset(r);
    else
        unwind_levels(r, S->status == ST_BUDGET || S->status == ST_TIMEOUT);
    if (heuristic >= 0)
        r->heuristic = heuristic;
    r->rng = (uint64_t)seed;
    r->updates = 0;
    int placed = dlx_place_forced(r, S->forced, S->n_forced);
    if (r->tree != NULL && placed == PLACED)
        dlx_tree_build(r);              /* (what unwinding or a reset left, read afresh) */
    if (placed == DEAD)
        r->level++;
    dlx_run_start(r);
    S->clash = placed == CLASH;
    S->dead = placed == DEAD;
    S->explored = 0.0;
    r->budget = max_nodes < 1 ? -1 : max_nodes;
    S->deadline = timeout > 0 ? monotonic_seconds() + timeout : 0.0;
    S->status = ST_READY;
    Py_RETURN_NONE;
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
        /* the links: the nodes after x[k] in its item's list; the bitsets: the
           options after x[k] among the level's choices */
        int head = k == r->level ? OFF(r->i) : AT(nd, r->x[k])->t;
        int q = k == r->level ? r->x[k] : AT(nd, r->x[k])->d;
        int xo = r->OPT[IDX(r->x[k])];
        if (r->bits != NULL)
            q = k == r->level ? xo : dlx_bits_sibling(r, k, xo);
        for (; r->bits != NULL ? q >= 0 : q != head;
             q = r->bits != NULL ? dlx_bits_sibling(r, k, q) : AT(nd, q)->d) {
            PyObject *piece = PyTuple_New(k + 1);
            if (piece == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            for (int j = 0; j <= k; j++) {
                int opt = j < k ? r->OPT[IDX(r->x[j])] : r->bits != NULL ? q : r->OPT[IDX(q)];
                PyObject *o = PyLong_FromLong(opt);
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
Search_get_representation(SearchObject *S, void *closure)
{
    return PyUnicode_FromString(S->run.bits != NULL ? "bits" : S->run.tree != NULL ? "tree"
                                                                             : "links");
}

static PyObject *
Search_get_updates(SearchObject *S, void *closure)
{
    return PyLong_FromLongLong(S->run.updates);
}

static PyObject *
Search_get_solutions(SearchObject *S, void *closure)
{
    return solutions_of(&S->run);
}

/* (dlx.zdd) The diagram built: (var, lo, hi, root), the arrays as bytes of int32
   (ids 0 and 1 the sinks); after the search. */
static PyObject *
Search_zdd(SearchObject *S, PyObject *unused)
{
    const Memo *m = S->run.memo;
    if (m == NULL || m->zdd == NULL) {
        PyErr_SetString(PyExc_ValueError, "this search builds no ZDD");
        return NULL;
    }
    const Zdd *z = m->zdd;
    if (z->failed)
        return PyErr_NoMemory();
    Py_ssize_t n = (Py_ssize_t)(z->count * sizeof(int32_t));
    int root = S->clash || S->dead ? 0 : m->last;
    return Py_BuildValue("(y#y#y#i)", (const char *)z->var, n, (const char *)z->lo, n,
                         (const char *)z->hi, n, root);
}

/* (counting by caching) what happened to the cache: its entries, whether it filled
   up, whether a count grew past 128 bits. */
static PyObject *
Search_get_cache(SearchObject *S, void *closure)
{
    const Memo *m = S->run.memo;
    if (m == NULL)
        Py_RETURN_NONE;
    return Py_BuildValue("{s:n,s:O,s:O}", "entries", (Py_ssize_t)m->count, "full",
                         m->full ? Py_True : Py_False, "overflow",
                         m->overflow ? Py_True : Py_False);
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
    {"restart", (PyCFunction)(void (*)(void))Search_restart, METH_VARARGS | METH_KEYWORDS,
     "restart(seed, max_nodes=-1, timeout=-1.0, heuristic=-1): the search from its root\n"
     "again, its random draws from seed, with a new budget and time limit (and another\n"
     "rule, heuristic >= 0), after a stop or a solution."},
    {"zdd", (PyCFunction)Search_zdd, METH_NOARGS,
     "zdd() -> (var, lo, hi, root): the ZDD a search with zdd=True built (the arrays as\n"
     "bytes of int32, ids 0 and 1 the sinks), after count()."},
    {NULL},
};

static PyGetSetDef Search_getset[] = {
    {"status", (getter)Search_get_status, NULL,
     "'ready', 'paused' (at a solution), 'done', 'budget', 'timeout' or 'failed'", NULL},
    {"nodes", (getter)Search_get_nodes, NULL, "nodes visited so far", NULL},
    {"updates", (getter)Search_get_updates, NULL, "link updates so far", NULL},
    {"representation", (getter)Search_get_representation, NULL,
     "'bits' when the search runs on the bitsets (bits.c), 'tree' on the links with\n"
     "X3's tree (tree.h), else 'links' (the links with X3's scan)", NULL},
    {"solutions", (getter)Search_get_solutions, NULL, "solutions reached so far", NULL},
    {"cache", (getter)Search_get_cache, NULL,
     "counting by caching: {'entries': n, 'full': bool, 'overflow': bool}, or None", NULL},
    {NULL},
};

PyTypeObject dlx_Search_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "dlx._core.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Search(table, labels, mode, *, max_nodes=-1, limit=-1, heuristic=0,\n"
              "       progress=None, stats=None, weights=None, ratios=None, integral=False,\n"
              "       forced=None, timeout=-1.0, k=1, scale=1, cache=0, sharp=None,\n"
              "       zdd=False, bits=-1, seed=0)\n\n"
              "One search over its own copy of a Table: mode 'count', 'solutions' or 'best';\n"
              "forced: nodes of options chosen first (a clash: no solution); cache: count by\n"
              "caching, keeping at most that many entries (0: a plain count).",
    .tp_traverse = (traverseproc)Search_traverse,
    .tp_clear = (inquiry)Search_clear,
    .tp_new = Search_new,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};
