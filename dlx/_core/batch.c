/* dlx._core's batches: Table.batch searches one problem under many sets of
 * forced options (dlx.Prepared), on one copy of the links (or the bitsets) and
 * without the GIL, resetting them between sets; Table.batch_codes does the same
 * for sets given as rows of small codes (a choice per position: a digit per
 * cell of a grid, say), answering with codes too, so that no Python object is made
 * per set.  dlx_search_placed, the search below forced options already placed,
 * is minimize.c's too.
 */

#include "core.h"

enum { BATCH_DONE, BATCH_CLASH, BATCH_BUDGET, BATCH_TIMEOUT };

/* Search below the forced options just placed, to `limit` solutions (< 1: all)
   within `max_nodes` (< 1: no budget), without the GIL (*ts holds the thread
   state), taking it back at check points only to handle signals on the main
   thread.  Returns the loop's last reason; R_CHECK means it stopped at a check
   point: the deadline passed (*late) or a signal handler raised (*interrupted). */
int
dlx_search_placed(Run *r, long long limit, long long max_nodes, double deadline, int on_main,
                  PyThreadState **ts, int *late, int *interrupted)
{
    dlx_run_start(r);
    r->budget = max_nodes < 1 ? -1 : max_nodes;
    r->limit = limit < 1 ? -1 : limit;
    r->pause_at = LLONG_MAX;
    for (;;) {
        int why = dlx_run_core(r);
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

/* The answers of a batch, one entry per set. */
typedef struct {
    long long *found, *nodes;
    double *secs;
    unsigned char *status;
    int *firsts, *first_len;        /* the first solution of each (node offsets) */
    size_t width;                   /* room for one solution */
} Answers;

static void
answers_free(Answers *a)
{
    PyMem_Free(a->found);
    PyMem_Free(a->secs);
    PyMem_Free(a->status);
    PyMem_Free(a->firsts);
    PyMem_Free(a->first_len);
}

static int
answers_alloc(Answers *a, Py_ssize_t count, size_t width)
{
    memset(a, 0, sizeof(Answers));
    a->width = width;
    a->found = (long long *)PyMem_Malloc(((size_t)count + 1) * 2 * sizeof(long long));
    a->secs = (double *)PyMem_Malloc(((size_t)count + 1) * sizeof(double));
    a->status = (unsigned char *)PyMem_Malloc((size_t)count + 1);
    a->firsts = (int *)PyMem_Malloc(((size_t)count * width + 1) * sizeof(int));
    a->first_len = (int *)PyMem_Malloc(((size_t)count + 1) * sizeof(int));
    if (a->found == NULL || a->secs == NULL || a->status == NULL || a->firsts == NULL
            || a->first_len == NULL) {
        answers_free(a);
        return -1;
    }
    a->nodes = a->found + count + 1;
    return 0;
}

/* What one batch shares across its sets: limits, the clock, the GIL. */
typedef struct {
    long long limit, max_nodes;
    double deadline;
    int on_main, late, interrupted, broken;
    unsigned sets;                  /* sets searched since the last look at signals */
    PyThreadState *ts;
} Batch;

/* Before a set: on the main thread, every 256 sets, run the signal handlers (a
   batch of many small searches may never reach a check point inside one). */
static void
batch_poll(Batch *B)
{
    if (!B->on_main || (++B->sets & 255) != 0)
        return;
    PyEval_RestoreThread(B->ts);
    if (PyErr_CheckSignals() < 0)
        B->interrupted = 1;
    B->ts = PyEval_SaveThread();
}

/* Search set k (its forced options as node offsets) and record its answer; the
   links (or bitsets) are reset after.  Without the GIL. */
static void
search_set(Run *r, Batch *B, Answers *a, Py_ssize_t k, const int *forced, int n)
{
    int *first = a->firsts + (size_t)k * a->width;
    double began = monotonic_seconds();
    a->first_len[k] = -1;
    r->updates = 0;
    if (B->late || (B->deadline > 0 && began > B->deadline)) {
        B->late = 1;                            /* out of time: not searched */
        a->found[k] = a->nodes[k] = 0;
        a->status[k] = BATCH_TIMEOUT;
        a->secs[k] = 0.0;
        return;
    }
    int placed = dlx_place_forced(r, forced, n);
    if (placed == PLACED && r->tree != NULL)
        dlx_tree_build(r);              /* (X3's tree, from the state placed) */
    if (placed != PLACED) {
        dlx_run_reset(r);
        a->found[k] = 0;
        a->nodes[k] = placed == DEAD;           /* a dead root is one node */
        a->status[k] = placed == CLASH ? BATCH_CLASH : BATCH_DONE;
        a->secs[k] = monotonic_seconds() - began;
        return;
    }
    int why = dlx_search_placed(r, B->limit, B->max_nodes, B->deadline, B->on_main, &B->ts,
                                &B->late, &B->interrupted);
    if (why == R_BROKEN)
        B->broken = 1;
    a->found[k] = r->solutions;
    a->status[k] = B->late ? BATCH_TIMEOUT : why == R_BUDGET ? BATCH_BUDGET : BATCH_DONE;
    a->nodes[k] = r->nodes - B->late;       /* stopped at X5: x_l counted, not tried */
    if (r->solutions > 0) {
        a->first_len[k] = r->first_len;
        memcpy(first, r->first_x, (size_t)r->first_len * sizeof(int));
    }
    dlx_run_reset(r);
    a->secs[k] = monotonic_seconds() - began;
}

/* A batch's search state: a count mode search keeping its first solution. */
static int
batch_start(Run *r, const TableObject *t, int bits, Batch *B, long long limit,
            long long max_nodes, double timeout)
{
    if (dlx_run_alloc_bare(r, t) < 0)
        return -1;
    r->mode = MODE_COUNT;
    r->keep_first = 1;
    if (dlx_run_attach(r, bits) < 0) {
        PyMem_Free(r->block);
        return -1;
    }
    B->limit = limit;
    B->max_nodes = max_nodes;
    B->late = B->interrupted = B->broken = 0;
    B->sets = 0;
    /* signals are handled on the main thread only: elsewhere a check point needs
       no GIL (see drive) */
    B->on_main = PyThread_get_thread_ident() == dlx_main_thread;
    B->deadline = timeout > 0 ? monotonic_seconds() + timeout : 0.0;
    return 0;
}

static void
batch_end(Run *r)
{
    PyMem_Free(r->block);
    dlx_bits_detach(r);
    dlx_tree_detach(r);
}

/* After the sets: an exception for an interruption (already set) or a bug. */
static int
batch_failed(const Batch *B)
{
    if (B->interrupted)
        return 1;
    if (B->broken) {
        PyErr_SetString(PyExc_RuntimeError, "dlx._core: inconsistent links (a bug)");
        return 1;
    }
    return 0;
}

/* Table.batch(forced_sets, limit=1, max_nodes=-1, labels=None, timeout=-1.0, bits=-1):
   search the problem under each set of forced options, on one copy of the links
   (or bitsets), without the GIL.  For each set: place the forced options (a
   clash: nothing searched), count the solutions up to `limit` keeping the first,
   then undo everything.  Answers, node counts and budgets are those of
   Search(..., mode="count", forced=set). */
PyObject *
dlx_Table_batch(TableObject *t, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"forced_sets", "limit", "max_nodes", "labels", "timeout", "bits",
                             NULL};
    PyObject *sets, *labels = Py_None;
    long long limit = 1, max_nodes = -1;
    double timeout = -1.0;
    int bits = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|LLOdi:batch", kwlist, &sets, &limit,
                                     &max_nodes, &labels, &timeout, &bits))
        return NULL;
    if (labels != Py_None && (!PyTuple_Check(labels)
                              || PyTuple_GET_SIZE(labels) != t->n_options)) {
        PyErr_SetString(PyExc_ValueError, "labels must be a tuple of one label per option");
        return NULL;
    }
    Sets forced;
    if (dlx_read_sets(t, sets, "forced_sets must be a sequence of sequences of option indices",
                  &forced) < 0)
        return NULL;
    Py_ssize_t count = forced.count;
    const int *start = forced.start;
    int *all = forced.at;
    for (int k = 0; k < start[count]; k++)      /* where the search places each */
        all[k] = OFF(t->first[all[k]]);

    Run run, *r = &run;
    Answers a;
    Batch B;
    if (answers_alloc(&a, count, (size_t)dlx_levels(t)) < 0) {
        dlx_free_sets(&forced);
        return PyErr_NoMemory();
    }
    if (batch_start(r, t, bits, &B, limit, max_nodes, timeout) < 0) {
        answers_free(&a);
        dlx_free_sets(&forced);
        return PyErr_NoMemory();
    }
    B.ts = PyEval_SaveThread();
    for (Py_ssize_t k = 0; k < count && !B.broken && !B.interrupted; k++) {
        search_set(r, &B, &a, k, all + start[k], (int)(start[k + 1] - start[k]));
        batch_poll(&B);
    }
    PyEval_RestoreThread(B.ts);
    PyObject *result = NULL;
    if (batch_failed(&B))
        goto done;
    result = PyList_New(count);
    if (result == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *sol;
        if (a.first_len[k] < 0) {
            sol = Py_None;
            Py_INCREF(sol);
        }
        else {
            sol = dlx_options_of(t, a.firsts + k * a.width, a.first_len[k], labels);
        }
        PyObject *item = sol == NULL ? NULL : Py_BuildValue("(LLNid)", a.found[k], a.nodes[k],
                                                            sol, (int)a.status[k], a.secs[k]);
        if (item == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, k, item);
    }
done:
    answers_free(&a);
    dlx_free_sets(&forced);
    batch_end(r);
    return result;
}

/* Table.batch_codes(rows, width, codes, limit=1, max_nodes=-1, timeout=-1.0, bits=-1)
   -> (found, nodes, status, seconds, solutions): Table.batch for sets given as
   rows of `width` codes (bytes: len(rows) == sets * width).  Code c > 0 at position
   p forces option codes[p * K + c - 1] (codes: int32, width * K of them, K the
   number of codes); 0 forces nothing.  The forced options of a row are placed in
   the order of their positions.  The answers are bytes: found and nodes as int64
   per set, status one byte per set (as batch's), seconds as doubles, and
   solutions: a row of codes per set, the code of each position in its first
   solution (0: none there, or no solution). */
PyObject *
dlx_Table_batch_codes(TableObject *t, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"rows", "width", "codes", "limit", "max_nodes", "timeout", "bits",
                             NULL};
    Py_buffer rows, codes;
    Py_ssize_t width;
    long long limit = 1, max_nodes = -1;
    double timeout = -1.0;
    int bits = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*ny*|LLdi:batch_codes", kwlist, &rows,
                                     &width, &codes, &limit, &max_nodes, &timeout, &bits))
        return NULL;
    PyObject *result = NULL;
    const unsigned char *row = (const unsigned char *)rows.buf;
    const int32_t *code = (const int32_t *)codes.buf;
    Py_ssize_t n_codes = codes.len / (Py_ssize_t)sizeof(int32_t);
    int *forced = NULL, *inverse = NULL;
    if (width < 1 || width > INT_MAX / 256 || rows.len % width != 0 || n_codes % width != 0
            || n_codes / width > 255 || codes.len % (Py_ssize_t)sizeof(int32_t) != 0) {
        PyErr_SetString(PyExc_ValueError, "batch_codes: rows must hold whole rows of width"
                        " bytes, codes width * K int32 option indices (K at most 255)");
        goto out;
    }
    const Py_ssize_t count = rows.len / width, K = n_codes / width;
    /* option -> position * 256 + code, to read the solutions back (-1: none) */
    inverse = (int *)PyMem_Malloc(((size_t)t->n_options + 1) * sizeof(int));
    forced = (int *)PyMem_Malloc(((size_t)width + 1) * sizeof(int));
    if (inverse == NULL || forced == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    for (int o = 0; o < t->n_options; o++)
        inverse[o] = -1;
    for (Py_ssize_t p = 0; p < width; p++)
        for (Py_ssize_t c = 0; c < K; c++) {
            int32_t o = code[p * K + c];
            if (o < -1 || o >= t->n_options) {
                PyErr_Format(PyExc_ValueError, "batch_codes: codes[%zd] = %d is not an option"
                             " index", p * K + c, (int)o);
                goto out;
            }
            if (o >= 0)
                inverse[o] = (int)(p * 256 + c + 1);
        }
    for (Py_ssize_t k = 0; k < count * width; k++)    /* every code must name an option */
        if (row[k] > K || (row[k] && code[(k % width) * K + row[k] - 1] < 0)) {
            PyErr_Format(PyExc_ValueError, "batch_codes: row %zd, position %zd: code %d"
                         " names no option", k / width, k % width, (int)row[k]);
            goto out;
        }
    Run run, *r = &run;
    Answers a;
    Batch B;
    if (answers_alloc(&a, count, (size_t)dlx_levels(t)) < 0) {
        PyErr_NoMemory();
        goto out;
    }
    if (batch_start(r, t, bits, &B, limit, max_nodes, timeout) < 0) {
        answers_free(&a);
        PyErr_NoMemory();
        goto out;
    }
    B.ts = PyEval_SaveThread();
    for (Py_ssize_t k = 0; k < count && !B.broken && !B.interrupted; k++) {
        const unsigned char *cs = row + k * width;
        int n = 0;
        for (Py_ssize_t p = 0; p < width; p++)
            if (cs[p])
                forced[n++] = OFF(t->first[code[p * K + cs[p] - 1]]);
        search_set(r, &B, &a, k, forced, n);
        batch_poll(&B);
    }
    PyEval_RestoreThread(B.ts);
    if (!batch_failed(&B)) {
        PyObject *sols = PyBytes_FromStringAndSize(NULL, count * width);
        if (sols != NULL) {
            unsigned char *out = (unsigned char *)PyBytes_AS_STRING(sols);
            memset(out, 0, (size_t)(count * width));
            for (Py_ssize_t k = 0; k < count; k++)
                for (int j = 0; j < a.first_len[k]; j++) {
                    int o = t->OPT[IDX(a.firsts[(size_t)k * a.width + j])], at;
                    if (o >= 0 && (at = inverse[o]) >= 0)
                        out[k * width + at / 256] = (unsigned char)(at % 256);
                }
            result = Py_BuildValue("(y#y#y#y#N)", (const char *)a.found,
                                   (Py_ssize_t)(count * sizeof(long long)), (const char *)a.nodes,
                                   (Py_ssize_t)(count * sizeof(long long)),
                                   (const char *)a.status, count, (const char *)a.secs,
                                   (Py_ssize_t)(count * sizeof(double)), sols);
        }
    }
    answers_free(&a);
    batch_end(r);
out:
    PyMem_Free(inverse);
    PyMem_Free(forced);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&codes);
    return result;
}
