/* dlx._core's reader: read_dlx's fast path for option lines (dlx/formats.py).
 *
 * It takes the lines formats._lines yields, (number, text), and reads the option
 * lines it can read exactly as formats._option_line would, adding each option to
 * the reader's dict, costs and line list.  A line it cannot take (one that has a
 * fault, a cost other than a whole number, no primary item, a character beyond
 * Latin-1) is handed back to Python, which reads it (and names the fault, with its
 * line and column) and calls again: so the messages are Python's, every one.
 */

#include "core.h"

/* The item line's names as a hash table on their Latin-1 characters (the lines
   read here are Latin-1 text), so that a token is looked up without making a
   str of it.  A slot holds a name's first 8 characters (zero-padded: the text
   has no NUL), its length and number (0: a free slot), so a name of at most 8
   characters (Knuth's names) is found without reading its str.  Held by a
   capsule (dlx_item_names) across the calls of read_options. */
typedef struct {
    uint64_t head;       /* the first 8 characters */
    uint32_t len;
    int32_t code;        /* the item's number, 1..N; 0: free */
} Slot;

typedef struct {
    Slot *slot;
    uint32_t mask;
    PyObject *names;     /* tuple: number - 1 -> the item line's name */
} Names;

/* The first 8 characters of s[0..len) and the hash of all of them. */
static inline uint32_t
hash_chars(const Py_UCS1 *s, Py_ssize_t len, uint64_t *head)
{
    uint64_t w = 0, h = (uint64_t)len * 0x9e3779b97f4a7c15ULL;
    memcpy(&w, s, len < 8 ? (size_t)len : 8);
    *head = w;
    for (Py_ssize_t j = 0;; j += 8) {
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 29;
        if (j + 8 >= len)
            break;
        w = 0;
        memcpy(&w, s + j + 8, len - j - 8 < 8 ? (size_t)(len - j - 8) : 8);
    }
    return (uint32_t)(h ^ (h >> 32));
}

/* The number of the item named s[0..len), 0 if there is none. */
static int
names_find(const Names *t, const Py_UCS1 *s, Py_ssize_t len)
{
    uint64_t head;
    for (uint32_t i = hash_chars(s, len, &head) & t->mask;; i = (i + 1) & t->mask) {
        const Slot *e = &t->slot[i];
        if (e->code == 0)
            return 0;
        if (e->head == head && e->len == (uint32_t)len &&
            (len <= 8 || memcmp(PyUnicode_1BYTE_DATA(PyTuple_GET_ITEM(t->names, e->code - 1)),
                                s, (size_t)len) == 0))
            return e->code;
    }
}

static void
names_free(PyObject *capsule)
{
    Names *t = (Names *)PyCapsule_GetPointer(capsule, "dlx.item_names");
    if (t != NULL) {
        Py_XDECREF(t->names);
        PyMem_Free(t->slot);
        PyMem_Free(t);
    }
}

/* item_names(names) -> a capsule for read_options: the table of the names (a tuple
   of str, the item line's, numbered from 1); names beyond Latin-1 are left out
   (the lines naming them are read by Python). */
PyObject *
dlx_item_names(PyObject *module, PyObject *args)
{
    PyObject *names;
    if (!PyArg_ParseTuple(args, "O!:item_names", &PyTuple_Type, &names))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    if (n > INT32_MAX / 4)
        return PyErr_Format(PyExc_ValueError, "item_names: %zd names are too many", n);
    size_t size = 16;
    while (size < 2 * (size_t)n)
        size *= 2;
    Names *t = (Names *)PyMem_Calloc(1, sizeof(Names));
    Slot *slot = (Slot *)PyMem_Calloc(size, sizeof(Slot));
    if (t == NULL || slot == NULL) {
        PyMem_Free(t);
        PyMem_Free(slot);
        return PyErr_NoMemory();
    }
    t->slot = slot;
    t->mask = (uint32_t)(size - 1);
    t->names = Py_NewRef(names);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *name = PyTuple_GET_ITEM(names, k);
        if (!PyUnicode_Check(name) || PyUnicode_KIND(name) != PyUnicode_1BYTE_KIND)
            continue;
        const Py_UCS1 *s = PyUnicode_1BYTE_DATA(name);
        Py_ssize_t len = PyUnicode_GET_LENGTH(name);
        if (len > UINT32_MAX || names_find(t, s, len) != 0)
            continue;                       /* (the item line has no name twice) */
        uint64_t head;
        uint32_t i = hash_chars(s, len, &head) & t->mask;
        while (t->slot[i].code != 0)
            i = (i + 1) & t->mask;
        t->slot[i] = (Slot){head, (uint32_t)len, (int32_t)(k + 1)};
    }
    PyObject *capsule = PyCapsule_New(t, "dlx.item_names", names_free);
    if (capsule == NULL) {
        Py_DECREF(t->names);
        PyMem_Free(t->slot);
        PyMem_Free(t);
    }
    return capsule;
}

/* What read_options keeps between lines. */
typedef struct {
    const Names *table;  /* the item line's names */
    PyObject *names;     /* tuple: number - 1 -> the item line's name */
    PyObject *colored;   /* the type dlx.Colored */
    PyObject *colours;   /* token "x:c" -> (number of x, Colored(x, c)), filled as met */
    int n1;
    int coloured;        /* an option read in this call has a colour */
    int32_t *buf;        /* the numbered options read in this call: len, numbers, ... */
    Py_ssize_t n, cap;
    PyObject **row;      /* the entries of the option being read */
    int32_t *nums;       /* their numbers */
    Py_ssize_t room;
} Reader;

enum { LINE_OK = 0, LINE_ERROR = -1, LINE_PYTHON = -2, LINE_SKIP = -3 };

static int
push(Reader *r, int32_t x)
{
    if (r->n == r->cap) {
        Py_ssize_t cap = r->cap ? 2 * r->cap : 4096;
        int32_t *v = (int32_t *)PyMem_Realloc(r->buf, (size_t)cap * sizeof(int32_t));
        if (v == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        r->buf = v;
        r->cap = cap;
    }
    r->buf[r->n++] = x;
    return 0;
}

/* Room for k entries in the option being read. */
static int
room_for(Reader *r, Py_ssize_t k)
{
    if (k <= r->room)
        return 0;
    Py_ssize_t room = 2 * k;
    PyObject **row = (PyObject **)PyMem_Realloc(r->row, (size_t)room * sizeof(PyObject *));
    if (row != NULL)
        r->row = row;
    int32_t *nums = (int32_t *)PyMem_Realloc(r->nums, (size_t)room * sizeof(int32_t));
    if (nums != NULL)
        r->nums = nums;
    if (row == NULL || nums == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    r->room = room;
    return 0;
}

/* Token s[0..len) that contains ':' at `colon`: an entry x:c (*code, and a new
   reference to the Colored in *entry), or LINE_PYTHON for any fault. */
static int
colour_token(Reader *r, const Py_UCS1 *s, Py_ssize_t len, Py_ssize_t colon, int *code,
             PyObject **entry)
{
    if (colon == 0 || colon == len - 1 || memchr(s + colon + 1, ':', len - colon - 1))
        return LINE_PYTHON;             /* no name, no colour, or a ':' in the colour */
    PyObject *token = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, s, len);
    if (token == NULL)
        return LINE_ERROR;
    PyObject *known = PyDict_GetItemWithError(r->colours, token);     /* borrowed */
    if (known != NULL) {
        Py_DECREF(token);
        *code = (int)PyLong_AsLong(PyTuple_GET_ITEM(known, 0));
        *entry = Py_NewRef(PyTuple_GET_ITEM(known, 1));
        return LINE_OK;
    }
    int status = PyErr_Occurred() ? LINE_ERROR : LINE_PYTHON;
    PyObject *colour = NULL, *made = NULL, *pair = NULL;
    if (status == LINE_ERROR)
        goto done;
    colour = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, s + colon + 1, len - colon - 1);
    if (colour == NULL) {
        status = LINE_ERROR;
        goto done;
    }
    int k = names_find(r->table, s, colon);
    if (k <= r->n1)
        goto done;                      /* unknown, or a colour on a primary item */
    made = PyObject_CallFunctionObjArgs(r->colored, PyTuple_GET_ITEM(r->names, k - 1),
                                        colour, NULL);
    PyObject *number = made ? PyLong_FromLong(k) : NULL;
    pair = number ? PyTuple_Pack(2, number, made) : NULL;
    Py_XDECREF(number);
    if (pair == NULL || PyDict_SetItem(r->colours, token, pair) < 0) {
        status = LINE_ERROR;
        goto done;
    }
    *code = k;
    *entry = Py_NewRef(made);
    status = LINE_OK;
done:
    Py_DECREF(token);
    Py_XDECREF(colour);
    Py_XDECREF(made);
    Py_XDECREF(pair);
    return status;
}

/* One line of Latin-1 text: LINE_SKIP for a comment or a blank line, LINE_OK with
   the option's entries in r->row (new references, *count of them), its numbers in
   r->nums and its cost, or LINE_PYTHON (nothing kept) for what Python reads. */
static int
read_line(Reader *r, const Py_UCS1 *s, Py_ssize_t len, Py_ssize_t *count, long long *cost,
          int *coloured)
{
    Py_ssize_t at = 0, k = 0;
    int primary = 0, status = LINE_OK;
    *cost = 0;
    while (at < len && Py_UNICODE_ISSPACE(s[at]))
        at++;
    if (at == len || s[at] == '|')
        return LINE_SKIP;
    while (at < len && status == LINE_OK) {
        Py_ssize_t start = at, colon = -1;
        int bar = 0;
        while (at < len && !Py_UNICODE_ISSPACE(s[at])) {
            if (s[at] == ':' && colon < 0)
                colon = at - start;
            bar |= s[at] == '|';
            at++;
        }
        const Py_UCS1 *t = s + start;
        Py_ssize_t n = at - start;
        while (at < len && Py_UNICODE_ISSPACE(s[at]))
            at++;
        if (bar) {
            /* a cost |n after the first item: whole numbers only, here */
            if (t[0] != '|' || n < 2 || n > 19 || k == 0) {
                status = LINE_PYTHON;
                break;
            }
            long long v = 0;
            for (Py_ssize_t j = 1; j < n && status == LINE_OK; j++) {
                if (t[j] < '0' || t[j] > '9')
                    status = LINE_PYTHON;
                v = 10 * v + (t[j] - '0');
            }
            if (status == LINE_OK && *cost > (1LL << 62) - v)
                status = LINE_PYTHON;
            *cost += v;
            continue;
        }
        if (room_for(r, k + 1) < 0) {
            status = LINE_ERROR;
            break;
        }
        int code;
        PyObject *entry;
        if (colon >= 0)
            status = colour_token(r, t, n, colon, &code, &entry);
        else {
            code = names_find(r->table, t, n);
            status = code == 0 ? LINE_PYTHON : LINE_OK;
            if (status == LINE_OK) {
                entry = Py_NewRef(PyTuple_GET_ITEM(r->names, code - 1));
                primary |= code <= r->n1;
            }
        }
        if (status != LINE_OK)
            break;
        for (Py_ssize_t j = 0; j < k; j++)
            if (r->nums[j] == code)
                status = LINE_PYTHON;        /* the item twice in this option */
        r->row[k] = entry;
        r->nums[k++] = code;
        *coloured |= colon >= 0;
    }
    if (status == LINE_OK && !primary)
        status = LINE_PYTHON;                /* no primary item: Python warns */
    if (status != LINE_OK) {
        for (Py_ssize_t j = 0; j < k; j++)
            Py_DECREF(r->row[j]);
        k = 0;
    }
    *count = k;
    return status;
}

/* Add the option just read (r->row, k entries) as the next label; steals the entries. */
static int
add_option(Reader *r, Py_ssize_t k, long long cost, PyObject *number, PyObject *options,
           PyObject *costs, PyObject *lines)
{
    PyObject *entries = PyTuple_New(k);
    if (entries == NULL) {
        for (Py_ssize_t j = 0; j < k; j++)
            Py_DECREF(r->row[j]);
        return -1;
    }
    for (Py_ssize_t j = 0; j < k; j++)
        PyTuple_SET_ITEM(entries, j, r->row[j]);
    dlx_untrack_atoms(entries);        /* names (not Colored): the collector skips it */
    PyObject *label = PyLong_FromSsize_t(PyList_GET_SIZE(lines));
    int failed = label == NULL || PyDict_SetItem(options, label, entries) < 0 ||
                 PyList_Append(lines, number) < 0 || push(r, (int32_t)k) < 0;
    for (Py_ssize_t j = 0; j < k && !failed; j++)
        failed = push(r, r->nums[j]) < 0;
    if (!failed && cost != 0) {
        PyObject *c = PyLong_FromLongLong(cost);
        failed = c == NULL || PyDict_SetItem(costs, label, c) < 0;
        Py_XDECREF(c);
    }
    Py_XDECREF(label);
    Py_DECREF(entries);
    return failed ? -1 : 0;
}

/* read_options(lines, table, n1, colored, colours, options, costs, option_lines, entries,
                flags) -> None, or the (number, text) of a line for Python to read

   Reads the option lines of the iterator `lines` (of (number, text), as
   dlx.formats._lines yields them) while it can, as formats._option_line does:
   each option goes into `options` under the next label (len(option_lines)), its
   line number into `option_lines`, a cost other than 0 into `costs`, and its
   length and item numbers at the end of the bytearray `entries`; flags[0] becomes 1
   if one of them has a colour.  Items are the
   item line's own name objects, numbered from 1 (`table`, of item_names); x:c is the
   Colored of `colours` (token -> (number, Colored), filled as met).  Comments and
   blank lines are skipped.  Any other line (with a fault, a cost that is not a
   whole number, no primary item, beyond Latin-1) is returned, untouched; None at
   the end of `lines`. */
PyObject *
dlx_read_options(PyObject *module, PyObject *args)
{
    PyObject *lines, *table, *options, *costs, *option_lines, *entries, *flags;
    Reader r = {0};
    if (!PyArg_ParseTuple(args, "OO!iOO!O!O!O!O!O!:read_options", &lines, &PyCapsule_Type,
                          &table, &r.n1, &r.colored, &PyDict_Type, &r.colours, &PyDict_Type,
                          &options, &PyDict_Type, &costs, &PyList_Type, &option_lines,
                          &PyByteArray_Type, &entries, &PyByteArray_Type, &flags))
        return NULL;
    if (PyByteArray_GET_SIZE(flags) < 1)
        return PyErr_Format(PyExc_ValueError, "read_options: flags must hold a byte");
    r.table = (const Names *)PyCapsule_GetPointer(table, "dlx.item_names");
    if (r.table == NULL)
        return NULL;
    r.names = r.table->names;
    PyObject *result = NULL, *line;
    while ((line = PyIter_Next(lines)) != NULL) {
        PyObject *text = PyTuple_Check(line) && PyTuple_GET_SIZE(line) == 2
                         ? PyTuple_GET_ITEM(line, 1) : NULL;
        int status = LINE_PYTHON;
        Py_ssize_t k = 0;
        long long cost = 0;
        int coloured = 0;
        if (text != NULL && PyUnicode_Check(text) && PyUnicode_KIND(text) == PyUnicode_1BYTE_KIND)
            status = read_line(&r, PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text), &k,
                               &cost, &coloured);
        r.coloured |= status == LINE_OK && coloured;
        if (status == LINE_OK)
            status = add_option(&r, k, cost, PyTuple_GET_ITEM(line, 0), options, costs,
                                option_lines);
        if (status == LINE_PYTHON) {
            result = line;                  /* the reference is handed on */
            break;
        }
        Py_DECREF(line);
        if (status == LINE_ERROR)
            break;
    }
    if (result == NULL && !PyErr_Occurred())
        result = Py_NewRef(Py_None);
    if (result != NULL && r.n) {         /* the numbers read, at the end of entries */
        Py_ssize_t size = PyByteArray_GET_SIZE(entries), more = r.n * (Py_ssize_t)sizeof(int32_t);
        if (PyByteArray_Resize(entries, size + more) < 0)
            Py_CLEAR(result);
        else
            memcpy(PyByteArray_AS_STRING(entries) + size, r.buf, (size_t)more);
    }
    if (r.coloured)
        PyByteArray_AS_STRING(flags)[0] = 1;
    PyMem_Free(r.buf);
    PyMem_Free(r.row);
    PyMem_Free(r.nums);
    return result;
}
