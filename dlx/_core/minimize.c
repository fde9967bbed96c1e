/* dlx._core's minimize: Table.minimize drops groups of forced options while the
 * problem under the options left keeps exactly one solution (dlx.minimal has the
 * reference, step by step; dlx.Prepared.minimize calls this).  Two phases, as the
 * reference: groups whose options are implied by the others go without a search;
 * each other group is searched once.
 */

#include "core.h"

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

/* Take option o out of its items' lists before a search (unexclude or dlx_run_reset
   puts it back). */
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
enum { MIN_DONE, MIN_NOT_ONE, MIN_BUDGET, MIN_TIMEOUT };

/* The groups of each option of set 0 of `of` alone, in order; -1 on no memory. */
static int
each_alone(const Sets *of, Sets *s)
{
    int n = of->start[1];
    s->count = n;
    s->at = (int *)PyMem_Malloc(((size_t)n + 1) * sizeof(int));
    s->start = (int *)PyMem_Malloc(((size_t)n + 1) * sizeof(int));
    if (s->at == NULL || s->start == NULL) {
        dlx_free_sets(s);
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
               double deadline, int on_main, PyThreadState **ts, int *why, int *late,
               int *interrupted, long long *nodes)
{
    int m = kept_but(r->t, opts, n, state, group_of, g, place);
    long long found = 0;
    if (g >= 0 && groups->start[g + 1] - groups->start[g] == 1)
        exclude(r, groups->at[groups->start[g]]);
    int placed = dlx_place_forced(r, place, m);
    *why = R_DONE;
    if (placed == PLACED) {
        *why = dlx_search_placed(r, limit, max_nodes, deadline, on_main, ts, late,
                                 interrupted);
        found = r->solutions;
        *nodes += r->nodes;
    }
    else
        *nodes += placed == DEAD;
    dlx_run_reset(r);
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
    Ctx c = ctx_of(r);
    const char *nd = (const char *)r->nd;
    const int colored = dlx_dance(r->t, 1), f = OFF(r->t->first[o]);
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
    Ctx c = ctx_of(r);
    const char *nd = (const char *)r->nd;
    const int colored = dlx_dance(r->t, 1), f = OFF(r->t->first[o]);
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
    Ctx c = ctx_of(r);
    const char *nd = (const char *)r->nd;
    const int colored = dlx_dance(r->t, 0);     /* as the loop danced */
    if (why == R_BUDGET)
        uncover(&c, r->i, colored);
    while (r->level > r->base) {
        int xl = r->x[--r->level];
        uncommit_option(&c, xl, prev_node(nd, xl), colored);
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
    double deadline;            /* monotonic seconds (0: none) */
    int on_main, interrupted, broken, late;
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
    if (p->broken || p->interrupted || p->late || p->r->t->multi)
        return;     /* stopped (the links are given up), or placed by each check */
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
    if (p->deadline > 0 && monotonic_seconds() > p->deadline) {
        p->late = 1;                /* out of time: this group and those after it stay */
        return;
    }
    int why;
    long long found;
    p->searches++;
    if (r->t->multi) {
        found = search_without(r, gs, g, p->opts, p->n, p->state, p->group_of, p->place,
                               single ? 1 : 2, p->max_nodes, p->deadline, p->on_main, &p->ts,
                               &why, &p->late, &p->interrupted, &p->nodes);
    }
    else {
        if (single)
            exclude(r, gs->at[lo]);
        why = dlx_search_placed(r, single ? 1 : 2, p->max_nodes, p->deadline, p->on_main,
                                &p->ts, &p->late, &p->interrupted);
        found = r->solutions;
        p->nodes += r->nodes;
        if (p->late)
            return;                 /* out of time mid-search: the links are given up */
        if (why == R_SOLUTION || why == R_BUDGET)   /* it stopped early: back to its root */
            unwind(r, why);
        if (single && why != R_BROKEN && !p->interrupted)
            unexclude(r, gs->at[lo]);
    }
    p->broken = why == R_BROKEN;
    if (p->late)
        return;
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
    if (p->interrupted || p->broken || p->late)
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

/* Table.minimize(forced, groups, max_nodes=-1, unavoidable=(), keep=0, timeout=-1.0)
       -> (status, found, kept, searches, nodes, unknown); status MIN_TIMEOUT when the
       time ran out (the groups not yet decided are kept) */
PyObject *
dlx_Table_minimize(TableObject *t, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"forced", "groups", "max_nodes", "unavoidable", "keep", "timeout",
                             NULL};
    PyObject *forced_seq, *groups_seq, *sets_seq = NULL, *result = NULL;
    long long max_nodes = -1;
    int keep = 0;
    double timeout = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|LOid:minimize", kwlist, &forced_seq,
                                     &groups_seq, &max_nodes, &sets_seq, &keep, &timeout))
        return NULL;
    double deadline = timeout > 0 ? monotonic_seconds() + timeout : 0.0;
    int n_opt = t->n_options;
    Sets forced = {NULL, NULL, 0}, groups = {NULL, NULL, 0}, u = {NULL, NULL, 0};
    int *state = NULL, *group_of = NULL, *cov = NULL, *hue = NULL, *place = NULL;
    int *hard = NULL, *mark = NULL, *of_at = NULL, *sets_of = NULL;
    Run run, *r = &run;
    r->block = NULL;
    PyObject *one = PyTuple_Pack(1, forced_seq);
    if (one == NULL)
        return NULL;
    int bad = dlx_read_sets(t, one, "forced must be a sequence of option indices", &forced) < 0
        || (groups_seq == Py_None ? each_alone(&forced, &groups)
            : dlx_read_sets(t, groups_seq, "groups must be sequences of option indices",
                            &groups)) < 0
        || (sets_seq != NULL && dlx_read_sets(t, sets_seq, "unavoidable must be sequences of"
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
        || dlx_run_alloc(r, t) < 0) {
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
    int status = MIN_DONE, interrupted = 0, late = 0, why, n_hard = 0;
    int on_main = PyThread_get_thread_ident() == dlx_main_thread;
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
                                 max_nodes, deadline, on_main, &ts, &why, &late,
                                 &interrupted, &nodes);
    if (late)
        status = MIN_TIMEOUT;
    else if (why == R_BUDGET)
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
                 searches, nodes, 0, deadline, on_main, 0, 0, 0, ts, left, keep, opts, n,
                 place};
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
    if (pass.late)
        status = MIN_TIMEOUT;
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
    dlx_free_sets(&forced);
    dlx_free_sets(&groups);
    dlx_free_sets(&u);
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
