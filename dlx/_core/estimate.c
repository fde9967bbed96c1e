/* dlx._core's estimate: Knuth's random probes of the search tree (dlx/estimate.py is
 * the reference: the same probes, the same random numbers, the same sums, so that
 * a seed gives the same estimate on both engines).  A probe walks one random path
 * down from the forced options, without the GIL, and undoes it step by step.
 */

#include "core.h"

/* (The random numbers, splitmix64, are dance.h's rand_next and rand_below: the
   pure engine's dlx.dance.Rand.) */

/* One random path of Algorithm C's tree below r's current level (its base): the
   estimates of the nodes and solutions; the links (and X3's tree, with `tree`) are
   left as found. */
ALWAYS_INLINE void
probe_plain(Run *r, uint64_t *rng, double *nodes, double *solutions, const int tree)
{
    Ctx c = ctx_of(r);
    char *nd = (char *)r->nd;
    const int colored = dlx_dance(r->t, 1) | tree, base = r->level;
    int level = base;
    double size = 1.0, total = 1.0, found = 0.0;
    for (;;) {
        if (r->RL[0] == 0) {
            found = size;
            break;
        }
        if (c.zeros > 0)
            break;                              /* an item no option can cover */
        r->zeros = c.zeros;
        int i = tree ? x3_choose(&c, colored) : choose_item(r);
        int d = LEN_OF(nd, OFF(i));
        uint64_t k = rand_below(rng, (uint64_t)d);
        int x = AT(nd, OFF(i))->d;
        while (k--)
            x = AT(nd, x)->d;
        size *= d;
        total += size;
        cover(&c, i, colored);
        for (int q = next_node(nd, x); q != x; q = next_node(nd, q))
            commit(&c, q, colored);
        r->x[level++] = x;
    }
    while (level > base) {                      /* undo the path, deepest first */
        int x = r->x[--level];
        uncommit_option(&c, x, prev_node(nd, x), colored);
        uncover(&c, IDX(AT(nd, x)->t), colored);
    }
    r->zeros = c.zeros;
    *nodes = total;
    *solutions = found;
}

/* One random path of Algorithm M's tree: at each node, the k-th of its d branches as
   the search reaches it (M4; M5 and M7 for the branches before it; M6), as
   dlx.estimate._probe_bounded walks it. */
ALWAYS_INLINE void
probe_bounded(Run *r, uint64_t *rng, double *nodes, double *solutions, const int tree)
{
    Ctx c = ctx_of(r);
    char *nd = (char *)r->nd;
    const int N = r->t->N, base = r->level, how = KEPT_LENS | tree;
    int level = base;
    double size = 1.0, total = 1.0, found = 0.0;
    for (;;) {
        if (r->RL[0] == 0) {
            found = size;
            break;
        }
        int d, s, i;
        if (tree)
            d = degree_of(r, i = x3_choose(&c, how), &s);
        else
            i = choose_bounded(r, &d);
        if (d <= 0)
            break;
        uint64_t k = rand_below(rng, (uint64_t)d);
        size *= d;
        total += size;
        if (--r->BOUND[i] == 0)                 /* M4 */
            cover(&c, i, how);
        else
            x3_fix(&c, i, how);
        int xl = AT(nd, OFF(i))->d;
        r->first[level] = xl;
        if (r->BOUND[i] || r->SLACK[i]) {
            while (k--) {                       /* M5, M6 and M7 of the branches before */
                tweak(&c, xl, r->BOUND[i] != 0, how);
                xl = AT(nd, xl)->d;
            }
            if (xl != OFF(i))
                tweak(&c, xl, r->BOUND[i] != 0, how);              /* M5 for this one */
            else if (r->BOUND[i])
                deactivate(&c, i, how);                 /* the null choice */
        }
        else {
            while (k--)
                xl = AT(nd, xl)->d;
        }
        r->x[level++] = xl;
        if (IDX(xl) > N)                        /* M6: an option, not the null choice */
            for (int q = next_node(nd, xl); q != xl; q = next_node(nd, q))
                commit_bounded(&c, q, how);
    }
    while (level > base) {                      /* undo, as dlx.search._unwind_bounded */
        int xl = r->x[--level], i;
        r->level = level;
        if (IDX(xl) <= N) {
            i = IDX(xl);
            reactivate(&c, i, how);
        }
        else {
            i = IDX(AT(nd, xl)->t);
            for (int q = prev_node(nd, xl); q != xl; q = prev_node(nd, q))
                uncommit_bounded(&c, q, how);
            if (r->BOUND[i] == 0 && r->SLACK[i])
                reactivate(&c, i, how);
        }
        restore_bounded(&c, i, r->first[level], how);
    }
    r->level = base;
    r->zeros = c.zeros;
    *nodes = total;
    *solutions = found;
}

/* The probes, compiled with X3's scan and with its tree. */
static void
probe_plain_scan(Run *r, uint64_t *rng, double *nodes, double *solutions)
{
    probe_plain(r, rng, nodes, solutions, 0);
}

static void
probe_plain_tree(Run *r, uint64_t *rng, double *nodes, double *solutions)
{
    probe_plain(r, rng, nodes, solutions, TREE);
}

static void
probe_bounded_scan(Run *r, uint64_t *rng, double *nodes, double *solutions)
{
    probe_bounded(r, rng, nodes, solutions, 0);
}

static void
probe_bounded_tree(Run *r, uint64_t *rng, double *nodes, double *solutions)
{
    probe_bounded(r, rng, nodes, solutions, TREE_BOUNDED);
}

/* Table.estimate(samples, seed, heuristic=0, forced=(), sharp=None, timeout=-1.0)
       -> (done, nodes_mean, nodes_m2, solutions_mean, solutions_m2): Welford's sums
   over the probes made (fewer than samples when the time ran out). */
PyObject *
dlx_Table_estimate(TableObject *t, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"samples", "seed", "heuristic", "forced", "sharp", "timeout", "bits",
                             NULL};
    long long samples;
    unsigned long long seed;
    int heuristic = H_MRV, bits = -1;
    PyObject *forced = NULL, *sharp = Py_None;
    double timeout = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "LK|iOOdi:estimate", kwlist, &samples, &seed,
                                     &heuristic, &forced, &sharp, &timeout, &bits))
        return NULL;
    if (heuristic < 0 || heuristic >= H_RULES
        || (heuristic == H_SHARP) != (sharp != Py_None)
        || (sharp != Py_None && (!PyBytes_Check(sharp)
                                 || PyBytes_GET_SIZE(sharp) != (Py_ssize_t)t->N1 + 1))) {
        PyErr_SetString(PyExc_ValueError, "estimate: a bad heuristic or sharp");
        return NULL;
    }
    Sets f = {NULL, NULL, 0};
    if (forced != NULL && forced != Py_None) {
        PyObject *one = PyTuple_Pack(1, forced);
        if (one == NULL)
            return NULL;
        int bad = dlx_read_sets(t, one, "forced must be a sequence of option indices", &f);
        Py_DECREF(one);
        if (bad < 0)
            return NULL;
    }
    int n = f.at == NULL ? 0 : f.start[1];
    for (int k = 0; k < n; k++)
        f.at[k] = OFF(t->first[f.at[k]]);
    Run run, *r = &run;
    long long *wt = NULL;
    if (dlx_run_alloc(r, t) < 0
        || (heuristic == H_WEIGHTED
            && (wt = (long long *)PyMem_Malloc(((size_t)t->N1 + 1) * sizeof(long long))) == NULL)) {
        dlx_free_sets(&f);
        PyMem_Free(wt);
        return PyErr_NoMemory();
    }
    r->heuristic = heuristic;
    r->rng = (uint64_t)seed;        /* a rule's own draws: from the seed, as dlx.estimate's */
    r->sharp = sharp == Py_None ? NULL : (const unsigned char *)PyBytes_AS_STRING(sharp);
    r->wt = wt;
    for (int j = 0; wt != NULL && j <= t->N1; j++)
        wt[j] = 1;
    /* X3's tree (bits 2: where it serves; -1: when it pays), or the scan */
    if (dlx_tree_attach(r, bits == 2 ? 1 : bits < 0 ? -1 : 0) < 0) {
        dlx_free_sets(&f);
        PyMem_Free(wt);
        PyMem_Free(r->block);
        return PyErr_NoMemory();
    }
    int placed = dlx_place_forced(r, f.at, n);
    dlx_free_sets(&f);
    if (placed == PLACED && r->tree != NULL)
        dlx_tree_build(r);
    double deadline = timeout > 0 ? monotonic_seconds() + timeout : 0.0;
    int on_main = PyThread_get_thread_ident() == dlx_main_thread, interrupted = 0;
    long long done = 0;
    double nm = 0.0, n2 = 0.0, sm = 0.0, s2 = 0.0;
    uint64_t rng = (uint64_t)seed;
    PyThreadState *ts = PyEval_SaveThread();
    for (; done < samples; done++) {
        if (done % 64 == 0) {
            if (deadline > 0 && monotonic_seconds() >= deadline)
                break;
            if (on_main && done > 0) {
                PyEval_RestoreThread(ts);
                interrupted = PyErr_CheckSignals() < 0;
                ts = PyEval_SaveThread();
                if (interrupted)
                    break;
            }
        }
        double v, w;
        if (placed == CLASH)
            v = w = 0.0;                        /* no search at all */
        else if (placed == DEAD)
            v = 1.0, w = 0.0;                   /* its root is a dead end */
        else if (t->multi)
            (r->tree != NULL ? probe_bounded_tree : probe_bounded_scan)(r, &rng, &v, &w);
        else
            (r->tree != NULL ? probe_plain_tree : probe_plain_scan)(r, &rng, &v, &w);
        double k = (double)(done + 1), delta = v - nm;
        nm += delta / k;
        n2 += delta * (v - nm);
        delta = w - sm;
        sm += delta / k;
        s2 += delta * (w - sm);
    }
    PyEval_RestoreThread(ts);
    PyMem_Free(r->block);
    dlx_tree_detach(r);
    PyMem_Free(wt);
    if (interrupted)
        return NULL;
    return Py_BuildValue("(Ldddd)", done, nm, n2, sm, s2);
}
