/* dlx._core's Table: the static, validated arrays of one problem and the node
 * layout every search of it starts from (built once per problem, cached by
 * dlx.engine), its type object, and the readers of what Python hands the core:
 * numbers (dlx_read_numbers) and sets of option indices (dlx_read_sets).
 * Table.batch is in batch.c, Table.minimize in minimize.c.
 */

#include "core.h"
#include "bits.h"

/* Copy the n numbers of seq into out (see core.h): the one reader of numbers. */
int
dlx_read_numbers(PyObject *seq, const char *name, Py_ssize_t n, char type, long long lo,
                 long long hi, void *out)
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
        if (type == 'd') {
            double v = PyFloat_AsDouble(items[k]);
            if (v == -1.0 && PyErr_Occurred())
                goto fail;
            ((double *)out)[k] = v;
            continue;
        }
        long long v = PyLong_AsLongLong(items[k]);
        if (v == -1 && PyErr_Occurred())
            goto fail;
        if (v < lo || v > hi) {
            PyErr_Format(PyExc_ValueError, "%s[%zd] = %lld is out of range [%lld, %lld]",
                         name, k, v, lo, hi);
            goto fail;
        }
        if (type == 'i')
            ((int *)out)[k] = (int)v;
        else
            ((long long *)out)[k] = v;
    }
    Py_DECREF(fast);
    return 0;
fail:
    Py_DECREF(fast);
    return -1;
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

/* The option walks W (what hide and unhide read), unless the table is `cyclic`
   (then build_layout lays out Knuth's cyclic walks): for node p at position j of
   an option, the other nodes of the option as offsets from its first node, those
   in primary items first and then those in secondary items, each run ended by -1,
   and before them p's own offset (so hide finds the option's first node):

       W[s - 1] = NODE*j,  W[s..] = primary others, -1, secondary others, -1

   where s = nodes[p].s.  The order within a run does not matter (the nodes are in
   distinct lists); each run is in Knuth's cyclic order from p+1.  Options with the
   same length and the same primary positions share their walks (a pattern); an
   option longer than WALK_MAX, or met when the walks already hold WALK_BUDGET
   entries per option node, gets no walk: its nodes' s is 1 and W[0] is -1, and
   hide walks it by the links, as Knuth does (hide_long in dance.h). */
#define WALK_MAX 64
#define WALK_BUDGET 4

typedef struct { uint64_t mask; int len, at; } Pattern;

static int
build_walks(TableObject *t, size_t option_nodes)
{
    int N = t->N, N1 = t->N1, M = t->M;
    size_t cap = 64, limit = WALK_BUDGET * option_nodes + 4096, used = 2, room = 4096;
    while (cap < 2 * (size_t)t->n_options + 2)
        cap *= 2;
    Pattern *seen = (Pattern *)PyMem_Calloc(cap, sizeof(Pattern));   /* len 0: free */
    t->W = (int *)PyMem_Malloc(room * sizeof(int));
    if (seen == NULL || t->W == NULL) {
        PyMem_Free(seen);
        return -1;
    }
    t->W[0] = -1;                 /* where the nodes of an option without a walk point */
    t->W[1] = -1;
    for (int k = N + 2; k < M; k++) {
        if (t->TOP[k] <= 0)
            continue;
        int f = k, len = 0;
        uint64_t mask = 0;
        while (t->TOP[f + len] > 0) {
            if (len < WALK_MAX && t->TOP[f + len] <= N1)
                mask |= 1ULL << len;
            len++;
        }
        k = f + len;       /* the spacer after the option */
        int at = -1;
        if (len <= WALK_MAX) {
            size_t h = (size_t)((mask * 0x9e3779b97f4a7c15ULL) ^ (uint64_t)len) & (cap - 1);
            while (seen[h].len != 0 && (seen[h].len != len || seen[h].mask != mask))
                h = (h + 1) & (cap - 1);
            if (seen[h].len != 0)
                at = seen[h].at;
            else if (used + (size_t)len * (len + 2) <= limit) {
                while (used + (size_t)len * (len + 2) > room) {
                    int *more = (int *)PyMem_Realloc(t->W, 2 * room * sizeof(int));
                    if (more == NULL) {
                        PyMem_Free(seen);
                        return -1;
                    }
                    t->W = more;
                    room *= 2;
                }
                at = (int)used;
                seen[h].len = len;
                seen[h].mask = mask;
                seen[h].at = at;
                for (int j = 0; j < len; j++) {      /* node j's walk */
                    int *w = t->W + used;
                    *w++ = OFF(j);
                    for (int prim = 1; prim >= 0; prim--) {
                        for (int e = 1; e < len; e++) {
                            int o = (j + e) % len;
                            if ((int)(mask >> o & 1) == prim)
                                *w++ = OFF(o);
                        }
                        *w++ = -1;
                    }
                    used += (size_t)len + 2;
                }
            }
        }
        for (int j = 0; j < len; j++)
            t->nodes[f + j].s = at < 0 ? 1 : at + j * (len + 2) + 1;
    }
    PyMem_Free(seen);
    return 0;
}

/* The node layout a search starts from (and the walks, build_walks). */
static int
build_layout(TableObject *t)
{
    int N = t->N, N1 = t->N1, M = t->M;
    size_t option_nodes = 0;
    for (int k = N + 1; k < M; k++)
        option_nodes += t->TOP[k] > 0;
    t->nodes = (Node *)PyMem_Malloc((size_t)M * sizeof(Node));
    t->first = (int *)PyMem_Malloc(((size_t)t->n_options + 1) * sizeof(int));
    if (t->nodes == NULL || t->first == NULL)
        return -1;
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
    if (!t->cyclic)
        return build_walks(t, option_nodes);
    /* Knuth's cyclic walks: for each option length L, the offsets 0, NODE, ...,
       NODE*(L-1) twice in a row; node j's walk starts at (the start of L's) + j + 1
       and stops at the entry before it, NODE*j, in the second copy: Knuth's cyclic
       walk, with neither a spacer test nor a wrap-around (hide in dance.h). */
    int *at = (int *)PyMem_Malloc(((size_t)M + 1) * sizeof(int));  /* length -> walk */
    t->W = (int *)PyMem_Malloc((2 * option_nodes + 1) * sizeof(int));
    if (at == NULL || t->W == NULL) {
        PyMem_Free(at);
        return -1;
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
   on failure, free it and return NULL with an exception set.  A layout this file
   made itself (from_entries: `made` 1, no colours) has the shape by construction, and
   is not walked again (the walk of every list is half the time of a big table). */
static PyObject *
table_finish(TableObject *t, PyObject *bound, PyObject *slack, int made)
{
    int N = t->N, N1 = t->N1;
    /* Shape checks that the search relies on to stay inside the arrays: headers
       are nodes 1..N, node N+1 and the last node are spacers, option nodes know
       their option, colours are on secondary items only. */
    int colored = 0;
    for (int x = 0; x < t->M && !made; x++) {
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
    if (!made && (t->TOP[N + 1] > 0 || t->TOP[t->M - 1] > 0 || check_layout(t) < 0))
        goto bad;
    t->colored = colored;
    if (bound != Py_None && slack != Py_None) {
        t->BOUND = (int *)PyMem_Malloc(2 * ((size_t)N1 + 1) * sizeof(int));
        if (t->BOUND == NULL) {
            Py_DECREF(t);
            return PyErr_NoMemory();
        }
        t->SLACK = t->BOUND + (N1 + 1);
        if (dlx_read_numbers(bound, "BOUND", N1 + 1, 'i', 0, INT_MAX / 2, t->BOUND) < 0 ||
            dlx_read_numbers(slack, "SLACK", N1 + 1, 'i', 0, INT_MAX / 2, t->SLACK) < 0) {
            Py_DECREF(t);
            return NULL;
        }
        for (int i = 1; i <= N1; i++) {
            if (t->SLACK[i] > t->BOUND[i])
                goto bad;
            t->multi |= t->BOUND[i] != 1 || t->SLACK[i] != 0;
        }
    }
    /* Setting the secondary nodes apart in the walks (build_walks) pays when there
       are many of them (half of them, say); with none, or few (one in five in
       bench/core.py's planted instances), the cyclic walks are faster.  With
       colours or bounds the dance needs them apart (hide). */
    long long secondary_nodes = 0, option_nodes = 0;
    for (int x = N + 2; x < t->M; x++) {
        option_nodes += t->TOP[x] > 0;
        secondary_nodes += t->TOP[x] > N1;
    }
    t->cyclic = !t->multi && !colored && 3 * secondary_nodes < option_nodes;
    if (build_layout(t) < 0 || dlx_bits_build(t) < 0) {
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
    if (dlx_read_numbers(ll, "LLINK", N + 2, 'i', 0, N + 1, t->LL) < 0 ||
        dlx_read_numbers(rl, "RLINK", N + 2, 'i', 0, N + 1, t->RL) < 0 ||
        dlx_read_numbers(len, "LEN", N + 1, 'i', 0, M, t->LEN) < 0 ||
        dlx_read_numbers(ul, "ULINK", M, 'i', 0, M - 1, t->U) < 0 ||
        dlx_read_numbers(dl, "DLINK", M, 'i', 0, M - 1, t->D) < 0 ||
        dlx_read_numbers(top, "TOP", M, 'i', -(long long)n_options, N, t->TOP) < 0 ||
        dlx_read_numbers(col, "COLOR", M, 'i', 0, INT_MAX, t->COL) < 0 ||
        dlx_read_numbers(opt, "OPT", M, 'i', -1, (long long)n_options - 1, t->OPT) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    return table_finish(t, bound, slack, 0);
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
    /* first pass: check the buffer (numbers in range, no item twice in an option:
       what table_finish's walk would check) and count the kept options and nodes */
    int32_t *seen = N < 0 || N1 < 0 || N1 > N ? NULL
                    : (int32_t *)PyMem_Calloc((size_t)N + 1, sizeof(int32_t));
    for (int32_t o = 1; k < n && seen != NULL; o++) {
        int len = e[k];
        if (len < 0 || len > n - k - 1 || o == INT32_MAX)
            goto bad_buffer;
        int primary = 0;
        for (int j = 1; j <= len; j++) {
            int i = e[k + j];
            if (i < 1 || i > N || seen[i] == o)
                goto bad_buffer;
            seen[i] = o;
            primary |= i <= N1;
        }
        if (primary) {
            kept++;
            M += len + 1;
        }
        k += len + 1;
    }
    if (seen == NULL) {
        PyBuffer_Release(&buf);
        return N < 0 || N1 < 0 || N1 > N ? PyErr_Format(PyExc_ValueError,
                                                        "Table: bad item counts")
                                         : PyErr_NoMemory();
    }
    PyMem_Free(seen);
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
    return table_finish(t, bound, slack, 1);
bad_buffer:
    PyMem_Free(seen);
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
    dlx_bits_free(t->bits);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

int
dlx_levels(const TableObject *t)
{
    int N1 = t->N1;
    if (!t->multi)
        return N1 + 2;
    long long d = 0;
    for (int i = 1; i <= N1; i++)
        d += t->BOUND[i];
    return (int)((d < t->n_options ? d : t->n_options) + N1 + 2);
}

/* ------------------------------------------------- sets of option indices */

void
dlx_free_sets(Sets *s)
{
    PyMem_Free(s->at);
    PyMem_Free(s->start);
    s->at = s->start = NULL;
}

/* Read a sequence of sequences of option indices, each an option with a primary
   item, into s (free it with dlx_free_sets); -1 with an exception set (and nothing
   to free) on error; `what` is the TypeError's message for a wrong shape. */
int
dlx_read_sets(const TableObject *t, PyObject *seq, const char *what, Sets *s)
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
    dlx_free_sets(s);
    return -1;
}

/* The options of x[0..n): their labels (a tuple, one per option), or with labels
   None their indices. */
PyObject *
dlx_options_of(const TableObject *t, const int *xs, int n, PyObject *labels)
{
    int m = 0;                      /* Algorithm M's null choices have no option */
    for (int k = 0; k < n; k++)
        m += t->OPT[IDX(xs[k])] >= 0;
    PyObject *out = PyTuple_New(m);
    if (out == NULL)
        return NULL;
    for (int k = 0, j = 0; k < n; k++) {
        int opt = t->OPT[IDX(xs[k])];
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

/* ------------------------------------------------------------ the type */

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
    {"batch", (PyCFunction)(void (*)(void))dlx_Table_batch, METH_VARARGS | METH_KEYWORDS,
     "batch(forced_sets, limit=1, max_nodes=-1, labels=None, timeout=-1.0)\n"
     "    -> [(count, nodes, first, status, seconds), ...]\n\n"
     "Search under each set of forced options (option indices) without the GIL: count\n"
     "is the number of solutions found up to limit, nodes the search's nodes, first the\n"
     "first solution (its labels, with labels a tuple of one per option, else its option\n"
     "indices) or None, status 0 (done), 1 (the forced options clash), 2 (the node\n"
     "budget ran out) or 3 (the batch's time, timeout seconds, ran out: this set was\n"
     "stopped or not searched), seconds the time it took."},
    {"batch_codes", (PyCFunction)(void (*)(void))dlx_Table_batch_codes,
     METH_VARARGS | METH_KEYWORDS,
     "batch_codes(rows, width, codes, limit=1, max_nodes=-1, timeout=-1.0, bits=-1)\n"
     "    -> (found, nodes, status, seconds, solutions)\n\n"
     "batch for sets given as rows of codes, a code per position (bytes, width per row):\n"
     "code c > 0 at position p forces option codes[p * K + c - 1] (codes: int32 option\n"
     "indices, -1 for none), 0 nothing.  Answers as bytes: found and nodes int64 per row,\n"
     "status a byte per row, seconds doubles, and solutions a row of codes per row (the\n"
     "code of each position in the first solution; 0: none)."},
    {"minimize", (PyCFunction)(void (*)(void))dlx_Table_minimize, METH_VARARGS | METH_KEYWORDS,
     "minimize(forced, groups, max_nodes=-1, unavoidable=(), keep=0, timeout=-1.0)\n"
     "    -> (status, found, kept, searches, nodes, unknown)\n\n"
     "Drop each group of forced options (option indices) whose removal leaves exactly\n"
     "one solution (dlx.minimal.minimize, the reference); a group that would leave an\n"
     "unavoidable set without a kept option stays, unsearched.  status 0: done; 1: the\n"
     "forced options have `found` solutions, not one (nothing dropped); 2: that check\n"
     "ran out of max_nodes; 3: timeout seconds ran out (the groups not decided are\n"
     "kept).  kept: the forced options left, in order."},
    {"estimate", (PyCFunction)(void (*)(void))dlx_Table_estimate, METH_VARARGS | METH_KEYWORDS,
     "estimate(samples, seed, heuristic=0, forced=(), sharp=None, timeout=-1.0, bits=-1)\n"
     "    -> (done, nodes_mean, nodes_m2, solutions_mean, solutions_m2)\n\n"
     "Knuth's random probes of the search tree below the forced options (option\n"
     "indices), as dlx.estimate makes them: the same random numbers (splitmix64 from\n"
     "seed) and Welford's sums of the estimates of the probes made.  bits: 2 keeps\n"
     "X3's tree where it serves, 0 the scan, -1 the core's choice."},
    {NULL},
};

static PyGetSetDef Table_getset[] = {
    {"nodes", (getter)Table_get_nodes, NULL, "number of nodes (headers, spacers, options)", NULL},
    {"colored", (getter)Table_get_colored, NULL, "True when some node has a colour", NULL},
    {NULL},
};

PyTypeObject dlx_Table_Type = {
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
