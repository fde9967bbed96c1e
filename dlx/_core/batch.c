/* dlx._core's batches: Table.batch searches one problem under many sets of
 * forced options (dlx.Prepared), on one copy of the links and without the GIL,
 * resetting the links between sets.  dlx_search_placed, the search below forced
 * options already placed, is minimize.c's too.
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

/* Table.batch(forced_sets, limit=1, max_nodes=-1): search the problem under each
   set of forced options, on one copy of the links, without the GIL.  For each
   set: place the forced options (a clash: nothing searched), count the solutions
   up to `limit` keeping the first, then undo everything.  Answers, node counts
   and budgets are those of Search(..., mode="count", forced=set). */
PyObject *
dlx_Table_batch(TableObject *t, PyObject *args, PyObject *kwds)
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
    if (dlx_read_sets(t, sets, "forced_sets must be a sequence of sequences of option indices",
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
    size_t width = (size_t)dlx_levels(t);
    int *firsts = (int *)PyMem_Malloc(((size_t)count * width + 1) * sizeof(int));
    int *first_len = (int *)PyMem_Malloc(((size_t)count + 1) * sizeof(int));
    if (found == NULL || firsts == NULL || first_len == NULL || secs == NULL || status == NULL
        || dlx_run_alloc(r, t) < 0) {
        PyMem_Free(found);
        PyMem_Free(secs);
        PyMem_Free(status);
        PyMem_Free(firsts);
        PyMem_Free(first_len);
        dlx_free_sets(&forced);
        return PyErr_NoMemory();
    }
    long long *nodes_of = found + count + 1;
    r->mode = MODE_COUNT;
    r->keep_first = 1;
    int broken = 0, interrupted = 0, late = 0;
    /* signals are handled on the main thread only: elsewhere a check point needs
       no GIL (see drive) */
    int on_main = PyThread_get_thread_ident() == dlx_main_thread;
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
        int placed = dlx_place_forced(r, all + start[k], (int)(start[k + 1] - start[k]));
        if (placed != PLACED) {
            dlx_run_reset(r);
            found[k] = 0;
            nodes_of[k] = placed == DEAD;       /* a dead root is one node */
            status[k] = placed == CLASH ? BATCH_CLASH : BATCH_DONE;
            secs[k] = monotonic_seconds() - began;
            continue;
        }
        int why = dlx_search_placed(r, limit, max_nodes, deadline, on_main, &ts, &late,
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
        dlx_run_reset(r);
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
            sol = dlx_options_of(t, firsts + k * width, first_len[k], labels);
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
    dlx_free_sets(&forced);
    PyMem_Free(r->block);
    return result;
}
