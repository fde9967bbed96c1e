/* dlx._core, the module: the types Table (table.c) and Search (search_object.c),
 * the functions scan and csr (scan.c) and item_names and read_options (reader.c), and two constants.  The map of the files is in core.h.
 */

#include "core.h"

unsigned long dlx_main_thread;

static PyMethodDef core_functions[] = {
    {"scan", dlx_scan, METH_VARARGS,
     "scan(options, secondary, primary, colored)\n"
     "    -> (options, primary, entries, skipped) or None\n\n"
     "ExactCover's fast path: the options of a dict of plain item lists, checked and\n"
     "numbered in one pass (None: let the constructor check them itself)."},
    {"csr", dlx_csr, METH_VARARGS,
     "csr(indptr, indices, n_items, secondary)\n"
     "    -> (entries, starts, skipped, primary, n_items) or a fault\n\n"
     "ExactCover.from_csr's arrays (any buffers of integers), checked and numbered in\n"
     "one pass, as scan numbers a dict of options; or the first fault, for Python to name."},
    {"item_names", dlx_item_names, METH_VARARGS,
     "item_names(names) -> the table of the item line's names, for read_options"},
    {"read_options", dlx_read_options, METH_VARARGS,
     "read_options(lines, table, n1, colored, colours, options, costs, option_lines,\n"
     "             entries, flags) -> None, or the (number, text) of a line for Python to read\n\n"
     "read_dlx's fast path: the option lines it can read, read as dlx.formats reads them."},
    {NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "dlx._core",
    .m_doc = "The compiled search of dlx (the same algorithm as dlx.search.run).",
    .m_size = -1,
    .m_methods = core_functions,
};

PyMODINIT_FUNC
PyInit__core(void)
{
    if (PyType_Ready(&dlx_Table_Type) < 0 || PyType_Ready(&dlx_Search_Type) < 0)
        return NULL;
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *main = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
    PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
    Py_XDECREF(threading);
    Py_XDECREF(main);
    if (ident == NULL)
        return NULL;
    dlx_main_thread = PyLong_AsUnsignedLong(ident);
    Py_DECREF(ident);
    if (PyErr_Occurred())
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&dlx_Table_Type);
    if (PyModule_AddObject(m, "Table", (PyObject *)&dlx_Table_Type) < 0) {
        Py_DECREF(&dlx_Table_Type);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&dlx_Search_Type);
    if (PyModule_AddObject(m, "Search", (PyObject *)&dlx_Search_Type) < 0) {
        Py_DECREF(&dlx_Search_Type);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_NODES", INT_MAX / NODE) < 0 ||
        PyModule_AddIntConstant(m, "PROGRESS_EVERY", PROGRESS_EVERY) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
