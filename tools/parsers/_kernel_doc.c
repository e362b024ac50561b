/* The whole-file JSON documents' bulk steps (tools/parsers/documents.py), #included by _kernel.c.

   Each reads a part of a JSON document's bytes as json.loads reads the decoded text, strictly: anything it does not
   settle (an escape in a key, a nested container, a number it would have to round specially, a syntax error) gives
   None, and the caller reads the document with json.loads as before. So a None is never an error: it only means
   "not the common shape".

   - doc_members(data, start, end, nest): the members of the object data[start:end] as (key start, key end, value
     start, value end, sub) spans, sub the members of an object value (nest levels down) or None; values are skipped
     (strings and brackets matched), not checked: the caller parses them.
   - doc_records(data, start, end): a trainer_state.json log_history array, each entry an object of scalars, as
     columns: (entries, [(key, steps, values), ...]) in the order the keys first give a point.
   - doc_values(data, start, end): a golden-values "values" object ("step": number or string or literal), the
     numbers as (steps, values) columns; steps strictly increasing. */

#define DOC_WS(c) ((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\r')

static inline size_t
doc_ws(const unsigned char *p, size_t i, size_t end)
{
    while (i < end && DOC_WS(p[i]))
        i++;
    return i;
}

static inline int
doc_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* A string starting at p[i] == '"': the index after its closing quote, or 0 when json.loads would refuse it (a
   control character, a bad escape, no end). *plain: no escape and no byte >= 128 in it. */
static size_t
doc_string(const unsigned char *p, size_t i, size_t end, int *plain)
{
    int pl = 1;
    i++;
    while (i < end) {
        const unsigned char *q = memchr(p + i, '"', end - i);
        size_t stop = q ? (size_t)(q - p) : end;
        /* the run before the next quote: control bytes, escapes, high bytes */
        for (; i < stop; i++) {
            unsigned char c = p[i];
            if (c < 0x20)
                return 0;
            if (c >= 0x80) {
                pl = 0;
            } else if (c == '\\') {
                pl = 0;
                if (i + 1 >= end)
                    return 0;
                unsigned char e = p[i + 1];
                if (e == 'u') {
                    if (i + 5 >= end || !doc_hex(p[i + 2]) || !doc_hex(p[i + 3]) || !doc_hex(p[i + 4]) ||
                        !doc_hex(p[i + 5]))
                        return 0;
                    i += 5;
                } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' ||
                           e == 't') {
                    i += 1;
                } else {
                    return 0;
                }
                if (i >= stop) { /* the escape took the quote we stopped at ("\"") */
                    i++;
                    goto next;
                }
            }
        }
        if (i >= end)
            return 0;
        *plain = pl;
        return i + 1;
    next:;
    }
    return 0;
}

/* The object or array starting at p[i]: the index after its closing bracket (brackets in strings ignored; their
   kinds not matched: the caller parses what it skipped), or 0 when it has no end. 16 bytes at a time. */
static size_t
doc_skip_nested(const unsigned char *p, size_t i, size_t end)
{
    int64_t depth = 0;
    int in_str = 0;
    while (i < end) {
#ifdef __SSE2__
        if (i + 16 <= end) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
#define DOC_EQ(c) _mm_cmpeq_epi8(v, _mm_set1_epi8(c))
            __m128i hit = _mm_or_si128(_mm_or_si128(DOC_EQ('"'), DOC_EQ('\\')),
                                       _mm_or_si128(_mm_or_si128(DOC_EQ('{'), DOC_EQ('}')),
                                                    _mm_or_si128(DOC_EQ('['), DOC_EQ(']'))));
#undef DOC_EQ
            unsigned m = (unsigned)_mm_movemask_epi8(hit);
            size_t next = i + 16;
            while (m) {
                size_t j = i + (size_t)__builtin_ctz(m);
                m &= m - 1;
                unsigned char c = p[j];
                if (in_str) {
                    if (c == '"') {
                        in_str = 0;
                    } else if (c == '\\') { /* the escaped byte is not a quote's end: go on after it */
                        next = j + 2;
                        break;
                    }
                } else if (c == '"') {
                    in_str = 1;
                } else if (c == '{' || c == '[') {
                    depth++;
                } else if (c == '}' || c == ']') {
                    if (--depth == 0)
                        return j + 1;
                }
            }
            i = next;
            continue;
        }
#endif
        unsigned char c = p[i];
        if (in_str) {
            if (c == '"')
                in_str = 0;
            else if (c == '\\')
                i++;
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (--depth == 0)
                return i + 1;
        }
        i++;
    }
    return 0;
}

/* A value starting at p[i] (not whitespace): the index after it, skipped without checking what is inside (the
   caller parses it), or 0 when it has no end. */
static size_t
doc_skip(const unsigned char *p, size_t i, size_t end)
{
    int plain;
    unsigned char c = p[i];
    if (c == '"')
        return doc_string(p, i, end, &plain);
    if (c == '{' || c == '[')
        return doc_skip_nested(p, i, end);
    size_t s = i;
    while (i < end && !DOC_WS(p[i]) && p[i] != ',' && p[i] != '}' && p[i] != ']' && p[i] != ':' && p[i] != '"' &&
           p[i] != '{' && p[i] != '[')
        i++;
    return i > s ? i : 0;
}

enum { DV_BAD = -1, DV_NUM = 0, DV_SKIP = 1, DV_STR = 2, DV_SLOW = 3 };

typedef struct {
    double v;
    int64_t ival;  /* the integer, when is_int */
    int is_int;    /* an integer literal of at most 18 digits (json.loads: an int) */
    int nonfinite; /* NaN, Infinity, -Infinity */
} DocNum;

/* A JSON number (json.loads' grammar, and its NaN / Infinity / -Infinity) at p[i]: DV_NUM with *num set, DV_SLOW
   when float() must read the literal p[i:*next] (many digits, a rounding the fast paths cannot settle), DV_BAD when
   it is not a number json.loads reads as this code would (an integer of 19 digits or more included). */
static int
doc_number(const unsigned char *p, size_t i, size_t end, size_t *next, DocNum *num)
{
    int neg = 0;
    num->is_int = 0;
    num->nonfinite = 0;
    if (p[i] == 'N') {
        if (end - i >= 3 && memcmp(p + i, "NaN", 3) == 0) {
            *next = i + 3;
            num->v = Py_NAN;
            num->nonfinite = 1;
            return DV_NUM;
        }
        return DV_BAD;
    }
    if (p[i] == '-') {
        neg = 1;
        i++;
    }
    if (i < end && p[i] == 'I') {
        if (end - i >= 8 && memcmp(p + i, "Infinity", 8) == 0) {
            *next = i + 8;
            num->v = neg ? -Py_HUGE_VAL : Py_HUGE_VAL;
            num->nonfinite = 1;
            return DV_NUM;
        }
        return DV_BAD;
    }
    if (i >= end || p[i] < '0' || p[i] > '9')
        return DV_BAD;
    uint64_t man = 0;
    int nd = 0, many = 0;
    size_t d0 = i;
    if (p[i] == '0') {
        i++;
    } else {
        while (i < end && p[i] >= '0' && p[i] <= '9') {
            if (nd < 19) {
                man = man * 10 + (uint64_t)(p[i] - '0');
                if (man)
                    nd++;
            } else {
                many = 1;
            }
            i++;
        }
    }
    size_t int_digits = i - d0;
    int64_t e10 = 0;
    int frac = 0, expo = 0;
    if (i < end && p[i] == '.') {
        if (i + 1 >= end || p[i + 1] < '0' || p[i + 1] > '9')
            return DV_BAD;
        frac = 1;
        i++;
        while (i < end && p[i] >= '0' && p[i] <= '9') {
            unsigned d = (unsigned)(p[i] - '0');
            if (nd < 19) {
                man = man * 10 + d;
                if (man)
                    nd++;
                e10--;
            } else {
                many = 1;
            }
            i++;
        }
    }
    if (i < end && (p[i] == 'e' || p[i] == 'E')) {
        size_t j = i + 1;
        int eneg = 0;
        if (j < end && (p[j] == '+' || p[j] == '-')) {
            eneg = p[j] == '-';
            j++;
        }
        if (j >= end || p[j] < '0' || p[j] > '9')
            return DV_BAD;
        int64_t ev = 0;
        while (j < end && p[j] >= '0' && p[j] <= '9') {
            if (ev < 100000000)
                ev = ev * 10 + (p[j] - '0');
            else
                many = 1;
            j++;
        }
        e10 += eneg ? -ev : ev;
        expo = 1;
        i = j;
    }
    *next = i;
    if (!frac && !expo) {
        if (int_digits > 18)
            return DV_BAD; /* json.loads: an int float() may not convert; the caller's Python reads it */
        int64_t iv = (int64_t)man;
        num->is_int = 1;
        num->ival = neg ? -iv : iv;
        num->v = (double)num->ival; /* float(int): correctly rounded, and 0 for -0 */
        return DV_NUM;
    }
    if (many)
        return DV_SLOW;
    if (man == 0) {
        num->v = neg ? -0.0 : 0.0;
        return DV_NUM;
    }
    return to_double(man, e10, neg, &num->v) ? DV_NUM : DV_SLOW;
}

/* A scalar value at p[i]: a number (DV_NUM / DV_SLOW), a string (DV_STR, *plain and *next set), true / false /
   null (DV_SKIP, *lit: 't', 'f' or 'n'), DV_BAD for anything else (a container, a bad token). */
static int
doc_scalar(const unsigned char *p, size_t i, size_t end, size_t *next, DocNum *num, int *plain, char *lit)
{
    unsigned char c = p[i];
    if (c == '"') {
        size_t j = doc_string(p, i, end, plain);
        if (!j)
            return DV_BAD;
        *next = j;
        return DV_STR;
    }
    if (c == 't' || c == 'f' || c == 'n') {
        const char *w = c == 't' ? "true" : c == 'f' ? "false" : "null";
        size_t n = strlen(w);
        if (end - i < n || memcmp(p + i, w, n) != 0)
            return DV_BAD;
        *next = i + n;
        *lit = (char)c;
        return DV_SKIP;
    }
    return doc_number(p, i, end, next, num);
}

static int
doc_args(PyObject *args, const char *fn, Py_buffer *buf, size_t *start, size_t *end)
{
    Py_ssize_t s, e;
    if (!PyArg_ParseTuple(args, "y*nn", buf, &s, &e))
        return -1;
    if (s < 0 || e < s || e > buf->len) {
        PyBuffer_Release(buf);
        PyErr_Format(PyExc_ValueError, "%s: the span %zd:%zd is outside the %zd bytes", fn, s, e, buf->len);
        return -1;
    }
    *start = (size_t)s;
    *end = (size_t)e;
    return 0;
}

/* ---------------------------------------------------------------- doc_members */

#define DOC_ERR ((size_t)-1)

/* The object at p[i] ('{'): its members appended to out as (key start, key end, value start, value end, sub), sub
   the members of an object value in the same form while nest > 0, else None. The index after it, 0 when it is not
   an object of members, DOC_ERR with a Python error set. */
static size_t
doc_object(const unsigned char *p, size_t i, size_t end, int nest, PyObject *out)
{
    i = doc_ws(p, i + 1, end);
    if (i < end && p[i] == '}')
        return i + 1;
    for (;;) {
        int plain;
        if (i >= end || p[i] != '"')
            return 0;
        size_t ks = i, ke = doc_string(p, i, end, &plain);
        if (!ke)
            return 0;
        i = doc_ws(p, ke, end);
        if (i >= end || p[i] != ':')
            return 0;
        i = doc_ws(p, i + 1, end);
        if (i >= end)
            return 0;
        size_t vs = i, ve;
        PyObject *sub;
        if (nest > 0 && p[i] == '{') {
            sub = PyList_New(0);
            if (!sub)
                return DOC_ERR;
            ve = doc_object(p, i, end, nest - 1, sub);
        } else {
            sub = Py_None;
            Py_INCREF(sub);
            ve = doc_skip(p, i, end);
        }
        if (!ve || ve == DOC_ERR) {
            Py_DECREF(sub);
            return ve;
        }
        PyObject *t = Py_BuildValue("(nnnnN)", (Py_ssize_t)ks, (Py_ssize_t)ke, (Py_ssize_t)vs, (Py_ssize_t)ve, sub);
        if (!t || PyList_Append(out, t)) {
            Py_XDECREF(t);
            return DOC_ERR;
        }
        Py_DECREF(t);
        i = doc_ws(p, ve, end);
        if (i < end && p[i] == ',') {
            i = doc_ws(p, i + 1, end);
            continue;
        }
        if (i < end && p[i] == '}')
            return i + 1;
        return 0;
    }
}

static PyObject *
kernel_doc_members(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer buf;
    Py_ssize_t s, e;
    int nest;
    if (!PyArg_ParseTuple(args, "y*nni", &buf, &s, &e, &nest))
        return NULL;
    if (s < 0 || e < s || e > buf.len) {
        PyBuffer_Release(&buf);
        return PyErr_Format(PyExc_ValueError, "doc_members: the span %zd:%zd is outside the %zd bytes", s, e, buf.len);
    }
    const unsigned char *p = buf.buf;
    size_t end = (size_t)e, i = doc_ws(p, (size_t)s, end);
    PyObject *out = PyList_New(0);
    if (!out) {
        PyBuffer_Release(&buf);
        return NULL;
    }
    size_t next = i < end && p[i] == '{' ? doc_object(p, i, end, nest, out) : 0;
    int whole = next && next != DOC_ERR && doc_ws(p, next, end) == end;
    PyBuffer_Release(&buf);
    if (next == DOC_ERR) {
        Py_DECREF(out);
        return NULL;
    }
    if (!whole) {
        Py_DECREF(out);
        Py_RETURN_NONE;
    }
    return out;
}

/* ---------------------------------------------------------------- columns */

typedef struct {
    int64_t *steps;
    double *values;
    size_t n, cap;
} DocCol;

static int
doc_col_push(DocCol *c, int64_t step, double v)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        int64_t *s = realloc(c->steps, cap * sizeof(int64_t));
        if (!s)
            return -1;
        c->steps = s;
        double *v2 = realloc(c->values, cap * sizeof(double));
        if (!v2)
            return -1;
        c->values = v2;
        c->cap = cap;
    }
    c->steps[c->n] = step;
    c->values[c->n] = v;
    c->n++;
    return 0;
}

typedef struct {
    size_t col, idx, start, end; /* the point values[idx] of column col is float(data[start:end]) */
} DocSlow;

typedef struct {
    DocSlow *v;
    size_t n, cap;
} DocSlows;

static int
doc_slow_push(DocSlows *s, size_t col, size_t idx, size_t start, size_t end)
{
    if (grow((void **)&s->v, &s->cap, s->n + 1, sizeof(DocSlow)))
        return -1;
    s->v[s->n++] = (DocSlow){col, idx, start, end};
    return 0;
}

/* float() of each slow literal, into its column; -1 with an exception set when float() raised */
static int
doc_resolve(const unsigned char *p, DocSlows *s, DocCol *cols)
{
    for (size_t k = 0; k < s->n; k++) {
        DocSlow *sl = &s->v[k];
        int got = slow_double(p, sl->start, sl->end, 0, &cols[sl->col].values[sl->idx]);
        if (got == 1)
            PyErr_SetString(PyExc_ValueError, "a JSON number float() refuses");
        if (got)
            return -1;
    }
    return 0;
}

/* (steps, values) as bytearrays: numpy arrays over them are writable, as the lists' arrays were */
static PyObject *
doc_col_tuple(DocCol *c)
{
    PyObject *steps = PyByteArray_FromStringAndSize(c->n ? (const char *)c->steps : "",
                                                    (Py_ssize_t)(c->n * sizeof(int64_t)));
    PyObject *values = PyByteArray_FromStringAndSize(c->n ? (const char *)c->values : "",
                                                     (Py_ssize_t)(c->n * sizeof(double)));
    PyObject *t = steps && values ? PyTuple_Pack(2, steps, values) : NULL;
    Py_XDECREF(steps);
    Py_XDECREF(values);
    return t;
}

/* ---------------------------------------------------------------- doc_values */

enum { DOC_OK = 0, DOC_NONE = 1, DOC_NOMEM = 2 };

static int
doc_values_scan(const unsigned char *p, size_t i, size_t end, DocCol *col, DocSlows *slows)
{
    int64_t last = 0;
    int any = 0;
    i = doc_ws(p, i, end);
    if (i >= end || p[i] != '{')
        return DOC_NONE;
    i = doc_ws(p, i + 1, end);
    if (i < end && p[i] == '}')
        return doc_ws(p, i + 1, end) == end ? DOC_OK : DOC_NONE;
    for (;;) {
        /* the key: 1 to 18 digits (to_step reads it as int(key)) */
        if (i >= end || p[i] != '"')
            return DOC_NONE;
        size_t k0 = ++i;
        int64_t step = 0;
        while (i < end && p[i] >= '0' && p[i] <= '9' && i - k0 < 18)
            step = step * 10 + (p[i++] - '0');
        if (i == k0 || i >= end || p[i] != '"')
            return DOC_NONE;
        if (any && step <= last)
            return DOC_NONE; /* not increasing: a repeated step, or a repeated key, is the Python reader's */
        last = step;
        any = 1;
        i = doc_ws(p, i + 1, end);
        if (i >= end || p[i] != ':')
            return DOC_NONE;
        i = doc_ws(p, i + 1, end);
        if (i >= end)
            return DOC_NONE;
        DocNum num;
        int plain;
        char lit;
        size_t next;
        int kind = doc_scalar(p, i, end, &next, &num, &plain, &lit);
        if (kind == DV_BAD)
            return DOC_NONE;
        if (kind == DV_NUM || kind == DV_SLOW) {
            if (kind == DV_SLOW && doc_slow_push(slows, 0, col->n, i, next))
                return DOC_NOMEM;
            if (doc_col_push(col, step, kind == DV_NUM ? num.v : 0.0))
                return DOC_NOMEM;
        }
        i = doc_ws(p, next, end);
        if (i < end && p[i] == ',') {
            i = doc_ws(p, i + 1, end);
            continue;
        }
        if (i < end && p[i] == '}')
            return doc_ws(p, i + 1, end) == end ? DOC_OK : DOC_NONE;
        return DOC_NONE;
    }
}

static PyObject *
kernel_doc_values(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer buf;
    size_t start, end;
    if (doc_args(args, "doc_values", &buf, &start, &end))
        return NULL;
    DocCol col = {0};
    DocSlows slows = {0};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = doc_values_scan(buf.buf, start, end, &col, &slows);
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (rc == DOC_NOMEM) {
        PyErr_NoMemory();
    } else if (rc == DOC_NONE) {
        result = Py_None;
        Py_INCREF(result);
    } else if (!doc_resolve(buf.buf, &slows, &col)) {
        result = doc_col_tuple(&col);
    }
    free(col.steps);
    free(col.values);
    free(slows.v);
    PyBuffer_Release(&buf);
    return result;
}

/* ---------------------------------------------------------------- doc_records */

#define DOC_MAX_KEYS 256
#define DOC_SLOTS 1024 /* open addressing, a power of two above 2 * DOC_MAX_KEYS */

typedef struct {
    size_t start, len; /* the key's bytes (without quotes) in data */
    uint64_t hash;
    int64_t seen;  /* the last entry that held it (a second time in one entry: not this code's) */
    int64_t order; /* its place among the columns, -1 before its first point */
} DocKey;

typedef struct {
    size_t key;
    int kind; /* DV_NUM or DV_SLOW */
    double v;
    size_t start, end;
} DocMember;

typedef struct {
    DocKey keys[DOC_MAX_KEYS];
    int16_t slots[DOC_SLOTS];
    size_t n_keys;
    DocCol cols[DOC_MAX_KEYS]; /* by key */
    size_t order[DOC_MAX_KEYS]; /* keys in the order of their first point */
    size_t n_order;
    DocMember *members;
    size_t n_members, members_cap;
    DocSlows slows;
    int64_t entries;
} DocRecords;

static uint64_t
doc_hash(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t k = 0; k < n; k++)
        h = (h ^ p[k]) * 1099511628211ULL;
    return h;
}

/* the key p[s:s+n]'s index, registered on first sight; -1 past DOC_MAX_KEYS */
static int64_t
doc_key(DocRecords *r, const unsigned char *p, size_t s, size_t n)
{
    uint64_t h = doc_hash(p + s, n);
    size_t slot = (size_t)(h ^ (h >> 29)) & (DOC_SLOTS - 1);
    for (;;) {
        int16_t k = r->slots[slot];
        if (k < 0)
            break;
        DocKey *key = &r->keys[k];
        if (key->hash == h && key->len == n && memcmp(p + key->start, p + s, n) == 0)
            return k;
        slot = (slot + 1) & (DOC_SLOTS - 1);
    }
    if (r->n_keys >= DOC_MAX_KEYS)
        return -1;
    size_t k = r->n_keys++;
    r->keys[k] = (DocKey){s, n, h, -1, -1};
    r->slots[slot] = (int16_t)k;
    return (int64_t)k;
}

#define DOC_IS(p, s, n, word) ((n) == sizeof(word) - 1 && memcmp((p) + (s), word, sizeof(word) - 1) == 0)

/* One log_history entry, the object at p[i] ('{'): its points, when it has a step and no train_runtime (as
   TrainerStateFormat.parse_doc). *next: after it. */
static int
doc_entry(DocRecords *r, const unsigned char *p, size_t i, size_t end, size_t *next)
{
    int64_t entry = r->entries;
    int has_step = 0, skip = 0;
    int64_t step = 0;
    r->n_members = 0;
    i = doc_ws(p, i + 1, end);
    if (i < end && p[i] == '}') {
        *next = i + 1;
        return DOC_OK;
    }
    for (;;) {
        int plain;
        if (i >= end || p[i] != '"')
            return DOC_NONE;
        size_t ks = i + 1, ke = doc_string(p, i, end, &plain);
        if (!ke || !plain)
            return DOC_NONE; /* an escape or a byte >= 128 in a key: the Python reader decodes it */
        size_t klen = ke - 1 - ks;
        i = doc_ws(p, ke, end);
        if (i >= end || p[i] != ':')
            return DOC_NONE;
        i = doc_ws(p, i + 1, end);
        if (i >= end)
            return DOC_NONE;
        int64_t k = doc_key(r, p, ks, klen);
        if (k < 0)
            return DOC_NONE;
        if (r->keys[k].seen == entry)
            return DOC_NONE; /* a key twice in one entry */
        r->keys[k].seen = entry;
        DocNum num;
        char lit = 0;
        size_t vnext;
        int kind = doc_scalar(p, i, end, &vnext, &num, &plain, &lit);
        if (kind == DV_BAD)
            return DOC_NONE;
        if (DOC_IS(p, ks, klen, "step")) {
            /* to_step(str(value)): an int is itself; a float its int() when finite; NaN/Infinity, true, false,
               null: no step (the entry is skipped); a string or a float that needs float(): the Python reader's */
            if (kind == DV_NUM && num.is_int) {
                has_step = 1;
                step = num.ival;
            } else if (kind == DV_NUM && num.nonfinite) {
                has_step = 0;
            } else if (kind == DV_NUM) {
                if (!(num.v > -9.2e18 && num.v < 9.2e18))
                    return DOC_NONE;
                has_step = 1;
                step = (int64_t)num.v; /* int(): toward zero */
            } else if (kind == DV_SKIP) {
                has_step = 0;
            } else {
                return DOC_NONE;
            }
        } else if (DOC_IS(p, ks, klen, "train_runtime")) {
            skip = 1;
        } else if (DOC_IS(p, ks, klen, "total_flos")) {
            /* never a metric */
        } else if (kind == DV_NUM || kind == DV_SLOW) {
            if (grow((void **)&r->members, &r->members_cap, r->n_members + 1, sizeof(DocMember)))
                return DOC_NOMEM;
            r->members[r->n_members++] = (DocMember){(size_t)k, kind, kind == DV_NUM ? num.v : 0.0, i, vnext};
        } else if (kind == DV_STR) {
            /* _flatten reads a string of up to 40 characters with to_value: the Python reader's */
            if (!plain || vnext - i - 2 <= 40)
                return DOC_NONE;
        }
        i = doc_ws(p, vnext, end);
        if (i < end && p[i] == ',') {
            i = doc_ws(p, i + 1, end);
            continue;
        }
        if (i < end && p[i] == '}') {
            *next = i + 1;
            break;
        }
        return DOC_NONE;
    }
    if (skip || !has_step)
        return DOC_OK;
    for (size_t m = 0; m < r->n_members; m++) {
        DocMember *mb = &r->members[m];
        DocKey *key = &r->keys[mb->key];
        if (key->order < 0) {
            key->order = (int64_t)r->n_order;
            r->order[r->n_order++] = mb->key;
        }
        DocCol *c = &r->cols[mb->key];
        if (mb->kind == DV_SLOW && doc_slow_push(&r->slows, mb->key, c->n, mb->start, mb->end))
            return DOC_NOMEM;
        if (doc_col_push(c, step, mb->v))
            return DOC_NOMEM;
    }
    return DOC_OK;
}

static int
doc_records_scan(DocRecords *r, const unsigned char *p, size_t i, size_t end)
{
    i = doc_ws(p, i, end);
    if (i >= end || p[i] != '[')
        return DOC_NONE;
    i = doc_ws(p, i + 1, end);
    if (i < end && p[i] == ']')
        return doc_ws(p, i + 1, end) == end ? DOC_OK : DOC_NONE;
    for (;;) {
        if (i >= end)
            return DOC_NONE;
        size_t next;
        if (p[i] == '{') {
            int rc = doc_entry(r, p, i, end, &next);
            if (rc != DOC_OK)
                return rc;
        } else { /* not an object: skipped, when it is a scalar */
            DocNum num;
            int plain;
            char lit;
            if (doc_scalar(p, i, end, &next, &num, &plain, &lit) == DV_BAD)
                return DOC_NONE;
        }
        r->entries++;
        i = doc_ws(p, next, end);
        if (i < end && p[i] == ',') {
            i = doc_ws(p, i + 1, end);
            continue;
        }
        if (i < end && p[i] == ']')
            return doc_ws(p, i + 1, end) == end ? DOC_OK : DOC_NONE;
        return DOC_NONE;
    }
}

static PyObject *
kernel_doc_records(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer buf;
    size_t start, end;
    if (doc_args(args, "doc_records", &buf, &start, &end))
        return NULL;
    DocRecords *r = calloc(1, sizeof(DocRecords));
    if (!r) {
        PyBuffer_Release(&buf);
        return PyErr_NoMemory();
    }
    memset(r->slots, 0xff, sizeof r->slots);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = doc_records_scan(r, buf.buf, start, end);
    Py_END_ALLOW_THREADS
    PyObject *result = NULL, *cols = NULL;
    if (rc == DOC_NOMEM) {
        PyErr_NoMemory();
        goto done;
    }
    if (rc == DOC_NONE) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    if (doc_resolve(buf.buf, &r->slows, r->cols))
        goto done;
    cols = PyList_New(0);
    if (!cols)
        goto done;
    for (size_t o = 0; o < r->n_order; o++) {
        size_t k = r->order[o];
        PyObject *t = doc_col_tuple(&r->cols[k]);
        PyObject *item = t ? Py_BuildValue("(y#OO)", (const char *)buf.buf + r->keys[k].start,
                                           (Py_ssize_t)r->keys[k].len, PyTuple_GET_ITEM(t, 0),
                                           PyTuple_GET_ITEM(t, 1))
                           : NULL;
        Py_XDECREF(t);
        if (!item || PyList_Append(cols, item)) {
            Py_XDECREF(item);
            goto done;
        }
        Py_DECREF(item);
    }
    result = Py_BuildValue("(LO)", (long long)r->entries, cols);
done:
    Py_XDECREF(cols);
    for (size_t k = 0; k < r->n_keys; k++) {
        free(r->cols[k].steps);
        free(r->cols[k].values);
    }
    free(r->members);
    free(r->slows.v);
    free(r);
    PyBuffer_Release(&buf);
    return result;
}

/* ---------------------------------------------------------------- doc_containers */

/* data.count(b"{") + data.count(b"[") in one pass, 16 bytes at a time (limits.check_containers) */
static PyObject *
kernel_doc_containers(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_buffer buf;
    if (PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE))
        return NULL;
    const unsigned char *p = buf.buf;
    size_t n = (size_t)buf.len, i = 0;
    uint64_t count = 0;
    Py_BEGIN_ALLOW_THREADS
#ifdef __SSE2__
    const __m128i open_brace = _mm_set1_epi8('{'), open_bracket = _mm_set1_epi8('[');
    while (i + 16 <= n) {
        /* per byte lane, minus one per hit (a match is 0xFF), for at most 255 blocks; then summed */
        __m128i acc = _mm_setzero_si128();
        size_t stop = i + 255 * 16 < n ? i + 255 * 16 : n;
        for (; i + 16 <= stop; i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
            acc = _mm_sub_epi8(acc, _mm_or_si128(_mm_cmpeq_epi8(v, open_brace), _mm_cmpeq_epi8(v, open_bracket)));
        }
        __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
        count += (uint64_t)_mm_cvtsi128_si32(sums) + (uint64_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
#endif
    for (; i < n; i++)
        count += p[i] == '{' || p[i] == '[';
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    return PyLong_FromUnsignedLongLong((unsigned long long)count);
}

/* the method-table entries (one line in _kernel.c's table) */
#define DOC_METHODS                                                                                                    \
    {"doc_members", kernel_doc_members, METH_VARARGS,                                                                  \
     "doc_members(data: bytes, start: int, end: int, nest: int)"                                                       \
     " -> list[tuple[int, int, int, int, list | None]] | None\n\n"                                                     \
     "The members of the JSON object data[start:end] as (key start, key end, value start, value end, sub), sub the "   \
     "members of an object value nest levels down, else None; None when it is not an object of members (values are "   \
     "skipped, not checked)."},                                                                                        \
    {"doc_records", kernel_doc_records, METH_VARARGS,                                                                  \
     "doc_records(data: bytes, start: int, end: int)"                                                                  \
     " -> tuple[int, list[tuple[bytes, bytearray, bytearray]]] | None\n\n"                                             \
     "A trainer_state.json log_history array of flat entries: (entries, [(key, int64 steps, float64 values)]) in the " \
     "order keys first give a point; None for anything else."},                                                        \
    {"doc_values", kernel_doc_values, METH_VARARGS,                                                                    \
     "doc_values(data: bytes, start: int, end: int) -> tuple[bytearray, bytearray] | None\n\n"                         \
     "A golden-values \"values\" object of increasing digit keys: (int64 steps, float64 values) of its numbers; None " \
     "for anything else."},                                                                                            \
    {"doc_containers", kernel_doc_containers, METH_O,                                                                  \
     "doc_containers(data: bytes) -> int\n\n"                                                                          \
     "data.count(b\"{\") + data.count(b\"[\"), in one pass."},
