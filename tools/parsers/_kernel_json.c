/* JSON lines in C: the flat records of a few key orders in one linear pass (jsonl.py's block path). #included from
   _kernel.c (parse_field, grow, Slow are its statics); not a translation unit of its own.

   json_records(data, start, shapes, width, max_record) -> (values, kinds, starts, which)

   From offset `start`, each line of `data` (up to its "\n") that is a record of one of `shapes` is read; the first
   line that is none ends the scan. A shape is (keys, modes, fixed, cols): its keys (bytes, in that order, written
   without escapes), each key's mode, each J_FIXED key's string, and each key's column (int32, < width). A record is
   RFC 8259's grammar restricted to a flat object: JSON whitespace (space, tab) where JSON allows it, "{", then per key
   `"key"` `:` a value, "," between, "}", nothing else before the newline; the line at most `max_record` bytes. A
   value (per the key's mode):
     - a JSON number (no leading zero, no ".5", "5.", "+5", inf, NaN): its float as float() reads it (parse_field;
       an integer literal as float(int) makes it: "-0" is +0.0, more than 300 digits ends the scan). Any mode but
       J_FIXED.
     - null, true, false: no number (the record pass skips them alike). Any mode but J_FIXED.
     - a string without a backslash or a control byte:
         J_FIXED: exactly the key's fixed string (kind string);
         J_NUM: a JSON number spelled in quotes, at most 40 bytes, or nan, inf, infinity (any case, signed; not
                under J_STEP): float() of it ("-0" is -0.0: to_value's number), unless J_NOQUOTE (no string at all);
         J_VOLATILE: such a quoted number, else a string that holds ':' or more than 40 characters (kind string:
                no point, and float() never reads it).
   J_STEP: a number of magnitude >= 2**63, or one the fast readers cannot settle, ends the scan.

   values: float64 rows x width (NaN where no number); kinds: uint8 rows x width (J_IS_NUM, J_IS_NULL: null, a
   boolean or a column the row's shape lacks, J_IS_STR); starts: int64 rows + 1 (row i is data[starts[i]:starts[i +
   1]], its newline included; starts[rows] is where the scan stopped); which: uint8 rows, each row's shape.

   GIL released. Each line is tried against the shape the line before had, then the others: time O(bytes x shapes +
   rows x width x shapes), memory O(rows x width); the caller (jsonl._parse_columns) keeps the shapes few and the
   width below the bytes of a record, so both are linear in the block. */

enum { J_NUM = 0, J_FIXED = 1, J_VOLATILE = 2, J_BASE = 3, J_NOQUOTE = 4, J_STEP = 8 };
enum { J_IS_NUM = 0, J_IS_NULL = 1, J_IS_STR = 2 };

typedef struct {
    size_t k;
    const unsigned char **key, *mode, **fix;
    size_t *klen, *flen;
    int32_t *col;
} JShape;

typedef struct {
    const unsigned char *d;
    size_t size, start, max_record, width, n_shapes;
    JShape *shapes;
    double *values;
    unsigned char *kinds;
    int64_t *starts;
    unsigned char *which;
    size_t rows, cap;
    Slow *slow;
    size_t n_slow, slow_cap, row_slow; /* row_slow: the slow cells of the row being read start here */
    int nomem;
} JsonJob;

/* a JSON number at d[i:lim]: its end, or 0 when there is none; *is_int: no fraction and no exponent */
static inline size_t
json_number(const unsigned char *d, size_t i, size_t lim, int *is_int)
{
    if (i < lim && d[i] == '-')
        i++;
    if (i >= lim)
        return 0;
    if (d[i] == '0')
        i++;
    else if (d[i] >= '1' && d[i] <= '9')
        while (i < lim && (unsigned)(d[i] - '0') < 10)
            i++;
    else
        return 0;
    *is_int = 1;
    if (i < lim && d[i] == '.') {
        i++;
        if (i >= lim || (unsigned)(d[i] - '0') >= 10)
            return 0;
        while (i < lim && (unsigned)(d[i] - '0') < 10)
            i++;
        *is_int = 0;
    }
    if (i < lim && (d[i] | 0x20) == 'e') {
        i++;
        if (i < lim && (d[i] == '+' || d[i] == '-'))
            i++;
        if (i >= lim || (unsigned)(d[i] - '0') >= 10)
            return 0;
        while (i < lim && (unsigned)(d[i] - '0') < 10)
            i++;
        *is_int = 0;
    }
    return i;
}

/* whether d[a:b] spells nan, inf or infinity (any case, a sign before): float() reads it */
static inline int
json_nonfinite(const unsigned char *d, size_t a, size_t b)
{
    if (a < b && (d[a] == '+' || d[a] == '-'))
        a++;
    size_t n = b - a;
    if (n != 3 && n != 8)
        return 0;
    const char *word = n == 8 ? "infinity" : (d[a] | 0x20) == 'n' ? "nan" : "inf";
    for (size_t i = 0; i < n; i++)
        if ((d[a + i] | 0x20) != word[i])
            return 0;
    return 1;
}

/* the number d[a:b] (valid JSON) into cell `cell`: 0, or -1 to end the scan (out of memory: j->nomem) */
static inline int
json_value(JsonJob *j, size_t a, size_t b, int is_int, int step, size_t cell)
{
    if (is_int && b - a > 300 + (j->d[a] == '-'))
        return -1; /* float(int) may overflow (the record pass reads inf then): its line is the record pass's */
    double v = 0.0;
    int got = parse_field(j->d + a, b - a, &v);
    if (got == NUM_SLOW) {
        if (step)
            return -1;
        if (grow((void **)&j->slow, &j->slow_cap, j->n_slow + 1, sizeof(Slow))) {
            j->nomem = 1;
            return -1;
        }
        j->slow[j->n_slow++] = (Slow){cell, a, b};
        v = Py_NAN;
    } else if (got != NUM_OK) {
        return -1;
    }
    if (is_int && v == 0.0)
        v = 0.0; /* JSON's -0 is the int 0 */
    if (step && fabs(v) >= 9223372036854775808.0 && isfinite(v))
        return -1;
    j->values[cell] = v;
    return 0;
}

/* the record of shape sh at d[p:], its cells at row r: the offset after its newline, or 0 when the line is not one */
static size_t
json_line(JsonJob *j, const JShape *sh, size_t p, size_t r)
{
    const unsigned char *d = j->d;
    size_t lim = j->size - p > j->max_record ? p + j->max_record + 1 : j->size; /* the newline must be before it */
    size_t i = p;
    j->n_slow = j->row_slow; /* an earlier shape's try */
    for (size_t c = 0; c < j->width; c++) {
        j->values[r * j->width + c] = Py_NAN;
        j->kinds[r * j->width + c] = J_IS_NULL;
    }
#define WS() while (i < lim && (d[i] == ' ' || d[i] == '\t')) i++
    WS();
    if (i >= lim || d[i] != '{')
        return 0;
    i++;
    for (size_t c = 0; c < sh->k; c++) {
        size_t cell = r * j->width + (size_t)sh->col[c];
        unsigned mode = sh->mode[c], base = mode & J_BASE;
        size_t kl = sh->klen[c];
        WS();
        if (lim - i < kl + 2 || d[i] != '"' || memcmp(d + i + 1, sh->key[c], kl) != 0 || d[i + 1 + kl] != '"')
            return 0;
        i += kl + 2;
        WS();
        if (i >= lim || d[i] != ':')
            return 0;
        i++;
        WS();
        if (i >= lim)
            return 0;
        unsigned char ch = d[i];
        if (ch == '"') {
            size_t a = ++i;
            size_t chars = 0;
            int colon = 0;
            for (;; i++) {
                if (i >= lim)
                    return 0;
                unsigned char x = d[i];
                if (x == '"')
                    break;
                if (x < 0x20 || x == '\\')
                    return 0;
                chars += (x & 0xC0) != 0x80; /* UTF-8 lead bytes: never more than the characters decoded */
                colon |= x == ':';
            }
            size_t b = i++;
            if (base == J_FIXED) {
                if (b - a != sh->flen[c] || memcmp(d + a, sh->fix[c], b - a) != 0)
                    return 0;
                j->kinds[cell] = J_IS_STR;
                j->values[cell] = Py_NAN;
            } else {
                int is_int = 0;
                if (!(mode & J_NOQUOTE) && b - a <= 40 && json_number(d, a, b, &is_int) == b) {
                    if (json_value(j, a, b, 0, mode & J_STEP, cell)) /* float(str): "-0" is -0.0 */
                        return 0;
                    j->kinds[cell] = J_IS_NUM;
                } else if (!(mode & (J_NOQUOTE | J_STEP)) && json_nonfinite(d, a, b)) { /* float() reads it after */
                    if (grow((void **)&j->slow, &j->slow_cap, j->n_slow + 1, sizeof(Slow))) {
                        j->nomem = 1;
                        return 0;
                    }
                    j->slow[j->n_slow++] = (Slow){cell, a, b};
                    j->kinds[cell] = J_IS_NUM;
                } else if (base == J_VOLATILE && (colon || chars > 40)) {
                    j->kinds[cell] = J_IS_STR;
                    j->values[cell] = Py_NAN;
                } else {
                    return 0;
                }
            }
        } else if (base == J_FIXED) {
            return 0;
        } else if (ch == 'n' || ch == 't' || ch == 'f') { /* null, true, false: left as no number */
            const char *word = ch == 'n' ? "null" : ch == 't' ? "true" : "false";
            size_t wl = ch == 'f' ? 5 : 4;
            if (lim - i < wl || memcmp(d + i, word, wl) != 0)
                return 0;
            i += wl;
        } else {
            int is_int = 0;
            size_t b = json_number(d, i, lim, &is_int);
            if (!b || json_value(j, i, b, is_int, mode & J_STEP, cell))
                return 0;
            j->kinds[cell] = J_IS_NUM;
            i = b;
        }
        WS();
        if (i >= lim || d[i] != (c + 1 < sh->k ? ',' : '}'))
            return 0;
        i++;
    }
    WS();
    if (i >= lim || d[i] != '\n')
        return 0;
    return i + 1;
#undef WS
}

/* room for row r's cells and start (the three buffers grow together): 0, or -1 out of memory */
static int
json_room(JsonJob *j, size_t r)
{
    if (r + 2 <= j->cap)
        return 0;
    size_t cap = j->cap ? j->cap * 2 : 1024;
    size_t k = j->width;
    if (cap > SIZE_MAX / 16 / k)
        return -1;
    int64_t *s = realloc(j->starts, cap * sizeof(int64_t));
    if (s == NULL)
        return -1;
    j->starts = s;
    double *v = realloc(j->values, cap * k * sizeof(double));
    if (v == NULL)
        return -1;
    j->values = v;
    unsigned char *kd = realloc(j->kinds, cap * k);
    if (kd == NULL)
        return -1;
    j->kinds = kd;
    unsigned char *w = realloc(j->which, cap);
    if (w == NULL)
        return -1;
    j->which = w;
    j->cap = cap;
    return 0;
}

static void
json_scan(JsonJob *j)
{
    size_t p = j->start, last = 0; /* the shape the last line had: tried first */
    while (p < j->size) {
        if (json_room(j, j->rows)) {
            j->nomem = 1;
            return;
        }
        j->row_slow = j->n_slow;
        size_t next = json_line(j, &j->shapes[last], p, j->rows);
        for (size_t t = 0; !next && !j->nomem && t < j->n_shapes; t++)
            if (t != last && (next = json_line(j, &j->shapes[t], p, j->rows)) != 0)
                last = t;
        if (j->nomem)
            return;
        if (!next) {
            j->n_slow = j->row_slow; /* the refused line's slow cells are not read */
            break;
        }
        j->which[j->rows] = (unsigned char)last;
        j->starts[j->rows++] = (int64_t)p;
        p = next;
    }
    if (json_room(j, j->rows)) {
        j->nomem = 1;
        return;
    }
    j->starts[j->rows] = (int64_t)p;
}

/* shape t of json_records' shapes argument into sh (pointers into the argument's bytes): 0, or -1 with an error */
static int
json_shape(PyObject *obj, Py_ssize_t t, size_t width, JShape *sh)
{
    PyObject *keys, *modes, *fixed, *cols;
    if (!PyTuple_Check(obj) || !PyArg_ParseTuple(obj, "O!SO!S", &PyTuple_Type, &keys, &modes, &PyTuple_Type, &fixed,
                                                 &cols)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "json_records(): shapes[%zd] must be (keys: tuple[bytes], modes: bytes, "
                     "fixed: tuple[bytes], cols: bytes of int32)", t);
        return -1;
    }
    Py_ssize_t k = PyTuple_GET_SIZE(keys);
    if (k < 1 || k > 4096 || PyBytes_GET_SIZE(modes) != k || PyTuple_GET_SIZE(fixed) != k ||
        PyBytes_GET_SIZE(cols) != 4 * k) {
        PyErr_Format(PyExc_ValueError, "json_records(): shapes[%zd] has %zd keys (1 .. 4096), %zd modes, %zd fixed "
                     "strings and %zd bytes of columns: one a key (4 bytes a column)", t, k, PyBytes_GET_SIZE(modes),
                     PyTuple_GET_SIZE(fixed), PyBytes_GET_SIZE(cols));
        return -1;
    }
    sh->k = (size_t)k;
    sh->key = calloc((size_t)k, sizeof(*sh->key));
    sh->fix = calloc((size_t)k, sizeof(*sh->fix));
    sh->klen = calloc((size_t)k, sizeof(size_t));
    sh->flen = calloc((size_t)k, sizeof(size_t));
    sh->col = malloc((size_t)k * sizeof(int32_t));
    if (!sh->key || !sh->fix || !sh->klen || !sh->flen || !sh->col) {
        PyErr_NoMemory();
        return -1;
    }
    sh->mode = (const unsigned char *)PyBytes_AS_STRING(modes);
    memcpy(sh->col, PyBytes_AS_STRING(cols), (size_t)k * sizeof(int32_t));
    for (Py_ssize_t c = 0; c < k; c++) {
        PyObject *key = PyTuple_GET_ITEM(keys, c), *fix = PyTuple_GET_ITEM(fixed, c);
        if (!PyBytes_Check(key) || !PyBytes_Check(fix)) {
            PyErr_Format(PyExc_TypeError, "json_records(): shapes[%zd]: keys[%zd] and fixed[%zd] must be bytes", t, c,
                         c);
            return -1;
        }
        if ((sh->mode[c] & J_BASE) == J_BASE || sh->mode[c] > (J_BASE | J_NOQUOTE | J_STEP)) {
            PyErr_Format(PyExc_ValueError, "json_records(): shapes[%zd]: modes[%zd] = %d is no mode", t, c,
                         sh->mode[c]);
            return -1;
        }
        if (sh->col[c] < 0 || (size_t)sh->col[c] >= width) {
            PyErr_Format(PyExc_ValueError, "json_records(): shapes[%zd]: cols[%zd] = %d is outside 0 .. %zu (width - 1)",
                         t, c, (int)sh->col[c], width - 1);
            return -1;
        }
        sh->key[c] = (const unsigned char *)PyBytes_AS_STRING(key);
        sh->klen[c] = (size_t)PyBytes_GET_SIZE(key);
        sh->fix[c] = (const unsigned char *)PyBytes_AS_STRING(fix);
        sh->flen[c] = (size_t)PyBytes_GET_SIZE(fix);
    }
    return 0;
}

static PyObject *
kernel_json_records(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *data, *shapes;
    Py_ssize_t start, width, max_record;
    if (!PyArg_ParseTuple(args, "SnO!nn:json_records", &data, &start, &PyTuple_Type, &shapes, &width, &max_record))
        return NULL;
    Py_ssize_t size = PyBytes_GET_SIZE(data), n_shapes = PyTuple_GET_SIZE(shapes);
    if (start < 0 || start > size) {
        PyErr_Format(PyExc_ValueError, "json_records(): start %zd is outside 0 .. %zd (len(data))", start, size);
        return NULL;
    }
    if (n_shapes < 1 || n_shapes > 64 || width < 1 || width > 65536 || max_record < 1) {
        PyErr_Format(PyExc_ValueError, "json_records(): %zd shapes (1 .. 64), width %zd (1 .. 65536), max_record %zd "
                     "(positive)", n_shapes, width, max_record);
        return NULL;
    }
    JsonJob j = {0};
    PyObject *result = NULL, *values = NULL, *kinds = NULL, *starts = NULL, *which = NULL;
    j.shapes = calloc((size_t)n_shapes, sizeof(JShape));
    if (j.shapes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    j.n_shapes = (size_t)n_shapes;
    for (Py_ssize_t t = 0; t < n_shapes; t++)
        if (json_shape(PyTuple_GET_ITEM(shapes, t), t, (size_t)width, &j.shapes[t]))
            goto done;
    j.d = (const unsigned char *)PyBytes_AS_STRING(data);
    j.size = (size_t)size;
    j.start = (size_t)start;
    j.max_record = (size_t)max_record;
    j.width = (size_t)width;
    Py_BEGIN_ALLOW_THREADS
    json_scan(&j);
    Py_END_ALLOW_THREADS
    if (j.nomem) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t i = 0; i < j.n_slow; i++) { /* the numbers the fast paths could not settle: float() of their text */
        Slow *sl = &j.slow[i];
        int got = slow_double(j.d, sl->start, sl->end, 0, &j.values[sl->cell]);
        if (got == 1) /* valid JSON numbers all read: never */
            PyErr_SetString(PyExc_ValueError, "json_records(): a JSON number float() refuses");
        if (got)
            goto done;
    }
    values = PyBytes_FromStringAndSize((const char *)j.values, (Py_ssize_t)(j.rows * j.width * sizeof(double)));
    kinds = values ? PyBytes_FromStringAndSize((const char *)j.kinds, (Py_ssize_t)(j.rows * j.width)) : NULL;
    starts = kinds ? PyBytes_FromStringAndSize((const char *)j.starts, (Py_ssize_t)((j.rows + 1) * 8)) : NULL;
    which = starts ? PyBytes_FromStringAndSize((const char *)j.which, (Py_ssize_t)j.rows) : NULL;
    if (which != NULL)
        result = PyTuple_Pack(4, values, kinds, starts, which);
done:
    Py_XDECREF(which);
    Py_XDECREF(values);
    Py_XDECREF(kinds);
    Py_XDECREF(starts);
    for (size_t t = 0; j.shapes != NULL && t < j.n_shapes; t++) {
        free(j.shapes[t].key);
        free(j.shapes[t].fix);
        free(j.shapes[t].klen);
        free(j.shapes[t].flen);
        free(j.shapes[t].col);
    }
    free(j.shapes);
    free(j.values);
    free(j.kinds);
    free(j.starts);
    free(j.which);
    free(j.slow);
    return result;
}
