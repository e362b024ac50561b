/* W&B history rows in C: a HistoryPage's rows as each metric's points in one pass (tools/sources/wandb_history.py).
   #included from _kernel.c (parse_field, slow_double, grow, hash_bytes are its statics); not a translation unit of
   its own.

   history_rows(lines, after_step) -> (kinds, steps, names, first, points)

   `lines` is a list; each item one row as W&B returns it, the text of one JSON object. A row is read here when it is
   a flat object of RFC 8259's grammar, "{" first and nothing but JSON whitespace after its "}", whose keys hold no
   backslash or control byte and appear once, whose "_step" is an integer literal of at most 18 digits, and whose
   values are numbers (integer literals of at most 300 digits), NaN, Infinity, -Infinity, null, true, false or
   strings of printable ASCII without a backslash; any other item (not a str, nested, escapes, a float or no-number
   "_step", a repeated key, JSON that Python would refuse) is left to Python (kind H_SLOW), which reads it as the
   row-by-row pass does. The values are the row-by-row pass's (wandb_api._add_rows / row_value): a number is its
   float (an integer literal as float(int) makes it: "-0" is +0.0), NaN/Infinity/-Infinity theirs, a string a point
   only when, stripped and lowercased, it is one of nan, -nan, inf, infinity, +infinity, -inf, -infinity; null, true,
   false and any other string no point. Keys starting with "_", "system/" or "system." are no metrics.

   kinds: uint8 per item: H_TAKEN (its step > after_step: its points taken), H_OLD (step <= after_step), H_NOSTEP (a
   row without "_step": skipped), H_SLOW. steps: int64 per item (H_TAKEN, H_OLD). names: the metrics with a point,
   in the order the row-by-row pass names them (the first row with a point of the key, then its place in that row);
   first: int64 (item, place) per name; points: (items: bytes int64, values: bytes float64) per name, in item order.

   GIL released for the scan (the items are held by a tuple of their own). Time O(bytes + cells), memory O(cells +
   keys); at most H_MAX_KEYS distinct metric keys (a row bringing one more is Python's, which refuses past
   limits.MAX_METRICS). */

enum { H_TAKEN = 0, H_OLD = 1, H_NOSTEP = 2, H_SLOW = 3 };
#define H_MAX_KEYS 4096

typedef struct {
    const unsigned char *p; /* the key's bytes (in an item's UTF-8, alive while the items are held) */
    size_t n;
    uint64_t h;
    int64_t seen;           /* the last row that had it (a repeat in one row: the row is Python's) */
    int64_t named;          /* its place among the names, -1 before its first point */
    int64_t first_row, first_pos;
    int64_t *rows;
    double *vals;
    size_t np, cap;
} HKey;

typedef struct {
    size_t key;             /* HKey index, or SIZE_MAX for a key that is no metric */
    int has;                /* a point */
    int slow;               /* the number needs float() (with the GIL) */
    double v;
    size_t a, b;            /* the number's text (slow) */
    int64_t pos;
} HCell;

typedef struct {
    size_t n;
    const unsigned char **text;
    Py_ssize_t *len;        /* -1: no str (or no UTF-8): the item is Python's */
    int64_t after;
    unsigned char *kinds;
    int64_t *steps;
    HKey *keys;
    size_t k, k_cap;
    int64_t *slots;         /* key index + 1, 0 empty; a power of two */
    size_t n_slots;
    size_t *order;          /* names: key indices */
    size_t n_named, order_cap;
    HCell *cells;           /* the row being read */
    size_t c_cap;
    size_t *prev;           /* the key index at each place of the row before (a hint) */
    size_t p_cap, p_n;
    Slow *slow;             /* numbers float() reads: cell = key index, start/end into text[row]; row below */
    int64_t *slow_row;
    size_t *slow_at;        /* the point's index in the key's arrays */
    size_t n_slow, slow_cap, slow_row_cap, slow_at_cap;
    int nomem;
} HJob;

static inline int
h_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* the key d[a:b]'s index (a new one when unseen): SIZE_MAX - 1 when there are too many, SIZE_MAX - 2 out of memory */
static size_t
h_key(HJob *j, const unsigned char *d, size_t a, size_t b, size_t place)
{
    size_t n = b - a;
    if (place < j->p_n) {
        size_t hint = j->prev[place];
        if (hint < j->k && j->keys[hint].n == n && memcmp(j->keys[hint].p, d + a, n) == 0)
            return hint;
    }
    uint64_t h = hash_bytes(d + a, n);
    if (j->n_slots == 0 || 2 * (j->k + 1) > j->n_slots) {
        size_t ns = j->n_slots ? 2 * j->n_slots : 64;
        int64_t *s = calloc(ns, sizeof(int64_t));
        if (s == NULL)
            return SIZE_MAX - 2;
        for (size_t t = 0; t < j->k; t++) {
            size_t at = (size_t)j->keys[t].h & (ns - 1);
            while (s[at])
                at = (at + 1) & (ns - 1);
            s[at] = (int64_t)t + 1;
        }
        free(j->slots);
        j->slots = s;
        j->n_slots = ns;
    }
    size_t at = (size_t)h & (j->n_slots - 1);
    while (j->slots[at]) {
        HKey *k = &j->keys[j->slots[at] - 1];
        if (k->h == h && k->n == n && memcmp(k->p, d + a, n) == 0)
            return (size_t)(j->slots[at] - 1);
        at = (at + 1) & (j->n_slots - 1);
    }
    if (j->k >= H_MAX_KEYS)
        return SIZE_MAX - 1;
    if (grow((void **)&j->keys, &j->k_cap, j->k + 1, sizeof(HKey)))
        return SIZE_MAX - 2;
    j->keys[j->k] = (HKey){d + a, n, h, -1, -1, 0, 0, NULL, NULL, 0, 0};
    j->slots[at] = (int64_t)j->k + 1;
    return j->k++;
}

/* whether the ASCII string d[a:b], stripped of spaces and lowercased, is one of row_value's non-finite spellings:
   its value in *v */
static int
h_nonfinite(const unsigned char *d, size_t a, size_t b, double *v)
{
    while (a < b && d[a] == ' ')
        a++;
    while (b > a && d[b - 1] == ' ')
        b--;
    int sign = 0;
    if (a < b && (d[a] == '-' || d[a] == '+'))
        sign = d[a++] == '-' ? -1 : 1;
    size_t n = b - a;
    const char *word = n == 3 ? ((d[a] | 0x20) == 'n' ? "nan" : "inf") : n == 8 ? "infinity" : NULL;
    if (word == NULL)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((d[a + i] | 0x20) != word[i])
            return 0;
    if (word[0] == 'n') { /* nan, -nan (not +nan) */
        if (sign > 0)
            return 0;
        *v = Py_NAN;
        return 1;
    }
    if (sign > 0 && n == 3) /* +inf is no spelling row_value knows; +infinity is */
        return 0;
    *v = sign < 0 ? -Py_HUGE_VAL : Py_HUGE_VAL;
    return 1;
}

/* row r (d[0:n]) read into j->cells: its kind */
static int
h_row(HJob *j, size_t r, const unsigned char *d, size_t n)
{
    size_t i = 0, c = 0;
    int has_step = 0;
    int64_t step = 0;
#define WS() while (i < n && h_ws(d[i])) i++
    if (n == 0 || d[0] != '{')
        return H_SLOW;
    i = 1;
    WS();
    if (i < n && d[i] == '}') {
        i++;
        goto end;
    }
    for (;; c++) {
        if (i >= n || d[i] != '"')
            return H_SLOW;
        size_t ka = ++i;
        while (i < n && d[i] != '"') {
            if (d[i] < 0x20 || d[i] == '\\')
                return H_SLOW;
            i++;
        }
        if (i >= n)
            return H_SLOW;
        size_t kb = i++;
        WS();
        if (i >= n || d[i] != ':')
            return H_SLOW;
        i++;
        WS();
        if (i >= n)
            return H_SLOW;
        int is_step = kb - ka == 5 && memcmp(d + ka, "_step", 5) == 0;
        int metric = !(d[ka] == '_' || (kb - ka >= 7 && memcmp(d + ka, "system", 6) == 0 && (d[ka + 6] == '/' ||
                                                                                             d[ka + 6] == '.')));
        if (kb == ka)
            metric = 1; /* the empty key is a metric name like any */
        HCell cell = {SIZE_MAX, 0, 0, 0.0, 0, 0, (int64_t)c};
        unsigned char ch = d[i];
        if (ch == '"') {
            size_t a = ++i;
            while (i < n && d[i] != '"') {
                if (d[i] < 0x20 || d[i] >= 0x7F || d[i] == '\\')
                    return H_SLOW;
                i++;
            }
            if (i >= n || is_step)
                return H_SLOW;
            cell.has = h_nonfinite(d, a, i, &cell.v);
            i++;
        } else if (ch == 'n' || ch == 't' || ch == 'f') {
            const char *word = ch == 'n' ? "null" : ch == 't' ? "true" : "false";
            size_t wl = ch == 'f' ? 5 : 4;
            if (n - i < wl || memcmp(d + i, word, wl) != 0 || is_step)
                return H_SLOW;
            i += wl;
        } else if (ch == 'N' || ch == 'I' || (ch == '-' && i + 1 < n && d[i + 1] == 'I')) {
            const char *word = ch == 'N' ? "NaN" : ch == 'I' ? "Infinity" : "-Infinity";
            size_t wl = strlen(word);
            if (n - i < wl || memcmp(d + i, word, wl) != 0 || is_step)
                return H_SLOW;
            i += wl;
            cell.has = 1;
            cell.v = ch == 'N' ? Py_NAN : ch == 'I' ? Py_HUGE_VAL : -Py_HUGE_VAL;
        } else {
            int is_int = 0;
            size_t b = json_number(d, i, n, &is_int);
            if (!b)
                return H_SLOW;
            size_t digits = b - i - (d[i] == '-');
            if (is_step) {
                if (!is_int || digits > 18)
                    return H_SLOW; /* a float step (int() of it), or one that may not fit: Python's */
                int64_t s = 0;
                for (size_t t = i + (d[i] == '-'); t < b; t++)
                    s = s * 10 + (d[t] - '0');
                if (has_step)
                    return H_SLOW;
                step = d[i] == '-' ? -s : s;
                has_step = 1;
            } else if (is_int && digits > 300) {
                return H_SLOW; /* float(int) may overflow, under any key (the row pass reads every value): Python's */
            } else if (metric) {
                int got = parse_field(d + i, b - i, &cell.v);
                if (got == NUM_SLOW) {
                    cell.slow = 1;
                    cell.a = i;
                    cell.b = b;
                } else if (got != NUM_OK) {
                    return H_SLOW;
                }
                if (is_int && cell.v == 0.0)
                    cell.v = 0.0; /* JSON's -0 is the int 0 */
                cell.has = 1;
            }
            i = b;
        }
        if (metric && !is_step) {
            size_t key = h_key(j, d, ka, kb, c);
            if (key == SIZE_MAX - 2) {
                j->nomem = 1;
                return H_SLOW;
            }
            if (key == SIZE_MAX - 1 || j->keys[key].seen == (int64_t)r)
                return H_SLOW; /* too many keys, or a key twice in the row */
            j->keys[key].seen = (int64_t)r;
            cell.key = key;
            if (grow((void **)&j->prev, &j->p_cap, c + 1, sizeof(size_t)) ||
                grow((void **)&j->cells, &j->c_cap, c + 1, sizeof(HCell))) {
                j->nomem = 1;
                return H_SLOW;
            }
            j->cells[c] = cell;
        } else {
            if (grow((void **)&j->cells, &j->c_cap, c + 1, sizeof(HCell))) {
                j->nomem = 1;
                return H_SLOW;
            }
            cell.has = 0;
            j->cells[c] = cell;
        }
        WS();
        if (i < n && d[i] == ',') {
            i++;
            WS();
            continue;
        }
        if (i < n && d[i] == '}') {
            i++;
            c++;
            break;
        }
        return H_SLOW;
    }
end:
    WS();
    if (i != n)
        return H_SLOW;
#undef WS
    for (size_t t = 0; t < c && t < j->p_cap; t++) /* the hints of the next row */
        j->prev[t] = j->cells[t].key;
    j->p_n = c < j->p_cap ? c : j->p_cap;
    if (!has_step)
        return H_NOSTEP;
    j->steps[r] = step;
    if (step <= j->after)
        return H_OLD;
    for (size_t t = 0; t < c; t++) {
        HCell *cell = &j->cells[t];
        if (!cell->has || cell->key == SIZE_MAX)
            continue;
        HKey *k = &j->keys[cell->key];
        if (k->np == k->cap) {
            size_t cap = k->cap ? 2 * k->cap : 256;
            int64_t *rows = realloc(k->rows, cap * sizeof(int64_t));
            if (rows == NULL) {
                j->nomem = 1;
                return H_SLOW;
            }
            k->rows = rows;
            double *vals = realloc(k->vals, cap * sizeof(double));
            if (vals == NULL) {
                j->nomem = 1;
                return H_SLOW;
            }
            k->vals = vals;
            k->cap = cap;
        }
        if (cell->slow) {
            if (grow((void **)&j->slow, &j->slow_cap, j->n_slow + 1, sizeof(Slow)) ||
                grow((void **)&j->slow_row, &j->slow_row_cap, j->n_slow + 1, sizeof(int64_t)) ||
                grow((void **)&j->slow_at, &j->slow_at_cap, j->n_slow + 1, sizeof(size_t))) {
                j->nomem = 1;
                return H_SLOW;
            }
            j->slow[j->n_slow] = (Slow){cell->key, cell->a, cell->b};
            j->slow_row[j->n_slow] = (int64_t)r;
            j->slow_at[j->n_slow++] = k->np;
        }
        if (k->named < 0) {
            if (grow((void **)&j->order, &j->order_cap, j->n_named + 1, sizeof(size_t))) {
                j->nomem = 1;
                return H_SLOW;
            }
            k->named = (int64_t)j->n_named;
            j->order[j->n_named++] = cell->key;
            k->first_row = (int64_t)r;
            k->first_pos = cell->pos;
        }
        k->rows[k->np] = (int64_t)r;
        k->vals[k->np++] = cell->v;
    }
    return H_TAKEN;
}

static void
h_scan(HJob *j)
{
    for (size_t r = 0; r < j->n && !j->nomem; r++) {
        j->kinds[r] = H_SLOW;
        if (j->len[r] >= 0)
            j->kinds[r] = (unsigned char)h_row(j, r, j->text[r], (size_t)j->len[r]);
        if (j->kinds[r] == H_SLOW)
            j->p_n = 0;
    }
}

static void
h_free(HJob *j)
{
    for (size_t t = 0; t < j->k; t++) {
        free(j->keys[t].rows);
        free(j->keys[t].vals);
    }
    free(j->keys);
    free(j->slots);
    free(j->order);
    free(j->cells);
    free(j->prev);
    free(j->slow);
    free(j->slow_row);
    free(j->slow_at);
    free(j->text);
    free(j->len);
    free(j->kinds);
    free(j->steps);
}

/* the scanned job as (kinds, steps, names, first, points), `extra` appended when given (a new reference, or NULL
   with an error set) */
static PyObject *
h_result(HJob *j, PyObject *extra)
{
    PyObject *result = NULL, *kinds = NULL, *steps = NULL, *names = NULL, *first = NULL, *points = NULL;
    for (size_t s = 0; s < j->n_slow; s++) { /* the numbers the fast paths could not settle: float() of their text */
        Slow *sl = &j->slow[s];
        HKey *k = &j->keys[sl->cell];
        int got = slow_double(j->text[j->slow_row[s]], sl->start, sl->end, 0, &k->vals[j->slow_at[s]]);
        if (got == 1)
            PyErr_SetString(PyExc_ValueError, "history_rows(): a JSON number float() refuses");
        if (got)
            return NULL;
    }
    kinds = PyBytes_FromStringAndSize((const char *)j->kinds, (Py_ssize_t)j->n);
    steps = kinds ? PyBytes_FromStringAndSize((const char *)j->steps, (Py_ssize_t)(j->n * sizeof(int64_t))) : NULL;
    first = steps ? PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(j->n_named * 2 * sizeof(int64_t))) : NULL;
    names = first ? PyList_New((Py_ssize_t)j->n_named) : NULL;
    points = names ? PyList_New((Py_ssize_t)j->n_named) : NULL;
    if (points == NULL)
        goto done;
    int64_t *fp = (int64_t *)PyBytes_AS_STRING(first);
    for (size_t t = 0; t < j->n_named; t++) {
        HKey *k = &j->keys[j->order[t]];
        fp[2 * t] = k->first_row;
        fp[2 * t + 1] = k->first_pos;
        PyObject *name = PyUnicode_DecodeUTF8((const char *)k->p, (Py_ssize_t)k->n, "strict");
        if (name == NULL)
            goto done;
        PyList_SET_ITEM(names, (Py_ssize_t)t, name);
        PyObject *pair = Py_BuildValue("(y#y#)", (const char *)k->rows, (Py_ssize_t)(k->np * sizeof(int64_t)),
                                       (const char *)k->vals, (Py_ssize_t)(k->np * sizeof(double)));
        if (pair == NULL)
            goto done;
        PyList_SET_ITEM(points, (Py_ssize_t)t, pair);
    }
    result = extra ? PyTuple_Pack(6, kinds, steps, names, first, points, extra)
                   : PyTuple_Pack(5, kinds, steps, names, first, points);
done:
    Py_XDECREF(kinds);
    Py_XDECREF(steps);
    Py_XDECREF(names);
    Py_XDECREF(first);
    Py_XDECREF(points);
    return result;
}

static PyObject *
kernel_history_rows(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *lines, *items = NULL, *result = NULL;
    long long after;
    if (!PyArg_ParseTuple(args, "O!L:history_rows", &PyList_Type, &lines, &after))
        return NULL;
    HJob j = {0};
    j.after = (int64_t)after;
    items = PyList_AsTuple(lines); /* the rows held while the GIL is released */
    if (items == NULL)
        return NULL;
    j.n = (size_t)PyTuple_GET_SIZE(items);
    j.text = calloc(j.n + 1, sizeof(*j.text));
    j.len = calloc(j.n + 1, sizeof(Py_ssize_t));
    j.kinds = malloc(j.n + 1);
    j.steps = calloc(j.n + 1, sizeof(int64_t));
    if (!j.text || !j.len || !j.kinds || !j.steps) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t r = 0; r < j.n; r++) {
        PyObject *it = PyTuple_GET_ITEM(items, r);
        j.len[r] = -1;
        if (PyUnicode_CheckExact(it)) {
            Py_ssize_t len;
            const char *t = PyUnicode_AsUTF8AndSize(it, &len);
            if (t == NULL)
                PyErr_Clear(); /* a lone surrogate: Python's */
            else {
                j.text[r] = (const unsigned char *)t;
                j.len[r] = len;
            }
        }
    }
    Py_BEGIN_ALLOW_THREADS
    h_scan(&j);
    Py_END_ALLOW_THREADS
    if (j.nomem)
        PyErr_NoMemory();
    else
        result = h_result(&j, NULL);
done:
    Py_XDECREF(items);
    h_free(&j);
    return result;
}

/* ---------------------------------------------------------------- a HistoryPage answer's text

   history_page(text, after_step) -> None | (kinds, steps, names, first, points, slow)

   The answer as W&B (through wandb-core) hands it over, before any JSON decoding: exactly
   {"project": {"run": {"history": [STRING, ...]}}} (JSON whitespace anywhere JSON allows it), each STRING a row's
   line, its escapes (\" \\ \/ \b \f \n \r \t \uXXXX, surrogate pairs joined) undone; then history_rows' reading of
   the lines, the rows it leaves as str in `slow` (in their order). None for any other text (another shape, a run
   that is null, an element that is no string, a lone surrogate, no JSON): the caller decodes it with json. */

static size_t
h_ws_skip(const unsigned char *d, size_t i, size_t n)
{
    while (i < n && h_ws(d[i]))
        i++;
    return i;
}

/* `{ "name" :` at d[i:]: the offset after the colon's whitespace, or 0 */
static size_t
h_member(const unsigned char *d, size_t i, size_t n, const char *name)
{
    size_t l = strlen(name);
    i = h_ws_skip(d, i, n);
    if (i >= n || d[i] != '{')
        return 0;
    i = h_ws_skip(d, i + 1, n);
    if (n - i < l + 2 || d[i] != '"' || memcmp(d + i + 1, name, l) != 0 || d[i + 1 + l] != '"')
        return 0;
    i = h_ws_skip(d, i + l + 2, n);
    if (i >= n || d[i] != ':')
        return 0;
    return h_ws_skip(d, i + 1, n);
}

static int
h_hex4(const unsigned char *d, size_t i, size_t n, unsigned *out)
{
    unsigned v = 0;
    if (n - i < 4)
        return 0;
    for (size_t t = i; t < i + 4; t++) {
        unsigned c = d[t], x = c - '0' < 10 ? c - '0' : (c | 0x20) - 'a' < 6 ? (c | 0x20) - 'a' + 10 : 16;
        if (x > 15)
            return 0;
        v = v * 16 + x;
    }
    *out = v;
    return 1;
}

/* the string at d[i] (its opening quote) unescaped into out (at *o): the offset after its closing quote, or 0 */
static size_t
h_string(const unsigned char *d, size_t i, size_t n, unsigned char *out, size_t *o)
{
    i++;
    while (i < n) {
        unsigned char c = d[i];
        if (c == '"')
            return i + 1;
        if (c < 0x20)
            return 0;
        if (c != '\\') {
            out[(*o)++] = c;
            i++;
            continue;
        }
        if (++i >= n)
            return 0;
        c = d[i++];
        switch (c) {
        case '"': case '\\': case '/': out[(*o)++] = c; break;
        case 'b': out[(*o)++] = '\b'; break;
        case 'f': out[(*o)++] = '\f'; break;
        case 'n': out[(*o)++] = '\n'; break;
        case 'r': out[(*o)++] = '\r'; break;
        case 't': out[(*o)++] = '\t'; break;
        case 'u': {
            unsigned u;
            if (!h_hex4(d, i, n, &u))
                return 0;
            i += 4;
            if (u >= 0xDC00 && u <= 0xDFFF)
                return 0; /* a lone low surrogate */
            if (u >= 0xD800 && u <= 0xDBFF) {
                unsigned lo;
                if (n - i < 6 || d[i] != '\\' || d[i + 1] != 'u' || !h_hex4(d, i + 2, n, &lo) || lo < 0xDC00 ||
                    lo > 0xDFFF)
                    return 0; /* a lone high surrogate */
                i += 6;
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            }
            if (u < 0x80) {
                out[(*o)++] = (unsigned char)u;
            } else if (u < 0x800) {
                out[(*o)++] = (unsigned char)(0xC0 | (u >> 6));
                out[(*o)++] = (unsigned char)(0x80 | (u & 0x3F));
            } else if (u < 0x10000) {
                out[(*o)++] = (unsigned char)(0xE0 | (u >> 12));
                out[(*o)++] = (unsigned char)(0x80 | ((u >> 6) & 0x3F));
                out[(*o)++] = (unsigned char)(0x80 | (u & 0x3F));
            } else {
                out[(*o)++] = (unsigned char)(0xF0 | (u >> 18));
                out[(*o)++] = (unsigned char)(0x80 | ((u >> 12) & 0x3F));
                out[(*o)++] = (unsigned char)(0x80 | ((u >> 6) & 0x3F));
                out[(*o)++] = (unsigned char)(0x80 | (u & 0x3F));
            }
            break;
        }
        default:
            return 0;
        }
    }
    return 0;
}

/* the lines of the answer d[0:n] into j (text/len into `arena`, at most n bytes): 0, 1 when the text is no such
   answer, -1 out of memory */
static int
h_lines(HJob *j, const unsigned char *d, size_t n, unsigned char *arena)
{
    size_t i = h_member(d, 0, n, "project");
    if (i)
        i = h_member(d, i, n, "run");
    if (i)
        i = h_member(d, i, n, "history");
    if (!i || i >= n || d[i] != '[')
        return 1;
    i = h_ws_skip(d, i + 1, n);
    size_t o = 0, cap = 0, k = 0;
    size_t *offs = NULL;
    if (i < n && d[i] == ']') {
        i++;
    } else {
        for (;;) {
            if (i >= n || d[i] != '"') {
                free(offs);
                return 1;
            }
            if (grow((void **)&offs, &cap, 2 * (k + 1), sizeof(size_t))) {
                free(offs);
                return -1;
            }
            offs[2 * k] = o;
            i = h_string(d, i, n, arena, &o);
            if (!i) {
                free(offs);
                return 1;
            }
            offs[2 * k + 1] = o;
            k++;
            i = h_ws_skip(d, i, n);
            if (i < n && d[i] == ',') {
                i = h_ws_skip(d, i + 1, n);
                continue;
            }
            if (i < n && d[i] == ']') {
                i++;
                break;
            }
            free(offs);
            return 1;
        }
    }
    for (int t = 0; t < 3; t++) {
        i = h_ws_skip(d, i, n);
        if (i >= n || d[i] != '}') {
            free(offs);
            return 1;
        }
        i++;
    }
    if (h_ws_skip(d, i, n) != n) {
        free(offs);
        return 1;
    }
    j->n = k;
    j->text = calloc(k + 1, sizeof(*j->text));
    j->len = calloc(k + 1, sizeof(Py_ssize_t));
    j->kinds = malloc(k + 1);
    j->steps = calloc(k + 1, sizeof(int64_t));
    if (!j->text || !j->len || !j->kinds || !j->steps) {
        free(offs);
        return -1;
    }
    for (size_t r = 0; r < k; r++) {
        j->text[r] = arena + offs[2 * r];
        j->len[r] = (Py_ssize_t)(offs[2 * r + 1] - offs[2 * r]);
    }
    free(offs);
    return 0;
}

static PyObject *
kernel_history_page(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *text, *result = NULL, *slow = NULL;
    long long after;
    if (!PyArg_ParseTuple(args, "UL:history_page", &text, &after))
        return NULL;
    Py_ssize_t size;
    const char *d = PyUnicode_AsUTF8AndSize(text, &size);
    if (d == NULL) { /* a lone surrogate: json's */
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    HJob j = {0};
    j.after = (int64_t)after;
    unsigned char *arena = malloc((size_t)size + 1);
    if (arena == NULL)
        return PyErr_NoMemory();
    int got;
    Py_BEGIN_ALLOW_THREADS
    got = h_lines(&j, (const unsigned char *)d, (size_t)size, arena);
    if (got == 0)
        h_scan(&j);
    Py_END_ALLOW_THREADS
    if (got == 1) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    if (got < 0 || j.nomem) {
        PyErr_NoMemory();
        goto done;
    }
    slow = PyList_New(0);
    if (slow == NULL)
        goto done;
    for (size_t r = 0; r < j.n; r++) {
        if (j.kinds[r] != H_SLOW)
            continue;
        PyObject *line = PyUnicode_DecodeUTF8((const char *)j.text[r], j.len[r], "strict");
        if (line == NULL || PyList_Append(slow, line)) {
            Py_XDECREF(line);
            goto done;
        }
        Py_DECREF(line);
    }
    result = h_result(&j, slow);
done:
    Py_XDECREF(slow);
    free(arena);
    h_free(&j);
    return result;
}
