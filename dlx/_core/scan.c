/* dlx._core's scan: ExactCover's fast path.  It checks and numbers the options
 * of a dict of plain item lists in one pass (no search, no links), for
 * Table.from_entries to lay out; anything irregular goes back to the Python
 * constructor, which names the fault.
 */

#include "core.h"

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
PyObject *
dlx_scan(PyObject *module, PyObject *args)
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
