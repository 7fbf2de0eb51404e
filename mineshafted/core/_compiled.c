/* The compiled core: the hot paths of mineshafted in C, each beside its plain Python form.
 *
 * Every function here computes exactly what a Python function of the package computes, and is
 * tested against it on every input the tests can make (tests/core/). The Python forms are the
 * specification: read them first. A function here answers None where its input is outside
 * what it handles (a cell that is not a small int, a component too wide for 128-bit counts):
 * the caller then runs the Python form, so the answers never differ, only the speed.
 *
 *   count(constraints, limit)   mineshafted.solver.count.count_component (grouped)
 *   combine(counts, unconstrained, mines_left, ways)
 *                               mineshafted.solver.total.combine (after its binomials)
 *   components(constraints)     mineshafted.solver.position.components
 *   explore(explorer, move, adjacent, states)
 *                               mineshafted.solver.explore.Explorer.explore
 *   flood(shown, flags, neighbours, values, zero)
 *                               mineshafted.game.engine.Game._expand
 *   cells(states, state, around)
 *                               mineshafted.solver.explore.Explorer.frontier,
 *                               the unknown cells of mineshafted.solver.sweep.Sweep.position
 *   endgame(mined, shows, weights, placements, nodes)
 *                               mineshafted.probability.endgame._Search.root (_endgame.c)
 *   layout(cells, found, around)
 *                               mineshafted.probability.endgame._Layout.of (_endgame.c)
 *   regions(cells, around, components)
 *                               mineshafted.probability.regions.regions (_endgame.c)
 *
 * Built by setuptools as an optional extension (setup.py); mineshafted.core chooses it or the
 * plain forms.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_csp.h"
#include "_endgame.h"

typedef unsigned __int128 u128;

/* ------------------------------------------------------------------------------------------
 * count: one component's placements by number of mines
 *
 * The same algorithm as count.py, step for step where an order is observable (the classes,
 * their order), and with the same memory estimate (so CountTooLargeError is raised exactly
 * when the Python form raises it); the counts themselves are sums, so any order of adding
 * gives them. Counts are unsigned 128-bit: a component of at most MAX_CELLS cells has fewer
 * than 2**MAX_CELLS placements, and every number counted is a number of placements of a part
 * of it, so none can overflow.
 * ---------------------------------------------------------------------------------------- */

#define MAX_CELLS 127
#define MAX_DEBT 255 /* a constraint's mines are kept in one byte of a state */

/* The memory estimate of count.py (_SLOT, _STATE, _TRANSITION). */
#define SLOT_BYTES 36
#define STATE_BYTES 200
#define TRANSITION_BYTES 150

static u128 choose[MAX_CELLS + 2][MAX_CELLS + 2]; /* C(n, k), Pascal's triangle */

static void
fill_choose(void)
{
    for (int n = 0; n <= MAX_CELLS + 1; n++) {
        choose[n][0] = 1;
        for (int k = 1; k <= n; k++)
            choose[n][k] = choose[n - 1][k - 1] + (k < n ? choose[n - 1][k] : 0);
    }
}

typedef struct {
    long long cell;
    Py_ssize_t constraint;
} Pair;

static int
pair_order(const void *a, const void *b)
{
    const Pair *x = a, *y = b;
    if (x->cell != y->cell)
        return x->cell < y->cell ? -1 : 1;
    return (x->constraint > y->constraint) - (x->constraint < y->constraint);
}

/* What placing one class does to the state of open constraints (count.py's _Step). */
typedef struct {
    int width;        /* cells in the class */
    int charged_n;    /* constraints the class lies in */
    int *charged;     /* their indices, ascending */
    int *read;        /* for each: its place in the state, or -1 when not yet open */
    int *room;        /* for each: the cells of its classes after this one */
    int keep_n;       /* the width of the state after this class */
    int *keep_kind;   /* 0: copy entry keep_at of the state; 1: new debt of charged[keep_at] */
    int *keep_at;
} Step;

/* A layer of states: each a string of state_w bytes (the debts), with a range of mines and
 * one count per number of mines in that range. */
typedef struct {
    Py_ssize_t n, cap;
    int w;
    uint8_t *keys;      /* n * w bytes (only while the layer is being built) */
    int *lo, *hi;       /* the mines of the fewest and most counted */
    Py_ssize_t *off;    /* where each state's counts start in coef */
    u128 *coef;
    int32_t *table;     /* open addressing: index + 1, 0 for empty */
    Py_ssize_t mask;
} Layer;

typedef struct {
    int32_t from, to;
    int m;
} Edge;

typedef struct {
    Py_ssize_t n, cap;
    Edge *items;
} Edges;

static void
layer_free(Layer *layer)
{
    PyMem_Free(layer->keys);
    PyMem_Free(layer->lo);
    PyMem_Free(layer->hi);
    PyMem_Free(layer->off);
    PyMem_Free(layer->coef);
    PyMem_Free(layer->table);
    memset(layer, 0, sizeof(*layer));
}

static uint64_t
key_hash(const uint8_t *key, int w)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < w; i++)
        h = (h ^ key[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static int
layer_rehash(Layer *layer, Py_ssize_t size)
{
    int32_t *table = PyMem_Calloc((size_t)size, sizeof(int32_t));
    if (table == NULL)
        return -1;
    Py_ssize_t mask = size - 1;
    for (Py_ssize_t i = 0; i < layer->n; i++) {
        Py_ssize_t slot = (Py_ssize_t)(key_hash(layer->keys + i * layer->w, layer->w) & mask);
        while (table[slot])
            slot = (slot + 1) & mask;
        table[slot] = (int32_t)(i + 1);
    }
    PyMem_Free(layer->table);
    layer->table = table;
    layer->mask = mask;
    return 0;
}

/* The index of the state `key` in `layer`, added (with an empty range) if new; -1 on no
 * memory. *added says whether it was new. */
static Py_ssize_t
layer_find(Layer *layer, const uint8_t *key, int *added)
{
    int w = layer->w;
    if (layer->table == NULL || 2 * (layer->n + 1) > layer->mask + 1) {
        Py_ssize_t size = 16;
        while (size < 4 * (layer->n + 1))
            size *= 2;
        if (layer_rehash(layer, size) < 0)
            return -1;
    }
    Py_ssize_t slot = (Py_ssize_t)(key_hash(key, w) & layer->mask);
    for (;;) {
        int32_t at = layer->table[slot];
        if (at == 0)
            break;
        if (memcmp(layer->keys + (Py_ssize_t)(at - 1) * w, key, (size_t)w) == 0) {
            *added = 0;
            return at - 1;
        }
        slot = (slot + 1) & layer->mask;
    }
    if (layer->n == layer->cap) {
        Py_ssize_t cap = layer->cap ? 2 * layer->cap : 16;
        uint8_t *keys = PyMem_Realloc(layer->keys, (size_t)(cap * (w ? w : 1)));
        if (keys == NULL)
            return -1;
        layer->keys = keys;
        int *lo = PyMem_Realloc(layer->lo, (size_t)cap * sizeof(int));
        if (lo == NULL)
            return -1;
        layer->lo = lo;
        int *hi = PyMem_Realloc(layer->hi, (size_t)cap * sizeof(int));
        if (hi == NULL)
            return -1;
        layer->hi = hi;
        layer->cap = cap;
    }
    Py_ssize_t index = layer->n++;
    memcpy(layer->keys + index * w, key, (size_t)w);
    layer->lo[index] = INT32_MAX;
    layer->hi[index] = -1;
    layer->table[slot] = (int32_t)(index + 1);
    *added = 1;
    return index;
}

/* Give each state of `layer` room for its counts, lo..hi, zeroed; states with an empty range
 * (hi < 0) get none. */
static int
layer_allocate(Layer *layer)
{
    PyMem_Free(layer->off);
    PyMem_Free(layer->coef);
    layer->coef = NULL;
    layer->off = PyMem_Malloc((size_t)(layer->n + 1) * sizeof(Py_ssize_t));
    if (layer->off == NULL)
        return -1;
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < layer->n; i++) {
        layer->off[i] = total;
        if (layer->hi[i] >= 0)
            total += layer->hi[i] - layer->lo[i] + 1;
    }
    layer->off[layer->n] = total;
    layer->coef = PyMem_Calloc((size_t)(total ? total : 1), sizeof(u128));
    return layer->coef == NULL ? -1 : 0;
}

static int
edges_push(Edges *edges, Py_ssize_t from, Py_ssize_t to, int m)
{
    if (edges->n == edges->cap) {
        Py_ssize_t cap = edges->cap ? 2 * edges->cap : 64;
        Edge *items = PyMem_Realloc(edges->items, (size_t)cap * sizeof(Edge));
        if (items == NULL)
            return -1;
        edges->items = items;
        edges->cap = cap;
    }
    edges->items[edges->n++] = (Edge){(int32_t)from, (int32_t)to, m};
    return 0;
}

static PyObject *
u128_to_long(u128 value)
{
    uint64_t high = (uint64_t)(value >> 64);
    if (high == 0)
        return PyLong_FromUnsignedLongLong((unsigned long long)value);
    PyObject *top = PyLong_FromUnsignedLongLong(high);
    PyObject *sixty_four = PyLong_FromLong(64);
    PyObject *bottom = PyLong_FromUnsignedLongLong((unsigned long long)(uint64_t)value);
    PyObject *shifted = NULL, *result = NULL;
    if (top && sixty_four && bottom)
        shifted = PyNumber_Lshift(top, sixty_four);
    if (shifted)
        result = PyNumber_Or(shifted, bottom);
    Py_XDECREF(top);
    Py_XDECREF(sixty_four);
    Py_XDECREF(bottom);
    Py_XDECREF(shifted);
    return result;
}

/* Everything a count holds, freed in one place. */
typedef struct {
    Py_ssize_t n_constraints;
    int *mines;
    Pair *pairs;
    int n_cells;
    long long cells[MAX_CELLS];
    int n_classes;
    int class_start[MAX_CELLS + 1]; /* the class's cells in `members`, class by class */
    long long members[MAX_CELLS];
    int *scope_start;               /* the class's constraints in `scope_items` */
    int *scope_items;
    int order[MAX_CELLS];
    Step steps[MAX_CELLS];
    int *step_ints;                 /* the arrays of every step */
    Layer *layers;                  /* forward layers 0..n_classes */
    Edges *moves;                   /* the edges of each step */
    u128 *mined;                    /* n_classes rows of n_cells + 1 counts */
} Work;

static void
work_free(Work *work)
{
    PyMem_Free(work->mines);
    PyMem_Free(work->pairs);
    PyMem_Free(work->scope_start);
    PyMem_Free(work->scope_items);
    PyMem_Free(work->step_ints);
    if (work->layers) {
        for (int i = 0; i <= work->n_classes; i++)
            layer_free(&work->layers[i]);
        PyMem_Free(work->layers);
    }
    if (work->moves) {
        for (int i = 0; i < work->n_classes; i++)
            PyMem_Free(work->moves[i].items);
        PyMem_Free(work->moves);
    }
    PyMem_Free(work->mined);
}

enum { READ_OK = 0, READ_FALLBACK = 1, READ_ERROR = -1 };

/* Read the constraints into pairs (cell, constraint) sorted, and the mines. READ_FALLBACK
 * for anything the Python form should handle: not ints, out of range, a cell twice in one
 * scope, too many cells. */
static int
read_constraints(PyObject *constraints, Work *work)
{
    PyObject *seq = PySequence_Fast(constraints, "constraints must be a sequence");
    if (seq == NULL)
        return READ_ERROR;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    work->n_constraints = n;
    work->mines = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int));
    Py_ssize_t n_pairs = 0, cap = 64;
    work->pairs = PyMem_Malloc((size_t)cap * sizeof(Pair));
    if (work->mines == NULL || work->pairs == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return READ_ERROR;
    }
    int status = READ_OK;
    for (Py_ssize_t i = 0; i < n && status == READ_OK; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_CheckExact(item) || PyTuple_GET_SIZE(item) != 2) {
            status = READ_FALLBACK;
            break;
        }
        PyObject *scope = PyTuple_GET_ITEM(item, 0), *mines = PyTuple_GET_ITEM(item, 1);
        if (!PyLong_CheckExact(mines) || !(PyTuple_CheckExact(scope) || PyList_CheckExact(scope))) {
            status = READ_FALLBACK;
            break;
        }
        int overflow = 0;
        long value = PyLong_AsLongAndOverflow(mines, &overflow);
        if (overflow || value < 0 || value > MAX_DEBT) {
            status = READ_FALLBACK;
            break;
        }
        work->mines[i] = (int)value;
        Py_ssize_t size = PySequence_Fast_GET_SIZE(scope);
        PyObject **cells = PySequence_Fast_ITEMS(scope);
        for (Py_ssize_t j = 0; j < size; j++) {
            if (!PyLong_CheckExact(cells[j])) {
                status = READ_FALLBACK;
                break;
            }
            long long cell = PyLong_AsLongLongAndOverflow(cells[j], &overflow);
            if (overflow) {
                status = READ_FALLBACK;
                break;
            }
            if (n_pairs == cap) {
                cap *= 2;
                Pair *pairs = PyMem_Realloc(work->pairs, (size_t)cap * sizeof(Pair));
                if (pairs == NULL) {
                    Py_DECREF(seq);
                    PyErr_NoMemory();
                    return READ_ERROR;
                }
                work->pairs = pairs;
            }
            work->pairs[n_pairs++] = (Pair){cell, i};
        }
    }
    Py_DECREF(seq);
    if (status != READ_OK)
        return status;
    if (n_pairs <= 64) { /* an insertion sort: a component's pairs come nearly in order */
        for (Py_ssize_t i = 1; i < n_pairs; i++) {
            Pair pair = work->pairs[i];
            Py_ssize_t at = i;
            while (at > 0 && pair_order(&work->pairs[at - 1], &pair) > 0) {
                work->pairs[at] = work->pairs[at - 1];
                at--;
            }
            work->pairs[at] = pair;
        }
    }
    else
        qsort(work->pairs, (size_t)n_pairs, sizeof(Pair), pair_order);
    /* The distinct cells, each with its constraints (ascending, as count.py lists them). */
    int n_cells = 0;
    work->scope_start = PyMem_Malloc((size_t)(MAX_CELLS + 2) * sizeof(int));
    work->scope_items = PyMem_Malloc((size_t)(n_pairs ? n_pairs : 1) * sizeof(int));
    if (work->scope_start == NULL || work->scope_items == NULL) {
        PyErr_NoMemory();
        return READ_ERROR;
    }
    /* scope_start is filled per cell first (cell i's constraints), then regrouped per class. */
    for (Py_ssize_t p = 0; p < n_pairs; p++) {
        if (p > 0 && work->pairs[p].cell == work->pairs[p - 1].cell) {
            if (work->pairs[p].constraint == work->pairs[p - 1].constraint)
                return READ_FALLBACK; /* a cell twice in one scope */
        }
        else {
            if (n_cells == MAX_CELLS)
                return READ_FALLBACK;
            work->cells[n_cells] = work->pairs[p].cell;
            work->scope_start[n_cells] = (int)p;
            n_cells++;
        }
        work->scope_items[p] = (int)work->pairs[p].constraint;
    }
    work->scope_start[n_cells] = (int)n_pairs;
    work->n_cells = n_cells;
    return READ_OK;
}

/* Reorder the distinct ints `items` (inserted in this order) as a Python set of them
 * iterates: count.py sorts such a set, and ties keep that order. */
static int
set_order(int *items, int n)
{
    PyObject *set = PySet_New(NULL);
    if (set == NULL)
        return -1;
    for (int i = 0; i < n; i++) {
        PyObject *key = PyLong_FromLong(items[i]);
        if (key == NULL || PySet_Add(set, key) < 0) {
            Py_XDECREF(key);
            Py_DECREF(set);
            return -1;
        }
        Py_DECREF(key);
    }
    PyObject *members = PyObject_GetIter(set), *key;
    int filled = 0;
    while (members != NULL && (key = PyIter_Next(members)) != NULL) {
        items[filled++] = (int)PyLong_AsLong(key);
        Py_DECREF(key);
    }
    Py_XDECREF(members);
    Py_DECREF(set);
    return members == NULL || PyErr_Occurred() ? -1 : 0;
}

/* count.py's _classes and _order: cells grouped by the constraints they lie in (classes in
 * the order of their first cell), then ordered breadth-first. The order is count.py's exactly,
 * set iteration included (a Python set is used for the `fresh` step), since the classes'
 * order is part of the answer. */
static int
group_and_order(Work *work)
{
    int n_cells = work->n_cells;
    int *cell_start = work->scope_start; /* per cell, as read */
    int cell_class[MAX_CELLS];
    int class_first[MAX_CELLS]; /* a cell of each class, for its constraints */
    int n_classes = 0;
    for (int c = 0; c < n_cells; c++) {
        int len = cell_start[c + 1] - cell_start[c];
        int found = -1;
        for (int k = 0; k < n_classes && found < 0; k++) {
            int f = class_first[k];
            if (cell_start[f + 1] - cell_start[f] == len &&
                memcmp(work->scope_items + cell_start[f], work->scope_items + cell_start[c],
                       (size_t)len * sizeof(int)) == 0)
                found = k;
        }
        if (found < 0) {
            found = n_classes++;
            class_first[found] = c;
        }
        cell_class[c] = found;
    }
    /* near[constraint]: the classes lying in it, ascending; constraints as dense indices. */
    Py_ssize_t n_constraints = work->n_constraints;
    int *near_start = PyMem_Calloc((size_t)n_constraints + 1, sizeof(int));
    int *near_fill = PyMem_Calloc((size_t)n_constraints + 1, sizeof(int));
    int total = 0;
    for (int k = 0; k < n_classes; k++) {
        int f = class_first[k];
        total += cell_start[f + 1] - cell_start[f];
    }
    int *near_items = PyMem_Malloc((size_t)(total ? total : 1) * sizeof(int));
    if (near_start == NULL || near_fill == NULL || near_items == NULL) {
        PyMem_Free(near_start);
        PyMem_Free(near_fill);
        PyMem_Free(near_items);
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < n_classes; k++) {
        int f = class_first[k];
        for (int p = cell_start[f]; p < cell_start[f + 1]; p++)
            near_start[work->scope_items[p] + 1]++;
    }
    for (Py_ssize_t i = 0; i < n_constraints; i++)
        near_start[i + 1] += near_start[i];
    for (int k = 0; k < n_classes; k++) {
        int f = class_first[k];
        for (int p = cell_start[f]; p < cell_start[f + 1]; p++) {
            int c = work->scope_items[p];
            near_items[near_start[c] + near_fill[c]++] = k;
        }
    }
    /* degree: the classes sharing a constraint with each (itself included). */
    int degree[MAX_CELLS];
    for (int k = 0; k < n_classes; k++) {
        char mark[MAX_CELLS] = {0};
        int d = 0, f = class_first[k];
        for (int p = cell_start[f]; p < cell_start[f + 1]; p++) {
            int c = work->scope_items[p];
            for (int q = near_start[c]; q < near_start[c + 1]; q++)
                if (!mark[near_items[q]]) {
                    mark[near_items[q]] = 1;
                    d++;
                }
        }
        degree[k] = d;
    }
    /* roots: sorted(range(n), key=degree), stable */
    int roots[MAX_CELLS];
    for (int k = 0; k < n_classes; k++) {
        int at = k;
        while (at > 0 && degree[roots[at - 1]] > degree[k]) {
            roots[at] = roots[at - 1];
            at--;
        }
        roots[at] = k;
    }
    char seen[MAX_CELLS] = {0};
    int queue[MAX_CELLS], n_order = 0, status = 0;
    for (int r = 0; r < n_classes && status == 0; r++) {
        int root = roots[r];
        if (seen[root])
            continue;
        seen[root] = 1;
        int head = 0, tail = 0;
        queue[tail++] = root;
        while (head < tail && status == 0) {
            int index = queue[head++];
            work->order[n_order++] = index;
            /* fresh = {j for c in sorted(scope) for j in near[c] if not seen[j]}: the
             * distinct unseen classes, first in the order met; then sorted(fresh, key=degree)
             * in the set's own iteration order, which only a Python set can tell once there
             * are two or more. */
            int met[MAX_CELLS], n_met = 0, picked[MAX_CELLS], n_picked = 0;
            char in_met[MAX_CELLS] = {0};
            int f = class_first[index];
            for (int p = cell_start[f]; p < cell_start[f + 1]; p++) {
                int c = work->scope_items[p];
                for (int q = near_start[c]; q < near_start[c + 1]; q++) {
                    int j = near_items[q];
                    if (!seen[j] && !in_met[j]) {
                        in_met[j] = 1;
                        met[n_met++] = j;
                    }
                }
            }
            if (n_met > 1 && set_order(met, n_met) < 0) {
                status = -1;
                break;
            }
            for (int i = 0; i < n_met; i++) { /* a stable insertion sort by degree */
                int j = met[i], at = n_picked++;
                while (at > 0 && degree[picked[at - 1]] > degree[j]) {
                    picked[at] = picked[at - 1];
                    at--;
                }
                picked[at] = j;
            }
            for (int i = 0; i < n_picked; i++) {
                seen[picked[i]] = 1;
                queue[tail++] = picked[i];
            }
        }
    }
    PyMem_Free(near_start);
    PyMem_Free(near_fill);
    PyMem_Free(near_items);
    if (status < 0)
        return -1;
    /* Classes in that order: their cells and their constraints. */
    int *scope_start = PyMem_Malloc((size_t)(n_classes + 1) * sizeof(int));
    int *scope_items = PyMem_Malloc((size_t)(total ? total : 1) * sizeof(int));
    if (scope_start == NULL || scope_items == NULL) {
        PyMem_Free(scope_start);
        PyMem_Free(scope_items);
        PyErr_NoMemory();
        return -1;
    }
    int filled = 0, placed = 0;
    for (int i = 0; i < n_classes; i++) {
        int k = work->order[i];
        work->class_start[i] = placed;
        for (int c = 0; c < n_cells; c++)
            if (cell_class[c] == k)
                work->members[placed++] = work->cells[c];
        int f = class_first[k];
        scope_start[i] = filled;
        for (int p = cell_start[f]; p < cell_start[f + 1]; p++)
            scope_items[filled++] = work->scope_items[p];
    }
    work->class_start[n_classes] = placed;
    scope_start[n_classes] = filled;
    PyMem_Free(work->scope_start);
    PyMem_Free(work->scope_items);
    work->scope_start = scope_start;
    work->scope_items = scope_items;
    work->n_classes = n_classes;
    return 0;
}

/* count.py's _plan: for each class in order, how it reads and changes the state. */
static int
plan(Work *work)
{
    int n_classes = work->n_classes;
    Py_ssize_t n_constraints = work->n_constraints;
    int *last = PyMem_Malloc((size_t)(n_constraints ? n_constraints : 1) * sizeof(int));
    int *room_after = PyMem_Calloc((size_t)(n_constraints ? n_constraints : 1), sizeof(int));
    int *opened = PyMem_Malloc((size_t)(n_constraints + 1) * sizeof(int));
    int *following = PyMem_Malloc((size_t)(n_constraints + 1) * sizeof(int));
    /* Each step's arrays: charged, read, room (the class's constraints), keep (2 ints a
     * constraint open after it); at most every constraint is open at once. */
    Py_ssize_t need = 0;
    for (int s = 0; s < n_classes; s++)
        need += 3 * (work->scope_start[s + 1] - work->scope_start[s]) + 2 * (n_constraints + 1);
    work->step_ints = PyMem_Malloc((size_t)(need ? need : 1) * sizeof(int));
    if (last == NULL || room_after == NULL || opened == NULL || following == NULL ||
        work->step_ints == NULL) {
        PyMem_Free(last);
        PyMem_Free(room_after);
        PyMem_Free(opened);
        PyMem_Free(following);
        PyErr_NoMemory();
        return -1;
    }
    for (int s = 0; s < n_classes; s++) {
        int width = work->class_start[s + 1] - work->class_start[s];
        for (int p = work->scope_start[s]; p < work->scope_start[s + 1]; p++) {
            last[work->scope_items[p]] = s;
            room_after[work->scope_items[p]] += width;
        }
    }
    int n_opened = 0, *cursor = work->step_ints;
    for (int s = 0; s < n_classes; s++) {
        Step *step = &work->steps[s];
        int width = work->class_start[s + 1] - work->class_start[s];
        int n = work->scope_start[s + 1] - work->scope_start[s];
        int *scope = work->scope_items + work->scope_start[s]; /* ascending */
        step->width = width;
        step->charged_n = n;
        step->charged = cursor;
        step->read = cursor + n;
        step->room = cursor + 2 * n;
        cursor += 3 * n;
        for (int i = 0; i < n; i++) {
            int c = scope[i];
            step->charged[i] = c;
            step->read[i] = -1;
            for (int o = 0; o < n_opened; o++)
                if (opened[o] == c)
                    step->read[i] = o;
            room_after[c] -= width;
            step->room[i] = room_after[c];
        }
        int n_following = 0;
        for (int o = 0; o < n_opened; o++)
            if (last[opened[o]] > s)
                following[n_following++] = opened[o];
        for (int i = 0; i < n; i++)
            if (step->read[i] < 0 && last[scope[i]] > s)
                following[n_following++] = scope[i];
        step->keep_n = n_following;
        step->keep_kind = cursor;
        step->keep_at = cursor + n_following;
        cursor += 2 * n_following;
        for (int f = 0; f < n_following; f++) {
            int c = following[f], at = -1;
            for (int i = 0; i < n; i++)
                if (scope[i] == c)
                    at = i;
            if (at >= 0) {
                step->keep_kind[f] = 1;
                step->keep_at[f] = at;
            }
            else {
                for (int o = 0; o < n_opened; o++)
                    if (opened[o] == c)
                        at = o;
                step->keep_kind[f] = 0;
                step->keep_at[f] = at;
            }
        }
        memcpy(opened, following, (size_t)n_following * sizeof(int));
        n_opened = n_following;
    }
    PyMem_Free(last);
    PyMem_Free(room_after);
    PyMem_Free(opened);
    PyMem_Free(following);
    return 0;
}

enum { COUNT_DONE = 0, COUNT_TOO_LARGE = 1, COUNT_ERROR = -1 };

/* The forward pass: layer s+1 from layer s, under the memory estimate. */
static int
forward(Work *work, double limit)
{
    int n_classes = work->n_classes;
    Layer *layers = work->layers;
    int added;
    uint8_t none = 0;
    layers[0].w = 0; /* the first layer: the empty state, one way with no mine */
    if (layer_find(&layers[0], &none, &added) < 0) {
        PyErr_NoMemory();
        return COUNT_ERROR;
    }
    layers[0].lo[0] = layers[0].hi[0] = 0;
    if (layer_allocate(&layers[0]) < 0) {
        PyErr_NoMemory();
        return COUNT_ERROR;
    }
    layers[0].coef[0] = 1;
    double held = 0, states = 0, transitions = 0;
    int placed = 0;
    uint8_t *key = NULL;
    int max_keep = 1;
    for (int s = 0; s < n_classes; s++)
        if (work->steps[s].keep_n > max_keep)
            max_keep = work->steps[s].keep_n;
    key = PyMem_Malloc((size_t)max_keep);
    uint8_t *charged_debts = PyMem_Malloc((size_t)(work->n_constraints + 1));
    if (key == NULL || charged_debts == NULL) {
        PyMem_Free(key);
        PyMem_Free(charged_debts);
        PyErr_NoMemory();
        return COUNT_ERROR;
    }
    int status = COUNT_DONE;
    for (int s = 0; s < n_classes && status == COUNT_DONE; s++) {
        Step *step = &work->steps[s];
        Layer *from = &layers[s], *to = &layers[s + 1];
        Edges *edges = &work->moves[s];
        to->w = step->keep_n;
        placed += step->width;
        double coefficient = SLOT_BYTES + 4 * (placed / 30 + 1);
        double slots = 0;
        for (Py_ssize_t p = 0; p < from->n && status == COUNT_DONE; p++) {
            const uint8_t *state = from->keys + p * from->w;
            int low = 0, high = step->width;
            for (int i = 0; i < step->charged_n; i++) {
                int debt = step->read[i] >= 0 ? state[step->read[i]]
                                              : work->mines[step->charged[i]];
                charged_debts[i] = (uint8_t)debt;
                if (debt < high)
                    high = debt;
                if (debt - step->room[i] > low)
                    low = debt - step->room[i];
            }
            for (int m = low; m <= high; m++) {
                for (int f = 0; f < step->keep_n; f++)
                    key[f] = step->keep_kind[f] ? (uint8_t)(charged_debts[step->keep_at[f]] - m)
                                                : state[step->keep_at[f]];
                Py_ssize_t q = layer_find(to, key, &added);
                if (q < 0 || edges_push(edges, p, q, m) < 0) {
                    PyErr_NoMemory();
                    status = COUNT_ERROR;
                    break;
                }
                int lo = from->lo[p] + m, hi = from->hi[p] + m;
                if (added) {
                    to->lo[q] = lo;
                    to->hi[q] = hi;
                    slots += hi + 1;
                }
                else {
                    if (lo < to->lo[q])
                        to->lo[q] = lo;
                    if (hi > to->hi[q]) {
                        slots += hi - to->hi[q];
                        to->hi[q] = hi;
                    }
                }
            }
            double used = held + slots * coefficient + (states + (double)to->n) * STATE_BYTES +
                          (transitions + (double)edges->n) * TRANSITION_BYTES;
            if (status == COUNT_DONE && used > limit)
                status = COUNT_TOO_LARGE;
        }
        if (status != COUNT_DONE)
            break;
        held += slots * coefficient;
        states += (double)to->n;
        transitions += (double)edges->n;
        if (layer_allocate(to) < 0) {
            PyErr_NoMemory();
            status = COUNT_ERROR;
            break;
        }
        const u128 *binomial = choose[step->width];
        for (Py_ssize_t e = 0; e < edges->n; e++) {
            Edge edge = edges->items[e];
            u128 weight = binomial[edge.m];
            const u128 *source = from->coef + from->off[edge.from];
            u128 *target = to->coef + to->off[edge.to] + (from->lo[edge.from] + edge.m - to->lo[edge.to]);
            int span = from->hi[edge.from] - from->lo[edge.from];
            for (int k = 0; k <= span; k++)
                target[k] += weight * source[k];
        }
        PyMem_Free(from->keys); /* the states' names are needed no more, only their counts */
        from->keys = NULL;
        PyMem_Free(from->table);
        from->table = NULL;
    }
    PyMem_Free(key);
    PyMem_Free(charged_debts);
    return status;
}

/* The backward pass: the completions of each state, and each class's mined counts. Returns
 * the total's highest number of mines (-1: no placement) and leaves the total in *total. */
static int
backward(Work *work, u128 *total)
{
    int n_classes = work->n_classes;
    Layer *layers = work->layers;
    /* suffix counts of the states of the layer after the current step */
    int n_next = (int)layers[n_classes].n;
    int *next_lo = PyMem_Malloc(sizeof(int)), *next_hi = PyMem_Malloc(sizeof(int));
    Py_ssize_t *next_off = PyMem_Malloc(2 * sizeof(Py_ssize_t));
    u128 *next_coef = PyMem_Calloc(1, sizeof(u128));
    if (next_lo == NULL || next_hi == NULL || next_off == NULL || next_coef == NULL) {
        PyMem_Free(next_lo);
        PyMem_Free(next_hi);
        PyMem_Free(next_off);
        PyMem_Free(next_coef);
        PyErr_NoMemory();
        return -2;
    }
    next_lo[0] = 0;
    next_hi[0] = n_next ? 0 : -1; /* the end state, if a placement reaches it */
    next_off[0] = 0;
    next_coef[0] = 1;
    int status = 0;
    for (int s = n_classes - 1; s >= 0 && status == 0; s--) {
        Layer *layer = &layers[s];
        Edges *edges = &work->moves[s];
        Py_ssize_t n = layer->n;
        int *lo = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int));
        int *hi = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int));
        Py_ssize_t *off = PyMem_Malloc((size_t)(n + 1) * sizeof(Py_ssize_t));
        if (lo == NULL || hi == NULL || off == NULL) {
            PyMem_Free(lo);
            PyMem_Free(hi);
            PyMem_Free(off);
            status = -1;
            break;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            lo[i] = INT32_MAX;
            hi[i] = -1;
        }
        for (Py_ssize_t e = 0; e < edges->n; e++) {
            Edge edge = edges->items[e];
            if (next_hi[edge.to] < 0)
                continue;
            if (next_lo[edge.to] + edge.m < lo[edge.from])
                lo[edge.from] = next_lo[edge.to] + edge.m;
            if (next_hi[edge.to] + edge.m > hi[edge.from])
                hi[edge.from] = next_hi[edge.to] + edge.m;
        }
        Py_ssize_t size = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            off[i] = size;
            if (hi[i] >= 0)
                size += hi[i] - lo[i] + 1;
        }
        off[n] = size;
        u128 *coef = PyMem_Calloc((size_t)(size ? size : 1), sizeof(u128));
        if (coef == NULL) {
            PyMem_Free(lo);
            PyMem_Free(hi);
            PyMem_Free(off);
            status = -1;
            break;
        }
        int width = work->steps[s].width;
        u128 *mined = work->mined + (Py_ssize_t)s * (work->n_cells + 1);
        for (Py_ssize_t e = 0; e < edges->n; e++) {
            Edge edge = edges->items[e];
            int q = edge.to, p = edge.from, m = edge.m;
            if (next_hi[q] < 0)
                continue;
            const u128 *suffix = next_coef + next_off[q];
            int slo = next_lo[q], span = next_hi[q] - slo;
            u128 weight = choose[width][m];
            u128 *target = coef + off[p] + (slo + m - lo[p]);
            for (int j = 0; j <= span; j++)
                target[j] += weight * suffix[j];
            if (m == 0)
                continue;
            u128 share = choose[width - 1][m - 1];
            const u128 *prefix = layer->coef + layer->off[p];
            int plo = layer->lo[p], pspan = layer->hi[p] - plo;
            for (int a = 0; a <= pspan; a++) {
                u128 x = prefix[a];
                if (x == 0)
                    continue;
                x *= share;
                u128 *into = mined + plo + a + slo + m;
                for (int j = 0; j <= span; j++)
                    into[j] += x * suffix[j];
            }
        }
        PyMem_Free(next_lo);
        PyMem_Free(next_hi);
        PyMem_Free(next_off);
        PyMem_Free(next_coef);
        next_lo = lo;
        next_hi = hi;
        next_off = off;
        next_coef = coef;
        layer_free(&layers[s + 1]);
    }
    int top = -2;
    if (status == 0) {
        top = next_hi[0];
        if (top >= 0) {
            for (int k = 0; k <= top; k++)
                total[k] = k < next_lo[0] ? 0 : next_coef[next_off[0] + k - next_lo[0]];
        }
    }
    else
        PyErr_NoMemory();
    PyMem_Free(next_lo);
    PyMem_Free(next_hi);
    PyMem_Free(next_off);
    PyMem_Free(next_coef);
    return top;
}

static PyObject *
u128_tuple(const u128 *values, int length)
{
    PyObject *tuple = PyTuple_New(length);
    if (tuple == NULL)
        return NULL;
    for (int k = 0; k < length; k++) {
        PyObject *value = u128_to_long(values[k]);
        if (value == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, k, value);
    }
    return tuple;
}

static PyObject *
count_result(Work *work, const u128 *total, int length)
{
    int n_classes = work->n_classes;
    PyObject *classes = PyTuple_New(n_classes), *mined = PyTuple_New(n_classes);
    PyObject *placements = u128_tuple(total, length);
    if (classes == NULL || mined == NULL || placements == NULL)
        goto fail;
    for (int i = 0; i < n_classes; i++) {
        int start = work->class_start[i], end = work->class_start[i + 1];
        PyObject *group = PyTuple_New(end - start);
        if (group == NULL)
            goto fail;
        PyTuple_SET_ITEM(classes, i, group);
        for (int c = start; c < end; c++) {
            PyObject *cell = PyLong_FromLongLong(work->members[c]);
            if (cell == NULL)
                goto fail;
            PyTuple_SET_ITEM(group, c - start, cell);
        }
        PyObject *counts = u128_tuple(work->mined + (Py_ssize_t)i * (work->n_cells + 1), length);
        if (counts == NULL)
            goto fail;
        PyTuple_SET_ITEM(mined, i, counts);
    }
    PyObject *result = PyTuple_Pack(3, classes, placements, mined);
    Py_DECREF(classes);
    Py_DECREF(placements);
    Py_DECREF(mined);
    return result;
fail:
    Py_XDECREF(classes);
    Py_XDECREF(placements);
    Py_XDECREF(mined);
    return NULL;
}

PyDoc_STRVAR(count_doc,
"count(constraints, limit, /)\n--\n\n"
"count_component(constraints) of mineshafted.solver.count, grouped, compiled.\n\n"
"Returns (classes, placements, mined) as Count holds them; an int, the component's cells,\n"
"when the count's tables would outgrow ``limit`` bytes (count.py's estimate); None when\n"
"the input is outside what this form counts (the caller counts it in Python).");

static PyObject *
count(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "count() takes constraints and a limit");
        return NULL;
    }
    double limit = PyFloat_AsDouble(args[1]);
    if (limit == -1.0 && PyErr_Occurred())
        return NULL;
    Work work; /* the arrays inside are filled before they are read: only the rest is zeroed */
    work.n_constraints = 0;
    work.n_cells = work.n_classes = 0;
    work.mines = NULL;
    work.pairs = NULL;
    work.scope_start = work.scope_items = work.step_ints = NULL;
    work.layers = NULL;
    work.moves = NULL;
    work.mined = NULL;
    PyObject *result = NULL;
    int read = read_constraints(args[0], &work);
    if (read != READ_OK) {
        work_free(&work);
        if (read == READ_ERROR)
            return NULL;
        Py_RETURN_NONE;
    }
    if (group_and_order(&work) < 0 || plan(&work) < 0)
        goto done;
    int n_classes = work.n_classes;
    work.layers = PyMem_Calloc((size_t)n_classes + 1, sizeof(Layer));
    work.moves = PyMem_Calloc((size_t)(n_classes ? n_classes : 1), sizeof(Edges));
    work.mined = PyMem_Calloc((size_t)(n_classes ? n_classes : 1) * (size_t)(work.n_cells + 1),
                              sizeof(u128));
    if (work.layers == NULL || work.moves == NULL || work.mined == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int status = forward(&work, limit);
    if (status == COUNT_ERROR)
        goto done;
    if (status == COUNT_TOO_LARGE) {
        result = PyLong_FromLong(work.n_cells);
        goto done;
    }
    u128 total[MAX_CELLS + 1];
    int top = backward(&work, total);
    if (top == -2)
        goto done;
    if (top < 0) { /* no placement: the total [0], every class's counts (0,) */
        total[0] = 0;
        top = 0;
    }
    result = count_result(&work, total, top + 1);
done:
    work_free(&work);
    return result;
}

/* ------------------------------------------------------------------------------------------
 * combine: components and unconstrained cells together under the mine total
 *
 * total.py's combine, from the point where its binomials `ways` are made (they stay in Python,
 * where they are remembered). The components' polynomials and their products are counts of
 * placements of the frontier, so they fit 128 bits while the frontier has at most MAX_CELLS
 * cells; only the products with the binomials need Python's big ints. A class's count is
 * sum_k hits[k] * sum_t others[t] * ways[k + t], which is sum_s ways[s] * (hits * others)[s]:
 * one big multiplication per number of mines, instead of one per pair.
 * ---------------------------------------------------------------------------------------- */

/* A Python int of at most 64 bits, non-negative, as a u128; -1 when it is not one. */
static int
small_count(PyObject *value, u128 *into)
{
    if (!PyLong_CheckExact(value))
        return -1;
    unsigned long long low = PyLong_AsUnsignedLongLong(value);
    if (low == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -2;
        PyErr_Clear();
        return -1;
    }
    *into = low;
    return 0;
}

/* A u128 polynomial: its coefficients by number of mines. */
typedef struct {
    int n;
    u128 *c;
} Poly;

static void
poly_product(const Poly *a, const Poly *b, Poly *into)
{
    into->n = a->n + b->n - 1;
    memset(into->c, 0, (size_t)into->n * sizeof(u128));
    for (int i = 0; i < a->n; i++) {
        if (a->c[i] == 0)
            continue;
        for (int j = 0; j < b->n; j++)
            into->c[i + j] += a->c[i] * b->c[j];
    }
}

/* sum_s ways[s] * poly[s] as a Python int (new reference). */
static PyObject *
dot_ways(PyObject *const *ways, const u128 *poly, int n)
{
    PyObject *total = PyLong_FromLong(0);
    for (int s = 0; s < n && total != NULL; s++) {
        if (poly[s] == 0)
            continue;
        PyObject *factor = u128_to_long(poly[s]);
        PyObject *term = factor ? PyNumber_Multiply(factor, ways[s]) : NULL;
        Py_XDECREF(factor);
        PyObject *sum = term ? PyNumber_Add(total, term) : NULL;
        Py_XDECREF(term);
        Py_DECREF(total);
        total = sum;
    }
    return total;
}

PyDoc_STRVAR(combine_doc,
"combine(counts, unconstrained, mines_left, ways, /)\n--\n\n"
"The part of mineshafted.solver.total.combine after its binomials, compiled: ``ways[x]``\n"
"is C(unconstrained cells, mines_left - x) for every x the components can hold. Returns\n"
"(placements, mined) as combine's Tally holds them, or None where the frontier is too\n"
"wide for 128-bit counts (the caller combines in Python).");

static PyObject *
combine(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "combine() takes counts, unconstrained, mines_left, ways");
        return NULL;
    }
    PyObject *counts = PySequence_Fast(args[0], "counts must be a sequence");
    PyObject *free_cells = PySequence_Fast(args[1], "unconstrained must be a sequence");
    PyObject *ways_list = PySequence_Fast(args[3], "ways must be a sequence");
    long mines_left = PyLong_AsLong(args[2]);
    PyObject *result = NULL, *mined = NULL, *placements = NULL;
    PyObject **parts = NULL; /* per component: classes, placements, mined (new references) */
    u128 *store = NULL;
    Poly *polys = NULL, *prefix = NULL, *suffix = NULL;
    int fallback = 0;
    if (mines_left == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            goto done;
        PyErr_Clear();
        fallback = 1;
        goto done;
    }
    if (counts == NULL || free_cells == NULL || ways_list == NULL)
        goto done;
    Py_ssize_t k_parts = PySequence_Fast_GET_SIZE(counts);
    Py_ssize_t n_ways = PySequence_Fast_GET_SIZE(ways_list);
    PyObject *const *ways = PySequence_Fast_ITEMS(ways_list);
    parts = PyMem_Calloc((size_t)(3 * k_parts + 1), sizeof(PyObject *));
    polys = PyMem_Calloc((size_t)(k_parts + 1), sizeof(Poly));
    if (parts == NULL || polys == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    static const char *names[3] = {"classes", "placements", "mined"};
    Py_ssize_t cells = 0, degree = 1;
    for (Py_ssize_t j = 0; j < k_parts && !fallback; j++) {
        PyObject *count = PySequence_Fast_GET_ITEM(counts, j);
        for (int f = 0; f < 3; f++) {
            parts[3 * j + f] = PyObject_GetAttrString(count, names[f]);
            if (parts[3 * j + f] == NULL)
                goto done;
            if (!PyTuple_CheckExact(parts[3 * j + f]))
                fallback = 1;
        }
        if (fallback)
            break;
        PyObject *classes = parts[3 * j];
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(classes); i++) {
            PyObject *group = PyTuple_GET_ITEM(classes, i);
            if (!PyTuple_CheckExact(group)) {
                fallback = 1;
                break;
            }
            cells += PyTuple_GET_SIZE(group);
        }
        degree += PyTuple_GET_SIZE(parts[3 * j + 1]) - 1;
    }
    if (fallback || cells > MAX_CELLS || degree != n_ways || degree < 1) {
        fallback = 1;
        goto done;
    }
    /* Room for every polynomial: each component's, the prefix and suffix products, and
     * two scratch ones; each at most `degree` long. */
    store = PyMem_Calloc((size_t)(3 * (k_parts + 1) + 2) * (size_t)degree, sizeof(u128));
    prefix = PyMem_Calloc((size_t)(k_parts + 1), sizeof(Poly));
    suffix = PyMem_Calloc((size_t)(k_parts + 1), sizeof(Poly));
    if (store == NULL || prefix == NULL || suffix == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    u128 *slot = store;
    for (Py_ssize_t j = 0; j < k_parts; j++) {
        PyObject *poly = parts[3 * j + 1];
        polys[j].n = (int)PyTuple_GET_SIZE(poly);
        polys[j].c = slot;
        slot += degree;
        for (int s = 0; s < polys[j].n; s++) {
            int got = small_count(PyTuple_GET_ITEM(poly, s), &polys[j].c[s]);
            if (got == -2)
                goto done;
            if (got < 0) {
                fallback = 1;
                goto done;
            }
        }
    }
    for (Py_ssize_t j = 0; j <= k_parts; j++) {
        prefix[j].c = slot;
        slot += degree;
        suffix[j].c = slot;
        slot += degree;
    }
    Poly others = {0, slot}, scratch = {0, slot + degree};
    prefix[0].n = 1;
    prefix[0].c[0] = 1;
    for (Py_ssize_t j = 0; j < k_parts; j++)
        poly_product(&prefix[j], &polys[j], &prefix[j + 1]);
    suffix[k_parts].n = 1;
    suffix[k_parts].c[0] = 1;
    for (Py_ssize_t j = k_parts - 1; j >= 0; j--)
        poly_product(&suffix[j + 1], &polys[j], &suffix[j]);
    const Poly *every = &prefix[k_parts];
    placements = dot_ways(ways, every->c, every->n);
    mined = PyDict_New();
    if (placements == NULL || mined == NULL)
        goto done;
    for (Py_ssize_t j = 0; j < k_parts; j++) {
        poly_product(&prefix[j], &suffix[j + 1], &others);
        PyObject *classes = parts[3 * j], *hits_all = parts[3 * j + 2];
        if (PyTuple_GET_SIZE(hits_all) != PyTuple_GET_SIZE(classes)) {
            fallback = 1;
            goto done;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(classes); i++) {
            PyObject *hits_tuple = PyTuple_GET_ITEM(hits_all, i);
            if (!PyTuple_CheckExact(hits_tuple) || PyTuple_GET_SIZE(hits_tuple) != polys[j].n) {
                fallback = 1;
                goto done;
            }
            u128 buffer[MAX_CELLS + 1];
            Poly hits = {polys[j].n, buffer};
            for (int s = 0; s < hits.n; s++) {
                int got = small_count(PyTuple_GET_ITEM(hits_tuple, s), &hits.c[s]);
                if (got == -2)
                    goto done;
                if (got < 0) {
                    fallback = 1;
                    goto done;
                }
            }
            poly_product(&hits, &others, &scratch);
            PyObject *value = dot_ways(ways, scratch.c, scratch.n);
            if (value == NULL)
                goto done;
            PyObject *group = PyTuple_GET_ITEM(classes, i);
            for (Py_ssize_t c = 0; c < PyTuple_GET_SIZE(group); c++) {
                if (PyDict_SetItem(mined, PyTuple_GET_ITEM(group, c), value) < 0) {
                    Py_DECREF(value);
                    goto done;
                }
            }
            Py_DECREF(value);
        }
    }
    Py_ssize_t n_free = PySequence_Fast_GET_SIZE(free_cells);
    if (n_free) {
        /* A free cell is a mine in C(U - 1, R - k - 1) = C(U, R - k) * (R - k) / U. */
        PyObject *value = PyLong_FromLong(0), *size = PyLong_FromSsize_t(n_free);
        for (int k = 0; k < every->n && value != NULL && size != NULL; k++) {
            if (every->c[k] == 0)
                continue;
            PyObject *left = PyLong_FromLong(mines_left - k);
            PyObject *scaled = left ? PyNumber_Multiply(ways[k], left) : NULL;
            PyObject *share = scaled ? PyNumber_FloorDivide(scaled, size) : NULL;
            PyObject *factor = share ? u128_to_long(every->c[k]) : NULL;
            PyObject *term = factor ? PyNumber_Multiply(factor, share) : NULL;
            PyObject *sum = term ? PyNumber_Add(value, term) : NULL;
            Py_XDECREF(left);
            Py_XDECREF(scaled);
            Py_XDECREF(share);
            Py_XDECREF(factor);
            Py_XDECREF(term);
            Py_DECREF(value);
            value = sum;
        }
        Py_XDECREF(size);
        if (value == NULL)
            goto done;
        PyObject *const *items = PySequence_Fast_ITEMS(free_cells);
        for (Py_ssize_t c = 0; c < n_free; c++) {
            if (PyDict_SetItem(mined, items[c], value) < 0) {
                Py_DECREF(value);
                goto done;
            }
        }
        Py_DECREF(value);
    }
    result = PyTuple_Pack(2, placements, mined);
done:
    if (parts != NULL) {
        for (Py_ssize_t j = 0; j < 3 * PySequence_Fast_GET_SIZE(counts); j++)
            Py_XDECREF(parts[j]);
        PyMem_Free(parts);
    }
    PyMem_Free(store);
    PyMem_Free(polys);
    PyMem_Free(prefix);
    PyMem_Free(suffix);
    Py_XDECREF(placements);
    Py_XDECREF(mined);
    Py_XDECREF(counts);
    Py_XDECREF(free_cells);
    Py_XDECREF(ways_list);
    if (fallback && result == NULL && !PyErr_Occurred())
        Py_RETURN_NONE;
    return result;
}

/* ------------------------------------------------------------------------------------------
 * components: constraints grouped by shared cells (solver/position.py's components)
 *
 * Union-find over the cells; the groups come in the order of their first constraint, each
 * with its constraints in the order given, as position.py yields them (any union-find gives
 * that order, so this one need not copy position.py's).
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    long long *keys;
    int32_t *ids;   /* id + 1, 0 for empty */
    Py_ssize_t mask;
} CellIds;

static int
cell_id(CellIds *map, long long cell, int32_t *next)
{
    uint64_t h = (uint64_t)cell * 0x9E3779B97F4A7C15ULL;
    Py_ssize_t slot = (Py_ssize_t)((h ^ (h >> 32)) & (uint64_t)map->mask);
    while (map->ids[slot]) {
        if (map->keys[slot] == cell)
            return map->ids[slot] - 1;
        slot = (slot + 1) & map->mask;
    }
    map->keys[slot] = cell;
    map->ids[slot] = ++*next;
    return *next - 1;
}

static int32_t
find_root(int32_t *parent, int32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

PyDoc_STRVAR(components_doc,
"components(constraints, /)\n--\n\n"
"position.py's components, compiled: a list of the groups of constraints linked by shared\n"
"cells, in the order of their first constraint; None for an input it does not take (a\n"
"constraint that is not a (tuple of ints, mines) pair with cells, say).");

static PyObject *
components(PyObject *module, PyObject *arg)
{
    PyObject *listed = PySequence_List(arg);
    if (listed == NULL)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(listed), pairs = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(listed, i);
        if (!PyTuple_CheckExact(item) || PyTuple_GET_SIZE(item) != 2 ||
            !PyTuple_CheckExact(PyTuple_GET_ITEM(item, 0)) ||
            PyTuple_GET_SIZE(PyTuple_GET_ITEM(item, 0)) == 0) {
            Py_DECREF(listed);
            Py_RETURN_NONE;
        }
        pairs += PyTuple_GET_SIZE(PyTuple_GET_ITEM(item, 0));
    }
    Py_ssize_t size = 16;
    while (size < 2 * pairs)
        size *= 2;
    CellIds map = {PyMem_Malloc((size_t)size * sizeof(long long)),
                   PyMem_Calloc((size_t)size, sizeof(int32_t)), size - 1};
    int32_t *parent = PyMem_Malloc((size_t)(pairs + 1) * sizeof(int32_t));
    int32_t *first = PyMem_Malloc((size_t)(n + 1) * sizeof(int32_t));
    int32_t *group_of = PyMem_Malloc((size_t)(pairs + 1) * sizeof(int32_t));
    PyObject *groups = NULL;
    int fallback = 0;
    if (map.keys == NULL || map.ids == NULL || parent == NULL || first == NULL ||
        group_of == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int32_t next = 0;
    for (Py_ssize_t i = 0; i < n && !fallback; i++) {
        PyObject *scope = PyTuple_GET_ITEM(PyList_GET_ITEM(listed, i), 0);
        int32_t root = -1;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(scope); j++) {
            PyObject *cell = PyTuple_GET_ITEM(scope, j);
            int overflow = 0;
            long long value = PyLong_CheckExact(cell) ? PyLong_AsLongLongAndOverflow(cell, &overflow)
                                                      : 0;
            if (!PyLong_CheckExact(cell) || overflow) {
                fallback = 1;
                break;
            }
            int32_t before = next, id = cell_id(&map, value, &next);
            if (next != before)
                parent[id] = id;
            int32_t other = find_root(parent, id);
            if (root < 0)
                root = other;
            else if (other != root)
                parent[other] = root;
        }
        first[i] = root;
    }
    if (fallback)
        goto done;
    groups = PyList_New(0);
    if (groups == NULL)
        goto done;
    for (int32_t i = 0; i < next; i++)
        group_of[i] = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t root = find_root(parent, first[i]);
        PyObject *group;
        if (group_of[root] < 0) {
            group_of[root] = (int32_t)PyList_GET_SIZE(groups);
            group = PyList_New(0);
            if (group == NULL || PyList_Append(groups, group) < 0) {
                Py_XDECREF(group);
                Py_CLEAR(groups);
                goto done;
            }
            Py_DECREF(group);
        }
        group = PyList_GET_ITEM(groups, group_of[root]);
        if (PyList_Append(group, PyList_GET_ITEM(listed, i)) < 0) {
            Py_CLEAR(groups);
            goto done;
        }
    }
done:
    PyMem_Free(map.keys);
    PyMem_Free(map.ids);
    PyMem_Free(parent);
    PyMem_Free(first);
    PyMem_Free(group_of);
    Py_DECREF(listed);
    if (fallback && groups == NULL && !PyErr_Occurred())
        Py_RETURN_NONE;
    return groups;
}

/* ------------------------------------------------------------------------------------------
 * explore: the sweep's explore loop (solver/explore.py's Explorer.explore)
 *
 * The same loop over the Explorer's own containers (the knowledge's states, values and rings,
 * the clues' counts), in the same order, calling the manager's move and get_adjacent as the
 * Python loop does and the Explorer's own methods where it refuses or checks what the manager
 * said (_clue, _read, _fault, _refuse). A first step: the containers stay Python objects, so
 * the rest of the sweep reads them as before; a compiled sweep would keep them in C.
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    Py_ssize_t n, cap;
    PyObject **items; /* new references */
} Stack;

static int
stack_push(Stack *stack, PyObject *item)
{
    if (stack->n == stack->cap) {
        Py_ssize_t cap = stack->cap ? 2 * stack->cap : 64;
        PyObject **items = PyMem_Realloc(stack->items, (size_t)cap * sizeof(PyObject *));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        stack->items = items;
        stack->cap = cap;
    }
    Py_INCREF(item);
    stack->items[stack->n++] = item;
    return 0;
}

static void
stack_clear(Stack *stack, Py_ssize_t from)
{
    for (Py_ssize_t i = from; i < stack->n; i++)
        Py_DECREF(stack->items[i]);
    PyMem_Free(stack->items);
    memset(stack, 0, sizeof(*stack));
}

/* A deque's items moved onto a stack (in order), the deque emptied. */
static int
drain(PyObject *deque, Stack *into)
{
    PyObject *items = PySequence_List(deque);
    if (items == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); i++)
        if (stack_push(into, PyList_GET_ITEM(items, i)) < 0) {
            Py_DECREF(items);
            return -1;
        }
    Py_DECREF(items);
    PyObject *done = PyObject_CallMethod(deque, "clear", NULL);
    Py_XDECREF(done);
    return done == NULL ? -1 : 0;
}

/* list[index] as a C long (the counts of the Explorer: always ints). */
static long
item_long(PyObject *list, Py_ssize_t index)
{
    return PyLong_AsLong(PyList_GET_ITEM(list, index));
}

static int
set_long(PyObject *list, Py_ssize_t index, long value)
{
    PyObject *number = PyLong_FromLong(value);
    if (number == NULL)
        return -1;
    PyObject *old = PyList_GET_ITEM(list, index);
    PyList_SET_ITEM(list, index, number);
    Py_DECREF(old);
    return 0;
}

static int
set_item(PyObject *list, Py_ssize_t index, PyObject *value)
{
    Py_INCREF(value);
    PyObject *old = PyList_GET_ITEM(list, index);
    PyList_SET_ITEM(list, index, value);
    Py_DECREF(old);
    return 0;
}

/* self.<method>(cell, a, b): the Python side's refusal; it raises, so NULL comes back. */
static int
refuse(PyObject *self, Py_ssize_t cell, long unplaced, long unknown)
{
    PyObject *result = PyObject_CallMethod(self, "_refuse", "nll", cell, unplaced, unknown);
    Py_XDECREF(result);
    return -1;
}

PyDoc_STRVAR(explore_doc,
"explore(explorer, move, adjacent, cell_states, /)\n--\n\n"
"Explorer.explore of mineshafted.solver.explore, compiled: the same loop over\n"
"the explorer's own state; ``cell_states`` is (UNKNOWN, SAFE, EXPLORED, MINE).");

static PyObject *
explore(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyTuple_CheckExact(args[3]) || PyTuple_GET_SIZE(args[3]) != 4) {
        PyErr_SetString(PyExc_TypeError, "explore() takes explorer, move, adjacent, states");
        return NULL;
    }
    PyObject *self = args[0], *move = args[1], *adjacent = args[2];
    PyObject *unknown = PyTuple_GET_ITEM(args[3], 0), *safe = PyTuple_GET_ITEM(args[3], 1);
    PyObject *explored = PyTuple_GET_ITEM(args[3], 2), *mined = PyTuple_GET_ITEM(args[3], 3);
    PyObject *knowledge = NULL, *queue_deque = NULL, *uncounted_deque = NULL, *facts = NULL;
    PyObject *state = NULL, *values = NULL, *rings = NULL, *around = NULL, *unknowns = NULL;
    PyObject *unplaced = NULL, *sums = NULL, *minus_one = NULL, *result = NULL;
    Stack queue = {0}, uncounted = {0}, orders = {0}, ripe = {0}, fresh = {0};
    char *order_mine = NULL;
    Py_ssize_t order_cap = 0, queue_head = 0, uncounted_head = 0;
    PyObject *taken = PyObject_CallMethod(self, "_take_journal", NULL);
    if (taken == NULL)
        return NULL;
    Py_DECREF(taken);
    knowledge = PyObject_GetAttrString(self, "knowledge");
    queue_deque = PyObject_GetAttrString(self, "_queue");
    uncounted_deque = PyObject_GetAttrString(self, "_uncounted");
    facts = PyObject_GetAttrString(self, "_facts");
    around = PyObject_GetAttrString(self, "_around");
    unknowns = PyObject_GetAttrString(self, "_unknown");
    unplaced = PyObject_GetAttrString(self, "_unplaced");
    sums = PyObject_GetAttrString(self, "_sums");
    if (knowledge == NULL || queue_deque == NULL || uncounted_deque == NULL || facts == NULL ||
        around == NULL || unknowns == NULL || unplaced == NULL || sums == NULL)
        goto done;
    state = PyObject_GetAttrString(knowledge, "state");
    values = PyObject_GetAttrString(knowledge, "values");
    rings = PyObject_GetAttrString(knowledge, "rings");
    minus_one = PyLong_FromLong(-1);
    if (state == NULL || values == NULL || rings == NULL || minus_one == NULL)
        goto done;
    if (!PyList_CheckExact(state) || !PyList_CheckExact(values) || !PyDict_CheckExact(rings) ||
        !PyList_CheckExact(around) || !PyList_CheckExact(unknowns) ||
        !PyList_CheckExact(unplaced) || !PyList_CheckExact(facts)) {
        PyErr_SetString(PyExc_TypeError, "explore(): not an Explorer of the expected shape");
        goto done;
    }
    Py_ssize_t cells = PyList_GET_SIZE(state);
    if (drain(queue_deque, &queue) < 0 || drain(uncounted_deque, &uncounted) < 0)
        goto done;
    for (;;) {
        if (uncounted_head < uncounted.n) {
            /* A decided cell: update the counts of the clues beside it. */
            PyObject *n = uncounted.items[uncounted_head++];
            Py_ssize_t cell = PyLong_AsSsize_t(n);
            PyObject *beside = PyList_GET_ITEM(around, cell);
            if (beside == Py_None)
                continue;
            Py_INCREF(beside);
            set_item(around, cell, Py_None);
            int is_mine = PyList_GET_ITEM(state, cell) == mined;
            PyObject *fact = PyTuple_Pack(2, n, is_mine ? Py_True : Py_False);
            if (fact == NULL || PyList_Append(facts, fact) < 0) {
                Py_XDECREF(fact);
                Py_DECREF(beside);
                goto done;
            }
            Py_DECREF(fact);
            Py_ssize_t size = PyList_GET_SIZE(beside);
            for (Py_ssize_t i = 0; i < size; i++) {
                PyObject *clue_cell = PyList_GET_ITEM(beside, i);
                Py_ssize_t at = PyLong_AsSsize_t(clue_cell);
                long left = item_long(unknowns, at) - 1;
                long need = item_long(unplaced, at) - (is_mine ? 1 : 0);
                if (set_long(unknowns, at, left) < 0 ||
                    (is_mine && set_long(unplaced, at, need) < 0)) {
                    Py_DECREF(beside);
                    goto done;
                }
                if (is_mine ? need <= 0 : (need >= left && need)) {
                    if (is_mine ? need < 0 : need > left) {
                        Py_DECREF(beside);
                        refuse(self, at, need, left);
                        goto done;
                    }
                    if ((!is_mine || left) && stack_push(&ripe, clue_cell) < 0) {
                        Py_DECREF(beside);
                        goto done;
                    }
                }
            }
            Py_DECREF(beside);
            continue;
        }
        if (orders.n || ripe.n) {
            /* Decide the unknown neighbours of a ripe clue. */
            PyObject *cells_of;
            int mine;
            if (orders.n) {
                cells_of = orders.items[--orders.n]; /* the stack's reference, now ours */
                mine = order_mine[orders.n];
            }
            else {
                PyObject *cell_obj = ripe.items[--ripe.n]; /* the stack's reference, now ours */
                Py_ssize_t cell = PyLong_AsSsize_t(cell_obj);
                long left = item_long(unknowns, cell), need = item_long(unplaced, cell);
                if (!left || (need && need != left)) {
                    Py_DECREF(cell_obj);
                    continue;
                }
                cells_of = PyDict_GetItemWithError(rings, cell_obj);
                Py_DECREF(cell_obj);
                if (cells_of == NULL) {
                    if (!PyErr_Occurred())
                        PyErr_SetString(PyExc_KeyError, "explore(): a clue without a ring");
                    goto done;
                }
                Py_INCREF(cells_of);
                mine = need > 0;
            }
            PyObject *fast = PySequence_Fast(cells_of, "cells");
            Py_DECREF(cells_of);
            if (fast == NULL)
                goto done;
            Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
            PyObject **items = PySequence_Fast_ITEMS(fast);
            for (Py_ssize_t i = 0; i < size; i++) {
                Py_ssize_t n = PyLong_AsSsize_t(items[i]);
                if (PyList_GET_ITEM(state, n) != unknown)
                    continue;
                set_item(state, n, mine ? mined : safe);
                if (mine)
                    set_item(values, n, minus_one);
                else if (stack_push(&queue, items[i]) < 0) {
                    Py_DECREF(fast);
                    goto done;
                }
                if (PyList_GET_ITEM(around, n) != Py_None && stack_push(&uncounted, items[i]) < 0) {
                    Py_DECREF(fast);
                    goto done;
                }
            }
            Py_DECREF(fast);
            continue;
        }
        if (queue_head == queue.n)
            break;
        /* Explore a safe cell and record its clue and its ring, both checked where cheap. */
        PyObject *cell_obj = queue.items[queue_head++];
        Py_ssize_t cell = PyLong_AsSsize_t(cell_obj);
        PyObject *clue = PyObject_CallOneArg(move, cell_obj);
        if (clue == NULL)
            goto done;
        if (!PyLong_CheckExact(clue)) {
            PyObject *checked = PyObject_CallMethod(self, "_clue", "OO", cell_obj, clue);
            Py_DECREF(clue);
            if (checked == NULL)
                goto done;
            clue = checked;
        }
        PyObject *listed = PyObject_CallOneArg(adjacent, cell_obj);
        if (listed == NULL) {
            Py_DECREF(clue);
            goto done;
        }
        PyObject *ring = PyList_CheckExact(listed)
                             ? PyList_AsTuple(listed)
                             : PyObject_CallMethod(self, "_read", "OO", cell_obj, listed);
        Py_DECREF(listed);
        if (ring == NULL) {
            Py_DECREF(clue);
            goto done;
        }
        /* sum(ring) against the true neighbours' sum */
        Py_ssize_t ring_size = PyTuple_GET_SIZE(ring);
        int plain_ints = 1;
        long long total = 0;
        for (Py_ssize_t i = 0; i < ring_size && plain_ints; i++) {
            PyObject *member = PyTuple_GET_ITEM(ring, i);
            int overflow = 0;
            if (!PyLong_CheckExact(member))
                plain_ints = 0;
            else {
                long long value = PyLong_AsLongLongAndOverflow(member, &overflow);
                if (overflow)
                    plain_ints = 0;
                total += value;
            }
        }
        PyObject *expected = PyObject_GetItem(sums, cell_obj);
        int equal = -1;
        if (expected != NULL) {
            if (plain_ints) {
                long long want = PyLong_AsLongLong(expected);
                equal = want == -1 && PyErr_Occurred() ? -1 : total == want;
            }
            else { /* what sum(ring) makes of it, or raises */
                PyObject *sum = PyDict_GetItemString(PyEval_GetBuiltins(), "sum");
                PyObject *summed = sum ? PyObject_CallOneArg(sum, ring) : NULL;
                equal = summed == NULL ? -1 : PyObject_RichCompareBool(summed, expected, Py_EQ);
                Py_XDECREF(summed);
            }
            Py_DECREF(expected);
        }
        if (equal <= 0) {
            if (equal == 0) {
                PyObject *fault = PyObject_CallMethod(self, "_fault", "OO", cell_obj, ring);
                Py_XDECREF(fault);
            }
            Py_DECREF(clue);
            Py_DECREF(ring);
            goto done;
        }
        set_item(state, cell, explored);
        set_item(values, cell, clue);
        if (PyDict_SetItem(rings, cell_obj, ring) < 0) {
            Py_DECREF(clue);
            Py_DECREF(ring);
            goto done;
        }
        long need = PyLong_AsLong(clue);
        Py_DECREF(clue);
        PyObject *unknown_cells = PyList_New(0);
        int fault = unknown_cells == NULL;
        for (Py_ssize_t i = 0; i < ring_size && !fault; i++) {
            PyObject *member = PyTuple_GET_ITEM(ring, i);
            Py_ssize_t n = PyLong_AsSsize_t(member);
            if (n == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                fault = 2;
                break;
            }
            if (n < 0)
                n += cells; /* a negative index, as Python's list indexing takes it */
            if (n < 0 || n >= cells) {
                fault = 2;
                break;
            }
            PyObject *seen = PyList_GET_ITEM(state, n);
            if (seen == unknown) {
                if (PyList_Append(unknown_cells, member) < 0)
                    fault = 1;
            }
            else if (seen == mined)
                need--;
        }
        if (fault) {
            if (fault == 2) {
                PyObject *raised = PyObject_CallMethod(self, "_fault", "OO", cell_obj, ring);
                Py_XDECREF(raised);
            }
            Py_XDECREF(unknown_cells);
            Py_DECREF(ring);
            goto done;
        }
        Py_DECREF(ring);
        long left = (long)PyList_GET_SIZE(unknown_cells);
        if (need == 0 || need == left) {
            if (orders.n == order_cap) {
                order_cap = order_cap ? 2 * order_cap : 64;
                char *grown = PyMem_Realloc(order_mine, (size_t)order_cap);
                if (grown == NULL) {
                    Py_DECREF(unknown_cells);
                    PyErr_NoMemory();
                    goto done;
                }
                order_mine = grown;
            }
            order_mine[orders.n] = need > 0;
            int pushed = stack_push(&orders, unknown_cells);
            Py_DECREF(unknown_cells);
            if (pushed < 0)
                goto done;
            continue;
        }
        if (!(0 < need && need < left)) {
            Py_DECREF(unknown_cells);
            refuse(self, cell, need, left);
            goto done;
        }
        for (Py_ssize_t i = 0; i < left; i++) {
            Py_ssize_t n = PyLong_AsSsize_t(PyList_GET_ITEM(unknown_cells, i));
            PyObject *beside = PyList_GET_ITEM(around, n);
            if (beside == Py_None) {
                PyObject *fresh_list = PyList_New(1);
                if (fresh_list == NULL) {
                    Py_DECREF(unknown_cells);
                    goto done;
                }
                Py_INCREF(cell_obj);
                PyList_SET_ITEM(fresh_list, 0, cell_obj);
                set_item(around, n, fresh_list);
                Py_DECREF(fresh_list);
            }
            else if (PyList_Append(beside, cell_obj) < 0) {
                Py_DECREF(unknown_cells);
                goto done;
            }
        }
        Py_DECREF(unknown_cells);
        if (set_long(unknowns, cell, left) < 0 || set_long(unplaced, cell, need) < 0 ||
            stack_push(&fresh, cell_obj) < 0)
            goto done;
    }
    result = PyList_New(0);
    for (Py_ssize_t i = 0; i < fresh.n && result != NULL; i++) {
        Py_ssize_t cell = PyLong_AsSsize_t(fresh.items[i]);
        if (item_long(unknowns, cell) && PyList_Append(result, fresh.items[i]) < 0)
            Py_CLEAR(result);
    }
done:
    if (result == NULL && queue_deque != NULL && uncounted_deque != NULL) {
        /* An error mid-loop: what was still waiting goes back where the Python loop keeps
         * it, the error kept. */
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        for (Py_ssize_t i = queue_head; i < queue.n; i++) {
            PyObject *r = PyObject_CallMethod(queue_deque, "append", "O", queue.items[i]);
            Py_XDECREF(r);
        }
        for (Py_ssize_t i = uncounted_head; i < uncounted.n; i++) {
            PyObject *r = PyObject_CallMethod(uncounted_deque, "append", "O", uncounted.items[i]);
            Py_XDECREF(r);
        }
        PyErr_Restore(type, value, traceback);
    }
    stack_clear(&queue, 0);
    stack_clear(&uncounted, 0);
    stack_clear(&orders, 0);
    stack_clear(&ripe, 0);
    stack_clear(&fresh, 0);
    PyMem_Free(order_mine);
    Py_XDECREF(knowledge);
    Py_XDECREF(queue_deque);
    Py_XDECREF(uncounted_deque);
    Py_XDECREF(facts);
    Py_XDECREF(state);
    Py_XDECREF(values);
    Py_XDECREF(rings);
    Py_XDECREF(around);
    Py_XDECREF(unknowns);
    Py_XDECREF(unplaced);
    Py_XDECREF(sums);
    Py_XDECREF(minus_one);
    return result;
}

/* ------------------------------------------------------------------------------------------
 * flood: a revealed zero's region, breadth-first (engine.py's Game._expand)
 * ---------------------------------------------------------------------------------------- */

PyDoc_STRVAR(flood_doc,
"flood(shown, flags, neighbours, values, zero, /)\n--\n\n"
"Game._expand of mineshafted.game.engine, compiled: show the zero region around the\n"
"shown ``zero`` in the list ``shown`` and return the cells shown, ``zero`` first, as\n"
"(cell, value) pairs in breadth-first order; flagged cells are passed over.");

static PyObject *
flood(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "flood() takes shown, flags, neighbours, values, zero");
        return NULL;
    }
    PyObject *shown = args[0], *flags = args[1], *neighbours = args[2], *values = args[3];
    if (!PyList_CheckExact(shown) || !PyAnySet_Check(flags) || !PyTuple_CheckExact(neighbours) ||
        !PyTuple_CheckExact(values)) {
        PyErr_SetString(PyExc_TypeError, "flood(): list, set, tuple, tuple, int expected");
        return NULL;
    }
    Py_ssize_t cells = PyList_GET_SIZE(shown);
    Py_ssize_t zero = PyLong_AsSsize_t(args[4]);
    if (zero == -1 && PyErr_Occurred())
        return NULL;
    if (PyTuple_GET_SIZE(neighbours) != cells || PyTuple_GET_SIZE(values) != cells || zero < 0 ||
        zero >= cells) {
        PyErr_SetString(PyExc_ValueError, "flood(): sizes differ, or zero is off the board");
        return NULL;
    }
    int check_flags = PySet_GET_SIZE(flags) > 0;
    Py_ssize_t *queue = PyMem_Malloc((size_t)cells * sizeof(Py_ssize_t));
    PyObject *opened = PyList_New(0);
    if (queue == NULL || opened == NULL) {
        PyMem_Free(queue);
        Py_XDECREF(opened);
        return PyErr_NoMemory();
    }
    PyObject *pair = PyTuple_Pack(2, args[4], PyTuple_GET_ITEM(values, zero));
    if (pair == NULL || PyList_Append(opened, pair) < 0)
        goto fail;
    Py_CLEAR(pair);
    Py_ssize_t head = 0, tail = 0;
    queue[tail++] = zero;
    while (head < tail) {
        PyObject *around = PyTuple_GET_ITEM(neighbours, queue[head++]);
        if (!PyTuple_CheckExact(around)) {
            PyErr_SetString(PyExc_TypeError, "flood(): a cell's neighbours are not a tuple");
            goto fail;
        }
        Py_ssize_t size = PyTuple_GET_SIZE(around);
        for (Py_ssize_t i = 0; i < size; i++) {
            PyObject *n = PyTuple_GET_ITEM(around, i);
            Py_ssize_t cell = PyLong_AsSsize_t(n);
            if (cell == -1 && PyErr_Occurred())
                goto fail;
            if (cell < 0 || cell >= cells) {
                PyErr_SetString(PyExc_ValueError, "flood(): a neighbour is off the board");
                goto fail;
            }
            if (PyList_GET_ITEM(shown, cell) != Py_None)
                continue;
            if (check_flags) {
                int flagged = PySet_Contains(flags, n);
                if (flagged < 0)
                    goto fail;
                if (flagged)
                    continue;
            }
            PyObject *value = PyTuple_GET_ITEM(values, cell);
            Py_INCREF(value);
            PyObject *old = PyList_GET_ITEM(shown, cell);
            PyList_SET_ITEM(shown, cell, value);
            Py_DECREF(old);
            pair = PyTuple_Pack(2, n, value);
            if (pair == NULL || PyList_Append(opened, pair) < 0)
                goto fail;
            Py_CLEAR(pair);
            int zero_value = PyLong_CheckExact(value) && PyLong_AsLong(value) == 0;
            if (zero_value)
                queue[tail++] = cell;
        }
    }
    PyMem_Free(queue);
    PyObject *result = PyList_AsTuple(opened);
    Py_DECREF(opened);
    return result;
fail:
    Py_XDECREF(pair);
    PyMem_Free(queue);
    Py_DECREF(opened);
    return NULL;
}

/* ------------------------------------------------------------------------------------------
 * cells: the cells in one state, ascending, and only those beside a clue when `around` is
 * given (the unknown cells of mineshafted.solver.sweep.Sweep.position;
 * mineshafted.solver.explore.Explorer.frontier)
 * ---------------------------------------------------------------------------------------- */

static PyObject *
cells(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "cells() takes states, state, around");
        return NULL;
    }
    PyObject *states = args[0], *state = args[1], *around = args[2];
    if (!PyList_CheckExact(states) ||
        (around != Py_None &&
         (!PyList_CheckExact(around) || PyList_GET_SIZE(around) != PyList_GET_SIZE(states))))
        Py_RETURN_NONE;
    PyObject *found = PyList_New(0);
    if (found == NULL)
        return NULL;
    for (Py_ssize_t c = 0; c < PyList_GET_SIZE(states); c++) {
        if (PyList_GET_ITEM(states, c) != state)
            continue;
        if (around != Py_None) {
            int beside = PyObject_IsTrue(PyList_GET_ITEM(around, c));
            if (beside < 0)
                goto fail;
            if (!beside)
                continue;
        }
        PyObject *cell = PyLong_FromSsize_t(c);
        if (cell == NULL || PyList_Append(found, cell) < 0) {
            Py_XDECREF(cell);
            goto fail;
        }
        Py_DECREF(cell);
    }
    return found;
fail:
    Py_DECREF(found);
    return NULL;
}

PyDoc_STRVAR(cells_doc,
"cells(states, state, around, /)\n--\n\n"
"The cells whose entry of ``states`` is ``state``, ascending; with ``around`` (a list as\n"
"long, or None), only those whose entry there is true: Explorer.frontier and the unknown\n"
"cells of Sweep.position, compiled. None when the input is not lists.");

PyDoc_STRVAR(endgame_doc,
"endgame(mined, shows, weights, placements, nodes, /)\n--\n\n"
"_Search(layout, nodes).root() of mineshafted.probability.endgame, compiled, given the\n"
"layout's mined, shows, weights and number of placements.\n\n"
"Returns (index, wins): the best first reveal's index among the layout's cells (-1 if\n"
"none) and its wins; an int, the sets remembered, when the search runs out of nodes; None\n"
"when the input is outside what this form searches (a weight of 64 bits or more).");

PyDoc_STRVAR(layout_doc,
"layout(cells, found, around, /)\n--\n\n"
"_Layout.of(cells, found, board)'s mined and shows, of mineshafted.probability.endgame,\n"
"compiled, given the board's neighbour table.\n\n"
"Returns (mined, shows); None when the input is outside what this form takes (more than\n"
"64 cells, a placement that is not an int below 2**64).");

PyDoc_STRVAR(regions_doc,
"regions(cells, around, components, /)\n--\n\n"
"regions(position, board) of mineshafted.probability.regions, compiled, given the position's\n"
"unknown cells, the board's neighbour table and the position's components.\n\n"
"Returns the regions as lists of cells; None when the input is outside what this form\n"
"takes (a cell that is not an int on the board, a scope that is not a tuple).");

PyDoc_STRVAR(revise_doc,
"revise(cell, fresh, variables, arcs, narrowed, /)\n--\n\n"
"One step of ClueCSP.propagate's AC-3 in mineshafted.solver.csp, compiled: the variable at\n"
"cell taken off the queue (fresh: its arcs out, else its arcs into it, arcs being its\n"
"adjacency dict) revised, narrowed called as the plain loop calls ClueCSP._narrowed.\n\n"
"Returns True when the step was taken; None when the input is outside what this form takes\n"
"(a scope of more than 16 cells), before anything changed.");

/* ------------------------------------------------------------------------------------------ */

static PyMethodDef methods[] = {
    {"count", (PyCFunction)(void (*)(void))count, METH_FASTCALL, count_doc},
    {"combine", (PyCFunction)(void (*)(void))combine, METH_FASTCALL, combine_doc},
    {"components", (PyCFunction)components, METH_O, components_doc},
    {"flood", (PyCFunction)(void (*)(void))flood, METH_FASTCALL, flood_doc},
    {"explore", (PyCFunction)(void (*)(void))explore, METH_FASTCALL, explore_doc},
    {"cells", (PyCFunction)(void (*)(void))cells, METH_FASTCALL, cells_doc},
    {"endgame", (PyCFunction)(void (*)(void))mineshafted_endgame, METH_FASTCALL, endgame_doc},
    {"layout", (PyCFunction)(void (*)(void))mineshafted_layout, METH_FASTCALL, layout_doc},
    {"regions", (PyCFunction)(void (*)(void))mineshafted_regions, METH_FASTCALL, regions_doc},
    {"revise", (PyCFunction)(void (*)(void))mineshafted_revise, METH_FASTCALL, revise_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "mineshafted.core._compiled",
    "The compiled core: C forms of the package's hot paths (see mineshafted.core).",
    0,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__compiled(void)
{
    fill_choose();
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "MAX_CELLS", MAX_CELLS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
