/* The compiled core's endgame kernels (_endgame.c), as _compiled.c registers them. */
#ifndef MINESHAFTED_ENDGAME_H
#define MINESHAFTED_ENDGAME_H

#include <Python.h>

PyObject *mineshafted_endgame(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

PyObject *mineshafted_regions(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *mineshafted_layout(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
