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
    else if (PyList_CheckExact(value)) {
        tup = PyList_AsTuple(value);
        if (tup != NULL)
            dlx_untrack_atoms(tup);    /* (most items are: the collector never walks it) */
    }
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

/* ------------------------------------------------------------ CSR arrays */

/* A 1-D buffer of integers of any of struct's integer formats. */
typedef struct {
    Py_buffer view;
    char format;         /* b B h H i I l L q Q n N */
    int held;
} IntArray;

static int
int_array(PyObject *obj, const char *name, IntArray *a)
{
    a->held = 0;
    if (PyObject_GetBuffer(obj, &a->view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    a->held = 1;
    const char *f = a->view.format ? a->view.format : "B";
    if (*f == '@')
        f++;
    a->format = f[0];
    if (a->view.ndim > 1 || f[0] == '\0' || f[1] != '\0' || !strchr("bBhHiIlLqQnN", f[0])) {
        PyErr_Format(PyExc_TypeError, "%s must be a 1-D array of integers (format %s)", name,
                     a->view.format ? a->view.format : "B");
        return -1;
    }
    return 0;
}

/* Element k of a, or LLONG_MIN for an unsigned value beyond long long. */
static inline long long
int_at(const IntArray *a, Py_ssize_t k)
{
    const char *p = (const char *)a->view.buf;
    switch (a->format) {
    case 'b': return ((const signed char *)p)[k];
    case 'B': return ((const unsigned char *)p)[k];
    case 'h': return ((const short *)p)[k];
    case 'H': return ((const unsigned short *)p)[k];
    case 'i': return ((const int *)p)[k];
    case 'I': return ((const unsigned int *)p)[k];
    case 'l': return ((const long *)p)[k];
    case 'n': return ((const Py_ssize_t *)p)[k];
    case 'q': return ((const long long *)p)[k];
    default: {          /* L, N, Q: unsigned, as wide as long long or narrower */
        unsigned long long u = a->format == 'L' ? ((const unsigned long *)p)[k]
                               : a->format == 'N' ? ((const size_t *)p)[k]
                               : ((const unsigned long long *)p)[k];
        return u > (unsigned long long)LLONG_MAX ? LLONG_MIN : (long long)u;
    }
    }
}

static Py_ssize_t
int_count(const IntArray *a)
{
    return a->view.itemsize ? a->view.len / a->view.itemsize : 0;
}

static void
int_release(IntArray *a)
{
    if (a->held)
        PyBuffer_Release(&a->view);
    a->held = 0;
}

/* A fault found in the arrays, for ExactCover.from_csr to name: (kind, a, b, c). */
static PyObject *
csr_fault(const char *kind, long long a, long long b, long long c)
{
    return Py_BuildValue("(sLLL)", kind, a, b, c);
}

/* The fault of the arrays, or NULL with none (and then *no error set*); codes[k]
   is item k's number (primary 1..N1 in index order, secondary N1+1..N in the
   order given), *n1 the number of primary items. */
static PyObject *
csr_check(const IntArray *indptr, const IntArray *indices, const IntArray *sec, int n_items,
          int32_t *codes, int *n1)
{
    Py_ssize_t ns = int_count(sec), np = int_count(indptr), ni = int_count(indices);
    for (Py_ssize_t j = 0; j < ns; j++) {
        long long k = int_at(sec, j);
        if (k < 0 || k >= n_items)
            return csr_fault("secondary range", j, k, n_items);
        if (codes[k] != 0)
            return csr_fault("secondary twice", j, k, 0);
        codes[k] = -(int32_t)(j + 1);
    }
    *n1 = 0;
    for (int k = 0; k < n_items; k++)
        codes[k] = codes[k] < 0 ? n_items - (int)ns - codes[k] : ++*n1;
    if (np < 1)
        return csr_fault("indptr empty", 0, 0, 0);
    if (int_at(indptr, 0) != 0)
        return csr_fault("indptr start", int_at(indptr, 0), 0, 0);
    for (Py_ssize_t o = 0; o + 1 < np; o++) {
        long long a = int_at(indptr, o), b = int_at(indptr, o + 1);
        if (b < a)
            return csr_fault("indptr order", o, a, b);
        if (b > ni)
            return csr_fault("indptr past", o, b, ni);
    }
    if (int_at(indptr, np - 1) != ni)
        return csr_fault("indptr short", int_at(indptr, np - 1), ni, 0);
    return NULL;
}

/* csr(indptr, indices, n_items, secondary)
       -> (entries, starts, skipped, primary, n_items) or a fault

   ExactCover.from_csr's arrays checked and numbered in one pass: option o is items
   indices[indptr[o]:indptr[o + 1]] (item indices 0..n_items-1; n_items -1: the
   largest index named, plus one); secondary holds the indices of the secondary
   items.  The arrays are any buffers of integers.  It returns the entries of scan
   (per option its length, then its item numbers: primary items 1..N1 in index
   order, secondary N1+1..N in the order given), where each option starts in them
   (int64, and their end), the indices of the options without a primary item, the
   indices of the primary items (int32 bytes) and n_items; or the first fault as
   (kind, a, b, c), for Python to name:
   "secondary range" (position, index, n_items), "secondary twice" (position,
   index), "indptr empty", "indptr start" (indptr[0]), "indptr order" (option,
   start, end), "indptr past" (option, end, len(indices)), "indptr short"
   (indptr[-1], len(indices)), "item range" or "item twice" (option, position,
   index), "item large" (the largest index, the most items taken). */
PyObject *
dlx_csr(PyObject *module, PyObject *args)
{
    PyObject *indptr_obj, *indices_obj, *sec_obj;
    int n_items;
    if (!PyArg_ParseTuple(args, "OOiO:csr", &indptr_obj, &indices_obj, &n_items, &sec_obj))
        return NULL;
    if (n_items < -1 || n_items > INT32_MAX / 4)
        return PyErr_Format(PyExc_ValueError, "csr: %d items is out of range", n_items);
    IntArray indptr = {0}, indices = {0}, sec = {0};
    PyObject *result = NULL, *fault = NULL, *skipped = NULL;
    int32_t *codes = NULL, *seen = NULL;
    if (int_array(indptr_obj, "indptr", &indptr) < 0 ||
        int_array(indices_obj, "indices", &indices) < 0 ||
        int_array(sec_obj, "secondary", &sec) < 0)
        goto done;
    Py_ssize_t np = int_count(&indptr), ni = int_count(&indices);
    if (n_items < 0) {                 /* the items are the indices named, 0..max */
        long long top = -1;
        for (Py_ssize_t j = 0; j < ni; j++)
            top = int_at(&indices, j) > top ? int_at(&indices, j) : top;
        for (Py_ssize_t j = 0; j < int_count(&sec); j++)
            top = int_at(&sec, j) > top ? int_at(&sec, j) : top;
        if (top >= INT32_MAX / 4) {
            fault = csr_fault("item large", top, INT32_MAX / 4, 0);
            goto done;
        }
        n_items = (int)top + 1;
    }
    codes = (int32_t *)PyMem_Calloc((size_t)n_items + 1, sizeof(int32_t));
    seen = (int32_t *)PyMem_Calloc((size_t)n_items + 1, sizeof(int32_t));
    if (codes == NULL || seen == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int n1 = 0;
    fault = csr_check(&indptr, &indices, &sec, n_items, codes, &n1);
    if (fault != NULL || PyErr_Occurred())
        goto done;
    if (np - 1 > INT32_MAX - 1 || ni > PY_SSIZE_T_MAX / 8 - np) {
        PyErr_SetString(PyExc_ValueError, "csr: too many options");
        goto done;
    }
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, (ni + np - 1) * (Py_ssize_t)sizeof(int32_t));
    PyObject *starts = PyBytes_FromStringAndSize(NULL, np * (Py_ssize_t)sizeof(int64_t));
    if (bytes == NULL || starts == NULL || (skipped = PyList_New(0)) == NULL) {
        Py_XDECREF(bytes);
        Py_XDECREF(starts);
        goto done;
    }
    int32_t *e = (int32_t *)PyBytes_AS_STRING(bytes);
    int64_t *at = (int64_t *)PyBytes_AS_STRING(starts);
    Py_ssize_t w = 0;
    at[np - 1] = ni + np - 1;
    for (Py_ssize_t o = 0; o + 1 < np; o++) {
        long long a = int_at(&indptr, o), b = int_at(&indptr, o + 1);
        int primary = 0;
        at[o] = w;
        e[w++] = (int32_t)(b - a);     /* (past n_items, an item repeats: a fault below) */
        for (long long j = a; j < b; j++) {
            long long k = int_at(&indices, j);
            if (k < 0 || k >= n_items) {
                fault = csr_fault("item range", o, j - a, k);
                break;
            }
            if (seen[k] == (int32_t)(o + 1)) {
                fault = csr_fault("item twice", o, j - a, k);
                break;
            }
            seen[k] = (int32_t)(o + 1);
            e[w++] = codes[k];
            primary |= codes[k] <= n1;
        }
        if (fault != NULL)
            break;
        if (!primary) {
            PyObject *index = PyLong_FromSsize_t(o);
            int failed = index == NULL || PyList_Append(skipped, index) < 0;
            Py_XDECREF(index);
            if (failed)
                break;
        }
    }
    if (fault != NULL || PyErr_Occurred()) {
        Py_DECREF(bytes);
        Py_DECREF(starts);
        goto done;
    }
    /* the primary items' indices, in index order */
    PyObject *prim = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n1 * (Py_ssize_t)sizeof(int32_t));
    if (prim != NULL) {
        int32_t *p = (int32_t *)PyBytes_AS_STRING(prim);
        for (int k = 0; k < n_items; k++)
            if (codes[k] <= n1)
                *p++ = k;
        result = Py_BuildValue("(OOOOi)", bytes, starts, skipped, prim, n_items);
        Py_DECREF(prim);
    }
    Py_DECREF(bytes);
    Py_DECREF(starts);
done:
    int_release(&indptr);
    int_release(&indices);
    int_release(&sec);
    PyMem_Free(codes);
    PyMem_Free(seen);
    Py_XDECREF(skipped);
    if (fault != NULL) {
        Py_XDECREF(result);
        PyErr_Clear();
        return fault;
    }
    return result;
}
