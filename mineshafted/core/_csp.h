/* The compiled core's CSP kernel (_csp.c), as _compiled.c registers it. */
#ifndef MINESHAFTED_CSP_H
#define MINESHAFTED_CSP_H

#include <Python.h>

PyObject *mineshafted_revise(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
