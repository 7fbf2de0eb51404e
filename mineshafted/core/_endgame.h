/* The compiled core's endgame search (_endgame.c), as _compiled.c registers it. */
#ifndef MINESHAFTED_ENDGAME_H
#define MINESHAFTED_ENDGAME_H

#include <Python.h>

PyObject *mineshafted_endgame(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
