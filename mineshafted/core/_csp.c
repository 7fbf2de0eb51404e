/* The compiled core's CSP kernel: one step of mineshafted.solver.csp.ClueCSP.propagate's
 * AC-3 (the arcs of one variable taken off the queue, revised), in C.
 *
 * The plain form is the specification (ClueCSP._revise and the two queue branches of
 * ClueCSP.propagate); this file follows it step for step:
 *
 *   fresh    x = variables[cell]; every arc (x, y) out of it is revised in the arc graph's
 *            order, and narrowed(x) is called once after them when any of them shrank x.
 *   changed  y = variables[cell]; every arc (x, y) into it is revised in the arc graph's
 *            order, and narrowed(x) is called at once for each x that shrank, before the
 *            next arc is revised (narrowed may raise: the clues contradict each other).
 *
 * revise(x, y, arc) keeps the arrangements of x whose projection onto the cells x and y
 * share (arc.masks[x.cell]) some arrangement of y projects to as well; x.domain becomes a
 * new list of the same int objects, in the same order, only when some arrangement goes.
 * A projection packs the bits of an arrangement at a mask's positions low, as compress does.
 *
 * Arrangements are read as unsigned ints below 2**MAX_WIDTH (a scope of at most MAX_WIDTH
 * cells: a clue's neighbours are at most 8). A step whose variables do not fit is not taken,
 * before anything changes: the kernel answers None and the caller runs the step in Python.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "_csp.h"

#define MAX_WIDTH 16 /* scope cells; a support set is then a bitset of 2**16 bits */

static PyObject *s_domain, *s_scope, *s_masks; /* interned attribute names */

static int
names(void)
{
    if (s_domain != NULL)
        return 0;
    s_domain = PyUnicode_InternFromString("domain");
    s_scope = PyUnicode_InternFromString("scope");
    s_masks = PyUnicode_InternFromString("masks");
    return (s_domain && s_scope && s_masks) ? 0 : -1;
}

/* The bits of value at mask's positions, packed low (compress(mask, width)[value]). */
static inline unsigned
project(unsigned value, unsigned mask)
{
    unsigned out = 0, k = 0;
    while (mask) {
        unsigned low = mask & -mask;
        if (value & low)
            out |= 1u << k;
        k++;
        mask ^= low;
    }
    return out;
}

/* The width of var's scope, or -1 (an error set) when it is not a tuple; > MAX_WIDTH is
 * reported as is, for the caller to refuse. */
static Py_ssize_t
width_of(PyObject *var)
{
    PyObject *scope = PyObject_GetAttr(var, s_scope);
    if (scope == NULL)
        return -1;
    Py_ssize_t n = PyTuple_Check(scope) ? PyTuple_GET_SIZE(scope) : MAX_WIDTH + 1;
    Py_DECREF(scope);
    return n;
}

/* arc.masks[cell] as an unsigned below 2**MAX_WIDTH; -1 with an error set. */
static long
mask_of(PyObject *arc, PyObject *cell)
{
    PyObject *masks = PyObject_GetAttr(arc, s_masks);
    if (masks == NULL)
        return -1;
    if (!PyDict_Check(masks)) {
        Py_DECREF(masks);
        PyErr_SetString(PyExc_TypeError, "an arc's masks are not a dict");
        return -1;
    }
    PyObject *m = PyDict_GetItemWithError(masks, cell);
    long mask = -1;
    if (m != NULL) {
        mask = PyLong_AsLong(m);
        if (mask == -1 && PyErr_Occurred()) {
            Py_DECREF(masks);
            return -1;
        }
        if (mask < 0 || mask >= (1L << MAX_WIDTH)) {
            PyErr_SetString(PyExc_ValueError, "an arc's mask is out of range");
            mask = -1;
        }
    } else if (!PyErr_Occurred()) {
        PyErr_SetObject(PyExc_KeyError, cell);
    }
    Py_DECREF(masks);
    return mask;
}

/* One arrangement as an unsigned below 2**MAX_WIDTH; -1 with an error set. */
static long
arrangement(PyObject *p)
{
    long v = PyLong_AsLong(p);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v >= (1L << MAX_WIDTH)) {
        PyErr_SetString(PyExc_ValueError, "an arrangement is out of range");
        return -1;
    }
    return v;
}

/* ClueCSP._revise(x, y, arc), x at cell xc and y at cell yc: 1 when x's domain shrank,
 * 0 when not, -1 with an error set. */
static int
revise(PyObject *x, PyObject *xc, PyObject *y, PyObject *yc, PyObject *arc)
{
    uint64_t support[(1 << MAX_WIDTH) / 64];
    int result = -1;
    PyObject *ydom = NULL, *xdom = NULL, *kept = NULL;
    long my = mask_of(arc, yc), mx;
    if (my < 0)
        return -1;
    mx = mask_of(arc, xc);
    if (mx < 0)
        return -1;
    ydom = PyObject_GetAttr(y, s_domain);
    if (ydom == NULL)
        goto done;
    xdom = PyObject_GetAttr(x, s_domain);
    if (xdom == NULL)
        goto done;
    if (!PyList_Check(ydom) || !PyList_Check(xdom)) {
        PyErr_SetString(PyExc_TypeError, "a domain is not a list");
        goto done;
    }
    /* The support set: 2**popcount(mask) bits (the two masks of an arc hold as many), at
     * most 2**MAX_WIDTH; every projection of either side falls inside it. */
    int shared = __builtin_popcountl((unsigned long)(my | mx));
    Py_ssize_t words = (((Py_ssize_t)1 << shared) + 63) / 64;
    memset(support, 0, (size_t)words * sizeof(uint64_t));
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(ydom); i++) {
        long p = arrangement(PyList_GET_ITEM(ydom, i));
        if (p < 0)
            goto done;
        unsigned q = project((unsigned)p, (unsigned)my);
        support[q >> 6] |= (uint64_t)1 << (q & 63);
    }
    Py_ssize_t n = PyList_GET_SIZE(xdom), first_gone = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        long p = arrangement(PyList_GET_ITEM(xdom, i));
        if (p < 0)
            goto done;
        unsigned q = project((unsigned)p, (unsigned)mx);
        if (!(support[q >> 6] >> (q & 63) & 1)) {
            first_gone = i;
            break;
        }
    }
    if (first_gone < 0) {
        result = 0;
        goto done;
    }
    kept = PyList_New(0);
    if (kept == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(xdom, i);
        if (i > first_gone) {
            long p = arrangement(item);
            if (p < 0)
                goto done;
            unsigned q = project((unsigned)p, (unsigned)mx);
            if (!(support[q >> 6] >> (q & 63) & 1))
                continue;
        } else if (i == first_gone) {
            continue;
        }
        if (PyList_Append(kept, item) < 0)
            goto done;
    }
    if (PyObject_SetAttr(x, s_domain, kept) < 0)
        goto done;
    result = 1;
done:
    Py_XDECREF(kept);
    Py_XDECREF(xdom);
    Py_XDECREF(ydom);
    return result;
}

/* variables[cell] as a new reference; NULL with an error set. */
static PyObject *
variable(PyObject *variables, PyObject *cell)
{
    PyObject *var = PyDict_GetItemWithError(variables, cell);
    if (var == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, cell);
        return NULL;
    }
    Py_INCREF(var);
    return var;
}

/* 1 when every variable the step touches has a scope of at most MAX_WIDTH cells, 0 when
 * not, -1 with an error set. */
static int
fits(PyObject *variables, PyObject *cell, PyObject *arcs)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    PyObject *var = variable(variables, cell);
    if (var == NULL)
        return -1;
    Py_ssize_t w = width_of(var);
    Py_DECREF(var);
    if (w < 0)
        return -1;
    if (w > MAX_WIDTH)
        return 0;
    while (PyDict_Next(arcs, &pos, &key, &value)) {
        PyObject *other = variable(variables, key);
        if (other == NULL)
            return -1;
        w = width_of(other);
        Py_DECREF(other);
        if (w < 0)
            return -1;
        if (w > MAX_WIDTH)
            return 0;
    }
    return 1;
}

PyObject *
mineshafted_revise(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "revise takes 5 arguments");
        return NULL;
    }
    PyObject *cell = args[0], *variables = args[2], *arcs = args[3], *narrowed = args[4];
    int fresh = PyObject_IsTrue(args[1]);
    if (fresh < 0 || names() < 0)
        return NULL;
    if (!PyDict_Check(variables) || !PyDict_Check(arcs)) {
        PyErr_SetString(PyExc_TypeError, "revise takes the variables and the arcs as dicts");
        return NULL;
    }
    int ok = fits(variables, cell, arcs);
    if (ok <= 0)
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    PyObject *self = variable(variables, cell);
    if (self == NULL)
        return NULL;
    /* The arcs are read in place; hold them, as narrowed is Python and could drop them. */
    Py_INCREF(arcs);
    PyObject *key, *arc, *result = NULL;
    Py_ssize_t pos = 0;
    int shrank = 0;
    while (PyDict_Next(arcs, &pos, &key, &arc)) {
        Py_INCREF(key);
        Py_INCREF(arc);
        PyObject *other = variable(variables, key);
        int r = -1;
        if (other != NULL) {
            if (fresh) {
                r = revise(self, cell, other, key, arc);
                shrank |= r > 0;
            } else {
                r = revise(other, key, self, cell, arc);
                if (r > 0) {
                    PyObject *called = PyObject_CallOneArg(narrowed, other);
                    if (called == NULL)
                        r = -1;
                    Py_XDECREF(called);
                }
            }
            Py_DECREF(other);
        }
        Py_DECREF(arc);
        Py_DECREF(key);
        if (r < 0)
            goto done;
    }
    if (shrank) {
        PyObject *called = PyObject_CallOneArg(narrowed, self);
        if (called == NULL)
            goto done;
        Py_DECREF(called);
    }
    result = Py_NewRef(Py_True);
done:
    Py_DECREF(arcs);
    Py_DECREF(self);
    return result;
}
