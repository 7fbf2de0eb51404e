/* The compiled core's endgame kernels: mineshafted.probability.endgame's search (_Search),
 * the layout it searches (_Layout.of), and mineshafted.probability.regions.regions, in C.
 *
 * The plain form is the specification; this file follows it step for step, because the
 * order of the search is observable: the node budget counts the sets of placements
 * remembered, so where the budget runs out, and which of two equally good cells is chosen,
 * depend on the order in which sets are searched and remembered. Read _Search first:
 *
 *   wins(subset)       a set of at most one placement weighs what it weighs; else the memo;
 *                      else (the budget reached: out of nodes) the first free reveal that
 *                      splits it (a cell a mine in none of its placements, showing more than
 *                      one clue among them) sums the wins of its parts; else the best reveal.
 *   best(subset)       the cells a mine in some placements and not others, safest first
 *                      (by the weight of the placements it is a mine in, then by index); a
 *                      cell whose safe placements weigh no more than the best so far ends the
 *                      scan; the first cell to do strictly better is kept.
 *   reveal(i, subset, floor)
 *                      the parts of subset by the clue cell i shows, their wins summed in
 *                      order; 0 as soon as what is left cannot beat floor.
 *
 * A set of placements is a bitset of `words` 64-bit words (bit j: placement j). Weights are
 * unsigned 64-bit and wins unsigned 128-bit: at most 5000 placements of weight below 2**64
 * sum to below 2**77. A weight that does not fit 64 bits, or a mask that does not fit the
 * placements, is not taken: the kernel answers None and the caller searches in Python.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_endgame.h"

typedef unsigned __int128 u128;

typedef struct {
    Py_ssize_t words;    /* 64-bit words a set of placements */
    Py_ssize_t cells;    /* the unknown cells */
    Py_ssize_t placements;
    uint64_t *mined;     /* cells rows: the placements where the cell is a mine */
    Py_ssize_t *first;   /* cells + 1 offsets into shows */
    uint64_t *shows;     /* per cell, per clue it may show: the placements showing it */
    Py_ssize_t most;     /* the most clues a cell may show */
    Py_ssize_t classes;  /* the weights' classes */
    uint64_t *masks;     /* classes rows: the placements of each weight */
    uint64_t *weights;   /* classes weights */
    int uniform;         /* one class holding every placement: a weight is a count times it */
    /* The memo: keys and wins in an arena, an open-addressing table of indices into it. */
    size_t nodes;        /* the budget */
    size_t used;         /* sets remembered */
    size_t capacity;     /* sets the arena holds */
    uint64_t *keys;      /* full width, zero outside their span */
    Py_ssize_t *spans;   /* two a key */
    u128 *values;
    size_t slots;        /* a power of two */
    int64_t *table;      /* -1: empty */
    int failed;          /* 1: out of nodes; -1: out of memory */
} Search;

/* The words [lo, hi) of a set hold all its bits, lo the first nonzero word and hi - 1 the
 * last (lo == hi: empty). A subset's span lies within its set's: deep in the search the sets
 * are small, and only their span is read. The words outside a span are not read. */
typedef struct {
    Py_ssize_t lo, hi;
} Span;

/* -- sets of placements ------------------------------------------------------------------ */

static inline int
at_most_one(const uint64_t *s, Span span)
{
    if (span.hi - span.lo > 1)
        return 0;
    return span.lo == span.hi || (s[span.lo] & (s[span.lo] - 1)) == 0;
}

/* Whether a & b is empty. */
static inline int
disjoint(const uint64_t *a, Span span, const uint64_t *b)
{
    for (Py_ssize_t k = span.lo; k < span.hi; k++)
        if (a[k] & b[k])
            return 0;
    return 1;
}

/* out = a & b (or a & ~b) over a's span; out's span. */
static inline Span
meet(uint64_t *out, const uint64_t *a, Span span, const uint64_t *b, int invert)
{
    Span found = {0, 0};
    Py_ssize_t last = -1;
    for (Py_ssize_t k = span.lo; k < span.hi; k++) {
        uint64_t w = a[k] & (invert ? ~b[k] : b[k]);
        out[k] = w;
        if (w) {
            if (last < 0)
                found.lo = k;
            last = k;
        }
    }
    if (last >= 0)
        found.hi = last + 1;
    return found;
}

/* _Layout.weight: the weight of the placements of s (of s & ~minus when minus is given). */
static u128
weight(const Search *S, const uint64_t *s, Span span, const uint64_t *minus)
{
    if (S->uniform) {
        uint64_t bits = 0;
        for (Py_ssize_t k = span.lo; k < span.hi; k++)
            bits += (uint64_t)__builtin_popcountll(minus ? s[k] & ~minus[k] : s[k]);
        return (u128)bits * S->weights[0];
    }
    u128 total = 0;
    for (Py_ssize_t c = 0; c < S->classes; c++) {
        const uint64_t *mask = S->masks + c * S->words;
        uint64_t bits = 0;
        for (Py_ssize_t k = span.lo; k < span.hi; k++) {
            uint64_t w = s[k] & mask[k];
            if (minus != NULL)
                w &= ~minus[k];
            bits += (uint64_t)__builtin_popcountll(w);
        }
        total += (u128)bits * S->weights[c];
    }
    return total;
}

/* -- the memo ---------------------------------------------------------------------------- */

static uint64_t
set_hash(const uint64_t *s, Span span)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)span.lo;
    for (Py_ssize_t k = span.lo; k < span.hi; k++) {
        h ^= s[k] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xFF51AFD7ED558CCDULL;
    }
    return h ^ (h >> 33);
}

static int64_t *
memo_slot(const Search *S, const uint64_t *s, Span span)
{
    size_t mask = S->slots - 1;
    size_t at = (size_t)set_hash(s, span) & mask;
    size_t bytes = (size_t)(span.hi - span.lo) * sizeof(uint64_t);
    while (S->table[at] >= 0) {
        size_t j = (size_t)S->table[at];
        if (S->spans[2 * j] == span.lo && S->spans[2 * j + 1] == span.hi &&
            memcmp(S->keys + j * (size_t)S->words + span.lo, s + span.lo, bytes) == 0)
            break;
        at = (at + 1) & mask;
    }
    return S->table + at;
}

static int
memo_get(const Search *S, const uint64_t *s, Span span, u128 *found)
{
    if (S->slots == 0)
        return 0;
    int64_t at = *memo_slot(S, s, span);
    if (at < 0)
        return 0;
    *found = S->values[at];
    return 1;
}

static int
memo_grow(Search *S)
{
    if (S->used == S->capacity) {
        size_t capacity = S->capacity ? 2 * S->capacity : 1024;
        uint64_t *keys = PyMem_Realloc(S->keys, capacity * (size_t)S->words * sizeof(uint64_t));
        if (keys == NULL)
            return -1;
        S->keys = keys;
        Py_ssize_t *spans = PyMem_Realloc(S->spans, 2 * capacity * sizeof(Py_ssize_t));
        if (spans == NULL)
            return -1;
        S->spans = spans;
        u128 *values = PyMem_Realloc(S->values, capacity * sizeof(u128));
        if (values == NULL)
            return -1;
        S->values = values;
        S->capacity = capacity;
    }
    if (2 * (S->used + 1) > S->slots) {
        size_t slots = S->slots ? 2 * S->slots : 2048;
        int64_t *table = PyMem_Malloc(slots * sizeof(int64_t));
        if (table == NULL)
            return -1;
        for (size_t i = 0; i < slots; i++)
            table[i] = -1;
        PyMem_Free(S->table);
        S->table = table;
        S->slots = slots;
        for (size_t j = 0; j < S->used; j++) {
            Span span = {S->spans[2 * j], S->spans[2 * j + 1]};
            *memo_slot(S, S->keys + j * (size_t)S->words, span) = (int64_t)j;
        }
    }
    return 0;
}

static void
memo_put(Search *S, const uint64_t *s, Span span, u128 value)
{
    if (memo_grow(S) < 0) {
        S->failed = -1;
        return;
    }
    uint64_t *key = S->keys + S->used * (size_t)S->words;
    memset(key, 0, (size_t)S->words * sizeof(uint64_t));
    memcpy(key + span.lo, s + span.lo, (size_t)(span.hi - span.lo) * sizeof(uint64_t));
    S->spans[2 * S->used] = span.lo;
    S->spans[2 * S->used + 1] = span.hi;
    S->values[S->used] = value;
    *memo_slot(S, s, span) = (int64_t)S->used;
    S->used++;
}

/* -- the search -------------------------------------------------------------------------- */

static u128 wins(Search *S, const uint64_t *subset, Span span);

/* The parts of subset by the clue cell i shows (nonempty ones, in order, with their
 * spans): how many. */
static Py_ssize_t
parts_of(const Search *S, Py_ssize_t i, const uint64_t *subset, Span span, uint64_t *parts,
         Span *spans)
{
    Py_ssize_t n = 0, words = S->words;
    for (Py_ssize_t m = S->first[i]; m < S->first[i + 1]; m++) {
        Span part = meet(parts + n * words, subset, span, S->shows + m * words, 0);
        if (part.lo < part.hi)
            spans[n++] = part;
    }
    return n;
}

/* _Search._reveal */
static u128
reveal(Search *S, Py_ssize_t i, const uint64_t *subset, Span span, u128 floor, uint64_t *parts)
{
    Span spans[S->most > 0 ? S->most : 1];
    u128 sizes[S->most > 0 ? S->most : 1];
    Py_ssize_t n = parts_of(S, i, subset, span, parts, spans), words = S->words;
    u128 room = 0, total = 0;
    for (Py_ssize_t p = 0; p < n; p++) {
        sizes[p] = weight(S, parts + p * words, spans[p], NULL);
        room += sizes[p];
    }
    for (Py_ssize_t p = 0; p < n; p++) {
        total += wins(S, parts + p * words, spans[p]);
        if (S->failed)
            return 0;
        room -= sizes[p];
        if (total + room <= floor)
            return 0;
    }
    return total;
}

typedef struct {
    u128 weight;
    Py_ssize_t cell;
} Ranked;

static int
ranked_order(const void *a, const void *b)
{
    const Ranked *x = a, *y = b;
    if (x->weight != y->weight)
        return x->weight < y->weight ? -1 : 1;
    return (x->cell > y->cell) - (x->cell < y->cell);
}

/* _Search._best: the cell (-1 if none) whose reveal wins most of subset, and its wins. */
static u128
best(Search *S, const uint64_t *subset, Span span, Py_ssize_t *best_cell)
{
    Py_ssize_t words = S->words, n = 0;
    Ranked *ranked = PyMem_Malloc((size_t)(S->cells ? S->cells : 1) * sizeof(Ranked));
    size_t rows = (size_t)(S->most > 1 ? S->most : 2);
    uint64_t *scratch = PyMem_Malloc(rows * (size_t)words * sizeof(uint64_t));
    u128 found = 0;
    *best_cell = -1;
    if (ranked == NULL || scratch == NULL) {
        S->failed = -1;
        goto done;
    }
    for (Py_ssize_t i = 0; i < S->cells; i++) { /* _by_safety */
        const uint64_t *mine = S->mined + i * words;
        Span hit = meet(scratch, subset, span, mine, 0);
        if (hit.lo == hit.hi)
            continue; /* a mine in none of subset's placements */
        Span safe = meet(scratch + words, subset, span, mine, 1);
        if (safe.lo == safe.hi)
            continue; /* a mine in all of them */
        ranked[n].weight = weight(S, scratch, hit, NULL);
        ranked[n].cell = i;
        n++;
    }
    qsort(ranked, (size_t)n, sizeof(Ranked), ranked_order);
    for (Py_ssize_t r = 0; r < n; r++) {
        Py_ssize_t i = ranked[r].cell;
        if (weight(S, subset, span, S->mined + i * words) <= found)
            break;
        u128 w = reveal(S, i, subset, span, found, scratch);
        if (S->failed)
            goto done;
        if (w > found) {
            found = w;
            *best_cell = i;
        }
    }
done:
    PyMem_Free(ranked);
    PyMem_Free(scratch);
    return found;
}

/* _Search.wins */
static u128
wins(Search *S, const uint64_t *subset, Span span)
{
    Py_ssize_t words = S->words;
    if (at_most_one(subset, span))
        return weight(S, subset, span, NULL);
    u128 found;
    if (memo_get(S, subset, span, &found))
        return found;
    if (S->used >= S->nodes) {
        S->failed = 1;
        return 0;
    }
    size_t rows = (size_t)(S->most > 0 ? S->most : 1);
    uint64_t *parts = PyMem_Malloc(rows * (size_t)words * sizeof(uint64_t));
    Span spans[rows];
    if (parts == NULL) {
        S->failed = -1;
        return 0;
    }
    for (Py_ssize_t i = 0; i < S->cells; i++) {
        if (!disjoint(subset, span, S->mined + i * words))
            continue;
        Py_ssize_t n = parts_of(S, i, subset, span, parts, spans);
        if (n > 1) {
            u128 total = 0;
            for (Py_ssize_t p = 0; p < n; p++) {
                total += wins(S, parts + p * words, spans[p]);
                if (S->failed) {
                    PyMem_Free(parts);
                    return 0;
                }
            }
            PyMem_Free(parts);
            memo_put(S, subset, span, total);
            return total;
        }
    }
    PyMem_Free(parts);
    Py_ssize_t cell;
    found = best(S, subset, span, &cell);
    if (S->failed)
        return 0;
    memo_put(S, subset, span, found);
    return found;
}

/* -- from and to Python ------------------------------------------------------------------ */

/* A nonnegative int below 2**(64 * words) into words; 0 done, 1 not taken, -1 an error. */
static int
read_set(PyObject *value, uint64_t *out, Py_ssize_t words)
{
    if (!PyLong_CheckExact(value))
        return 1;
    PyObject *bytes = PyObject_CallMethod(value, "to_bytes", "ns", words * 8, "little");
    if (bytes == NULL) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) { /* negative, or too wide */
            PyErr_Clear();
            return 1;
        }
        return -1;
    }
    const unsigned char *raw = (const unsigned char *)PyBytes_AS_STRING(bytes);
    for (Py_ssize_t k = 0; k < words; k++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--)
            w = (w << 8) | raw[k * 8 + b];
        out[k] = w;
    }
    Py_DECREF(bytes);
    return 0;
}

static PyObject *
wide_long(u128 value)
{
    uint64_t high = (uint64_t)(value >> 64);
    if (high == 0)
        return PyLong_FromUnsignedLongLong((unsigned long long)value);
    PyObject *top = PyLong_FromUnsignedLongLong(high);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *bottom = PyLong_FromUnsignedLongLong((unsigned long long)(uint64_t)value);
    PyObject *shifted = NULL, *result = NULL;
    if (top && shift && bottom)
        shifted = PyNumber_Lshift(top, shift);
    if (shifted)
        result = PyNumber_Or(shifted, bottom);
    Py_XDECREF(top);
    Py_XDECREF(shift);
    Py_XDECREF(bottom);
    Py_XDECREF(shifted);
    return result;
}

static void
search_free(Search *S)
{
    PyMem_Free(S->mined);
    PyMem_Free(S->first);
    PyMem_Free(S->shows);
    PyMem_Free(S->masks);
    PyMem_Free(S->weights);
    PyMem_Free(S->keys);
    PyMem_Free(S->spans);
    PyMem_Free(S->values);
    PyMem_Free(S->table);
}

/* Fill S from the layout's mined, shows and weights; 0 done, 1 not taken, -1 an error. */
static int
search_read(Search *S, PyObject *mined, PyObject *shows, PyObject *weights)
{
    Py_ssize_t words = S->words, cells = S->cells, total = 0;
    for (Py_ssize_t i = 0; i < cells; i++) {
        PyObject *clues = PyTuple_GET_ITEM(shows, i);
        if (!PyTuple_CheckExact(clues))
            return 1;
        Py_ssize_t n = PyTuple_GET_SIZE(clues);
        total += n;
        if (n > S->most)
            S->most = n;
    }
    S->classes = PyTuple_GET_SIZE(weights);
    S->mined = PyMem_Calloc((size_t)(cells ? cells : 1) * (size_t)words, sizeof(uint64_t));
    S->first = PyMem_Calloc((size_t)cells + 1, sizeof(Py_ssize_t));
    S->shows = PyMem_Calloc((size_t)(total ? total : 1) * (size_t)words, sizeof(uint64_t));
    S->masks = PyMem_Calloc((size_t)(S->classes ? S->classes : 1) * (size_t)words, sizeof(uint64_t));
    S->weights = PyMem_Calloc((size_t)(S->classes ? S->classes : 1), sizeof(uint64_t));
    if (!S->mined || !S->first || !S->shows || !S->masks || !S->weights) {
        PyErr_NoMemory();
        return -1;
    }
    int status;
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < cells; i++) {
        if ((status = read_set(PyTuple_GET_ITEM(mined, i), S->mined + i * words, words)))
            return status;
        PyObject *clues = PyTuple_GET_ITEM(shows, i);
        S->first[i] = m;
        for (Py_ssize_t c = 0; c < PyTuple_GET_SIZE(clues); c++, m++)
            if ((status = read_set(PyTuple_GET_ITEM(clues, c), S->shows + m * words, words)))
                return status;
    }
    S->first[cells] = m;
    for (Py_ssize_t c = 0; c < S->classes; c++) {
        PyObject *pair = PyTuple_GET_ITEM(weights, c);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2)
            return 1;
        if ((status = read_set(PyTuple_GET_ITEM(pair, 0), S->masks + c * words, words)))
            return status;
        PyObject *w = PyTuple_GET_ITEM(pair, 1);
        if (!PyLong_CheckExact(w))
            return 1;
        unsigned long long value = PyLong_AsUnsignedLongLong(w);
        if (value == (unsigned long long)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError))
                return -1;
            PyErr_Clear(); /* negative, or 64 bits and more: not taken */
            return 1;
        }
        S->weights[c] = (uint64_t)value;
    }
    if (S->classes == 1) { /* uniform when its one class holds every placement */
        uint64_t bits = 0;
        for (Py_ssize_t k = 0; k < words; k++)
            bits += (uint64_t)__builtin_popcountll(S->masks[k]);
        S->uniform = (Py_ssize_t)bits == S->placements;
    }
    return 0;
}

PyObject *
mineshafted_endgame(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "endgame() takes mined, shows, weights, placements, nodes");
        return NULL;
    }
    PyObject *mined = args[0], *shows = args[1], *weights = args[2];
    if (!PyTuple_CheckExact(mined) || !PyTuple_CheckExact(shows) ||
        !PyTuple_CheckExact(weights) || PyTuple_GET_SIZE(shows) != PyTuple_GET_SIZE(mined))
        Py_RETURN_NONE;
    Py_ssize_t placements = PyLong_AsSsize_t(args[3]);
    Py_ssize_t nodes = PyLong_AsSsize_t(args[4]);
    if ((placements == -1 || nodes == -1) && PyErr_Occurred())
        return NULL;
    if (placements < 0 || nodes < 0)
        Py_RETURN_NONE;
    Search S;
    memset(&S, 0, sizeof(S));
    S.words = placements > 0 ? (placements + 63) / 64 : 1;
    S.cells = PyTuple_GET_SIZE(mined);
    S.placements = placements;
    S.nodes = (size_t)nodes;
    int status = search_read(&S, mined, shows, weights);
    uint64_t *everything = PyMem_Calloc((size_t)S.words, sizeof(uint64_t));
    PyObject *result = NULL;
    if (status < 0 || everything == NULL) {
        if (everything == NULL && status >= 0)
            PyErr_NoMemory();
        goto done;
    }
    if (status > 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    for (Py_ssize_t j = 0; j < placements; j++)
        everything[j / 64] |= (uint64_t)1 << (j % 64);
    Py_ssize_t cell;
    Span all = {0, placements > 0 ? S.words : 0};
    u128 found = best(&S, everything, all, &cell); /* _Search.root */
    if (S.failed < 0)
        PyErr_NoMemory();
    else if (S.failed > 0)
        result = PyLong_FromSize_t(S.used);
    else {
        PyObject *total = wide_long(found);
        if (total != NULL)
            result = Py_BuildValue("(nN)", cell, total);
    }
done:
    PyMem_Free(everything);
    search_free(&S);
    return result;
}

/* ------------------------------------------------------------------------------------------
 * regions: mineshafted.probability.regions.regions, the isolated regions of a position
 *
 * The plain form searches outward from each unknown cell not yet reached; here a union-find
 * links the same pairs (an unknown cell and each unknown neighbour; the unknown cells of each
 * constraint's scope). The answer does not depend on the order of linking: each region is
 * sorted, and the regions come in the order of their first cell in `cells`, as there.
 * ---------------------------------------------------------------------------------------- */

static Py_ssize_t
root_of(Py_ssize_t *parent, Py_ssize_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void
join_cells(Py_ssize_t *parent, Py_ssize_t a, Py_ssize_t b)
{
    a = root_of(parent, a);
    b = root_of(parent, b);
    if (a != b)
        parent[a < b ? b : a] = a < b ? a : b;
}

/* A cell index below `board`, or -1 (not taken). */
static Py_ssize_t
cell_of(PyObject *value, Py_ssize_t board)
{
    if (!PyLong_CheckExact(value))
        return -1;
    Py_ssize_t cell = PyLong_AsSsize_t(value);
    if (cell == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return cell >= 0 && cell < board ? cell : -1;
}

/* Link the unknown cells of every scope of components; 0 done, 1 not taken. */
static int
link_scopes(Py_ssize_t *parent, const char *unknown, PyObject *components, Py_ssize_t board)
{
    for (Py_ssize_t c = 0; c < PyList_GET_SIZE(components); c++) {
        PyObject *component = PyList_GET_ITEM(components, c);
        if (!PyList_CheckExact(component))
            return 1;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(component); k++) {
            PyObject *constraint = PyList_GET_ITEM(component, k);
            if (!PyTuple_CheckExact(constraint) || PyTuple_GET_SIZE(constraint) != 2)
                return 1;
            PyObject *scope = PyTuple_GET_ITEM(constraint, 0);
            if (!PyTuple_CheckExact(scope))
                return 1;
            Py_ssize_t first = -1;
            for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(scope); s++) {
                Py_ssize_t cell = cell_of(PyTuple_GET_ITEM(scope, s), board);
                if (cell < 0)
                    return 1;
                if (!unknown[cell])
                    continue;
                if (first < 0)
                    first = cell;
                else
                    join_cells(parent, first, cell);
            }
        }
    }
    return 0;
}

/* Link every unknown cell to its unknown neighbours; 0 done, 1 not taken. */
static int
link_neighbours(Py_ssize_t *parent, const char *unknown, PyObject *cells, PyObject *around)
{
    Py_ssize_t board = PyTuple_GET_SIZE(around);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(cells); i++) {
        Py_ssize_t cell = cell_of(PyList_GET_ITEM(cells, i), board);
        PyObject *ring = PyTuple_GET_ITEM(around, cell);
        if (!PyTuple_CheckExact(ring))
            return 1;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(ring); k++) {
            Py_ssize_t n = cell_of(PyTuple_GET_ITEM(ring, k), board);
            if (n < 0)
                return 1;
            if (unknown[n])
                join_cells(parent, cell, n);
        }
    }
    return 0;
}

static int
cell_order(const void *a, const void *b)
{
    Py_ssize_t x = *(const Py_ssize_t *)a, y = *(const Py_ssize_t *)b;
    return (x > y) - (x < y);
}

/* The regions, each sorted, in the order of their first cell in cells. */
static PyObject *
regions_found(Py_ssize_t *parent, char *unknown, PyObject *cells, Py_ssize_t board)
{
    Py_ssize_t n = PyList_GET_SIZE(cells);
    Py_ssize_t *slot = PyMem_Malloc((size_t)(board ? board : 1) * sizeof(Py_ssize_t)); /* root -> region */
    Py_ssize_t *size = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Py_ssize_t));
    Py_ssize_t *start = PyMem_Calloc((size_t)(n + 1), sizeof(Py_ssize_t));
    Py_ssize_t *order = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(Py_ssize_t));
    Py_ssize_t *home = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(Py_ssize_t));
    PyObject *found = NULL;
    if (!slot || !size || !start || !order || !home) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c = 0; c < board; c++)
        slot[c] = -1;
    Py_ssize_t made = 0, kept = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t cell = PyLong_AsSsize_t(PyList_GET_ITEM(cells, i));
        if (!unknown[cell]) /* listed twice: once is enough */
            continue;
        unknown[cell] = 0;
        Py_ssize_t root = root_of(parent, cell);
        if (slot[root] < 0) /* first sight of this region */
            slot[root] = made++;
        Py_ssize_t region = slot[root];
        home[kept] = region;
        order[kept++] = cell;
        size[region]++;
    }
    for (Py_ssize_t r = 0; r < made; r++)
        start[r + 1] = start[r] + size[r];
    Py_ssize_t *sorted = PyMem_Malloc((size_t)(kept ? kept : 1) * sizeof(Py_ssize_t));
    if (sorted == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    memset(size, 0, (size_t)(n ? n : 1) * sizeof(Py_ssize_t));
    for (Py_ssize_t i = 0; i < kept; i++)
        sorted[start[home[i]] + size[home[i]]++] = order[i];
    found = PyList_New(made);
    for (Py_ssize_t r = 0; found != NULL && r < made; r++) {
        Py_ssize_t width = start[r + 1] - start[r];
        qsort(sorted + start[r], (size_t)width, sizeof(Py_ssize_t), cell_order);
        PyObject *region = PyList_New(width);
        if (region == NULL) {
            Py_CLEAR(found);
            break;
        }
        PyList_SET_ITEM(found, r, region);
        for (Py_ssize_t k = 0; k < width; k++) {
            PyObject *cell = PyLong_FromSsize_t(sorted[start[r] + k]);
            if (cell == NULL) {
                Py_CLEAR(found);
                break;
            }
            PyList_SET_ITEM(region, k, cell);
        }
    }
    PyMem_Free(sorted);
done:
    PyMem_Free(slot);
    PyMem_Free(size);
    PyMem_Free(start);
    PyMem_Free(order);
    PyMem_Free(home);
    return found;
}

PyObject *
mineshafted_regions(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "regions() takes cells, around, components");
        return NULL;
    }
    PyObject *cells = args[0], *around = args[1], *components = args[2];
    if (!PyList_CheckExact(cells) || !PyTuple_CheckExact(around) ||
        !PyList_CheckExact(components))
        Py_RETURN_NONE;
    Py_ssize_t board = PyTuple_GET_SIZE(around);
    Py_ssize_t *parent = PyMem_Malloc((size_t)(board ? board : 1) * sizeof(Py_ssize_t));
    char *unknown = PyMem_Calloc((size_t)(board ? board : 1), 1);
    PyObject *result = NULL;
    if (parent == NULL || unknown == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < board; i++)
        parent[i] = i;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(cells); i++) {
        Py_ssize_t cell = cell_of(PyList_GET_ITEM(cells, i), board);
        if (cell < 0) {
            result = Py_NewRef(Py_None);
            goto done;
        }
        unknown[cell] = 1;
    }
    if (link_neighbours(parent, unknown, cells, around) ||
        link_scopes(parent, unknown, components, board)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    result = regions_found(parent, unknown, cells, board);
done:
    PyMem_Free(parent);
    PyMem_Free(unknown);
    return result;
}

/* ------------------------------------------------------------------------------------------
 * layout: mineshafted.probability.endgame._Layout.of, the masks the search reads
 *
 * For each unknown cell: the placements where it is a mine, and, for each clue it may show
 * (by ascending clue, the empty ones left out), the placements where it is safe and shows
 * it; and the placements of each weight. The same loops as the plain form, on 64-bit masks
 * of the cells (at most 64 cells, else not taken) and bitsets of the placements.
 * ---------------------------------------------------------------------------------------- */

/* The bitset set (of words words) as a Python int. */
static PyObject *
set_long(const uint64_t *set, Py_ssize_t words, unsigned char *bytes)
{
    for (Py_ssize_t k = 0; k < words; k++)
        for (int b = 0; b < 8; b++)
            bytes[k * 8 + b] = (unsigned char)(set[k] >> (8 * b));
    return PyObject_CallMethod((PyObject *)&PyLong_Type, "from_bytes", "y#s", (const char *)bytes,
                               words * 8, "little");
}

/* The placements found as 64-bit masks; 0 done, 1 not taken. */
static int
read_found(PyObject *found, uint64_t *out)
{
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(found); j++) {
        PyObject *p = PyTuple_GET_ITEM(found, j);
        if (!PyLong_CheckExact(p))
            return 1;
        unsigned long long value = PyLong_AsUnsignedLongLong(p);
        if (value == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 1;
        }
        out[j] = (uint64_t)value;
    }
    return 0;
}

/* Each cell's neighbours among cells, as a mask over cells; 0 done, 1 not taken. */
static int
read_near(PyObject *cells, PyObject *around, uint64_t *near)
{
    Py_ssize_t board = PyTuple_GET_SIZE(around), n = PyTuple_GET_SIZE(cells);
    Py_ssize_t *index = PyMem_Malloc((size_t)(board ? board : 1) * sizeof(Py_ssize_t));
    if (index == NULL)
        return -1;
    int status = 0;
    for (Py_ssize_t c = 0; c < board; c++)
        index[c] = -1;
    for (Py_ssize_t i = 0; i < n && !status; i++) {
        Py_ssize_t cell = cell_of(PyTuple_GET_ITEM(cells, i), board);
        if (cell < 0 || index[cell] >= 0) /* off the board, or listed twice */
            status = 1;
        else
            index[cell] = i;
    }
    for (Py_ssize_t i = 0; i < n && !status; i++) {
        PyObject *ring = PyTuple_GET_ITEM(around, PyLong_AsSsize_t(PyTuple_GET_ITEM(cells, i)));
        near[i] = 0;
        if (!PyTuple_CheckExact(ring)) {
            status = 1;
            break;
        }
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(ring); k++) {
            Py_ssize_t m = cell_of(PyTuple_GET_ITEM(ring, k), board);
            if (m < 0) {
                status = 1;
                break;
            }
            if (index[m] >= 0)
                near[i] |= (uint64_t)1 << index[m];
        }
    }
    PyMem_Free(index);
    return status;
}

/* One cell's mined and shows, as the plain loop over the placements makes them. */
static PyObject *
cell_masks(const uint64_t *found, Py_ssize_t placements, Py_ssize_t i, uint64_t near,
           uint64_t *sets, Py_ssize_t words, unsigned char *bytes, PyObject **mined)
{
    memset(sets, 0, 10 * (size_t)words * sizeof(uint64_t)); /* mined, then 9 clues */
    uint64_t bit = (uint64_t)1 << i;
    for (Py_ssize_t j = 0; j < placements; j++) {
        uint64_t p = found[j];
        int row = (p & bit) ? 0 : 1 + __builtin_popcountll(p & near);
        sets[row * words + j / 64] |= (uint64_t)1 << (j % 64);
    }
    *mined = set_long(sets, words, bytes);
    if (*mined == NULL)
        return NULL;
    PyObject *shows = PyList_New(0);
    for (int v = 1; shows != NULL && v < 10; v++) {
        const uint64_t *set = sets + v * words;
        int any = 0;
        for (Py_ssize_t k = 0; k < words; k++)
            any |= set[k] != 0;
        if (!any)
            continue;
        PyObject *mask = set_long(set, words, bytes);
        if (mask == NULL || PyList_Append(shows, mask) < 0)
            Py_CLEAR(shows);
        Py_XDECREF(mask);
    }
    PyObject *result = shows ? PyList_AsTuple(shows) : NULL;
    Py_XDECREF(shows);
    if (result == NULL)
        Py_CLEAR(*mined);
    return result;
}

PyObject *
mineshafted_layout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "layout() takes cells, found, around");
        return NULL;
    }
    PyObject *cells = args[0], *found = args[1], *around = args[2];
    if (!PyTuple_CheckExact(cells) || !PyTuple_CheckExact(found) || !PyTuple_CheckExact(around) ||
        PyTuple_GET_SIZE(cells) > 64)
        Py_RETURN_NONE;
    Py_ssize_t n = PyTuple_GET_SIZE(cells), placements = PyTuple_GET_SIZE(found);
    Py_ssize_t words = placements > 0 ? (placements + 63) / 64 : 1;
    uint64_t *masks = PyMem_Malloc((size_t)(placements ? placements : 1) * sizeof(uint64_t));
    uint64_t *near = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(uint64_t));
    uint64_t *sets = PyMem_Malloc(10 * (size_t)words * sizeof(uint64_t));
    unsigned char *bytes = PyMem_Malloc((size_t)words * 8);
    PyObject *mined = NULL, *shows = NULL, *result = NULL;
    if (!masks || !near || !sets || !bytes) {
        PyErr_NoMemory();
        goto done;
    }
    int status = read_found(found, masks);
    if (!status)
        status = read_near(cells, around, near);
    if (status) {
        if (status > 0)
            result = Py_NewRef(Py_None);
        goto done;
    }
    mined = PyTuple_New(n);
    shows = PyTuple_New(n);
    for (Py_ssize_t i = 0; mined != NULL && shows != NULL && i < n; i++) {
        PyObject *mine;
        PyObject *clues = cell_masks(masks, placements, i, near[i], sets, words, bytes, &mine);
        if (clues == NULL)
            goto done;
        PyTuple_SET_ITEM(mined, i, mine);
        PyTuple_SET_ITEM(shows, i, clues);
    }
    if (mined != NULL && shows != NULL)
        result = PyTuple_Pack(2, mined, shows);
done:
    Py_XDECREF(mined);
    Py_XDECREF(shows);
    PyMem_Free(masks);
    PyMem_Free(near);
    PyMem_Free(sets);
    PyMem_Free(bytes);
    return result;
}
