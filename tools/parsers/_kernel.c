/* The text-log engine's two bulk steps in C (optional: kernel.py falls back to templates.py without it).

   templates(joined) -> (codes, uniques): each line's template as templates.templates_of makes it (bytes >= 128
   dropped, each run of NUMBER_CHARS one mark \x01) factorised in order of first appearance; codes are the raw bytes
   of a native int64 array.

   fields(joined, starts, ends, cols) -> (values, bad): the fields `cols` of lines joined[starts[i]:ends[i]], split as
   templates.value_text splits them, read as Python's float() reads them (bitwise: Clinger's fast path, then
   Eisel-Lemire, then PyOS_string_to_double); values are float64 n x k row-major, bad uint8 n x k.

   Both scan with the GIL released, in memory they own; linear time, memory O(input). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_kernel_pow5.h"

#define MARK 1

/* ---------------------------------------------------------------- byte classes */

/* templates: 0 dropped (>= 128: a run of marks goes on across it), 1 a mark (a number character, or the mark \x01
   itself), 2 kept as is, 3 dropped but ending a run of marks (\x02, which templates_of uses as its own marker of a
   repeated mark and deletes wherever it is): the bytes templates_of makes, for any bytes */
static unsigned char TCLASS[256];
/* fields: 0 number character (content), 1 skipped (letters but e/E, '_', >= 128), 2 separator */
enum { F_CONTENT = 0, F_SKIP = 1, F_SEP = 2 };
static unsigned char FCLASS[256];

static const char NUMBER_CHARS[] = "0123456789.+-eE";
/* the bits set in each byte value (no popcnt instruction in the x86-64 baseline: gcc would call libgcc) */
static unsigned char POPCOUNT8[256];

static void
init_tables(void)
{
    for (int c = 0; c < 256; c++) {
        POPCOUNT8[c] = (unsigned char)((c & 1) + POPCOUNT8[c >> 1]);
        int num = c != 0 && strchr(NUMBER_CHARS, c) != NULL;
        int letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        TCLASS[c] = c >= 128 ? 0 : (num || c == MARK) ? 1 : c == 2 ? 3 : 2;
        FCLASS[c] = num ? F_CONTENT : (letter || c >= 128) ? F_SKIP : F_SEP;
    }
}

/* ---------------------------------------------------------------- hashing */

static uint64_t hash_seed;

static inline uint64_t
read64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint64_t
mix(uint64_t a, uint64_t b)
{
    __uint128_t r = (__uint128_t)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* wyhash-like: 8 bytes a step folded by a 128-bit multiply, seeded per process */
static uint64_t
hash_bytes(const unsigned char *p, size_t n)
{
    uint64_t h = hash_seed ^ (n * 0x9E3779B97F4A7C15ULL);
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        h = mix(h ^ read64(p + i), 0xA0761D6478BD642FULL);
    if (i < n) {
        uint64_t t = 0;
        memcpy(&t, p + i, n - i);
        h = mix(h ^ t, 0xE7037ED1A0B428DBULL);
    }
    return mix(h ^ 0x8EBC6AF09C88C6E3ULL, 0x589965CC75374CC3ULL ^ n);
}

/* ---------------------------------------------------------------- templates */

typedef struct {
    unsigned char *arena; /* the distinct templates, back to back */
    size_t arena_len, arena_cap;
    size_t *off, *len;    /* per distinct template */
    uint64_t *hash;
    size_t k, k_cap;
    int64_t *slots;       /* code + 1, 0 empty */
    size_t n_slots;       /* a power of two */
} TemplateSet;

static void
tset_free(TemplateSet *t)
{
    free(t->arena);
    free(t->off);
    free(t->len);
    free(t->hash);
    free(t->slots);
}

static int
grow(void **p, size_t *cap, size_t need, size_t item)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 64;
    while (c < need) {
        if (c > SIZE_MAX / 2 / item)
            return -1;
        c *= 2;
    }
    void *q = realloc(*p, c * item);
    if (q == NULL)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int
tset_rehash(TemplateSet *t, size_t n_slots)
{
    int64_t *s = calloc(n_slots, sizeof(int64_t));
    if (s == NULL)
        return -1;
    size_t mask = n_slots - 1;
    for (size_t c = 0; c < t->k; c++) {
        size_t i = (size_t)t->hash[c] & mask;
        while (s[i])
            i = (i + 1) & mask;
        s[i] = (int64_t)c + 1;
    }
    free(t->slots);
    t->slots = s;
    t->n_slots = n_slots;
    return 0;
}

/* the code of the template at arena[arena_len:arena_len + n] (added when new); -1 when out of memory */
static int64_t
tset_code(TemplateSet *t, size_t n)
{
    const unsigned char *p = t->arena + t->arena_len;
    uint64_t h = hash_bytes(p, n);
    size_t mask = t->n_slots - 1;
    size_t i = (size_t)h & mask;
    while (t->slots[i]) {
        size_t c = (size_t)(t->slots[i] - 1);
        if (t->hash[c] == h && t->len[c] == n && memcmp(t->arena + t->off[c], p, n) == 0)
            return (int64_t)c;
        i = (i + 1) & mask;
    }
    if (t->k + 1 > t->k_cap) {
        size_t cap = t->k_cap, cap2 = t->k_cap, cap3 = t->k_cap;
        if (grow((void **)&t->off, &cap, t->k + 1, sizeof(size_t)) ||
            grow((void **)&t->len, &cap2, t->k + 1, sizeof(size_t)) ||
            grow((void **)&t->hash, &cap3, t->k + 1, sizeof(uint64_t)))
            return -1;
        t->k_cap = cap < cap2 ? (cap < cap3 ? cap : cap3) : (cap2 < cap3 ? cap2 : cap3);
    }
    size_t c = t->k++;
    t->off[c] = t->arena_len;
    t->len[c] = n;
    t->hash[c] = h;
    t->arena_len += n;
    t->slots[i] = (int64_t)c + 1;
    if (t->k * 2 > t->n_slots && tset_rehash(t, t->n_slots * 2))
        return -1;
    return (int64_t)c;
}

/* The template of the line p[0:len] written at out (room for len + 32 bytes); its length. prev_mark: whether the
   last byte kept so far was a mark (a run of marks goes on across dropped bytes). */
static inline size_t
template_tail(const unsigned char *p, size_t len, unsigned char *out, size_t k, int prev_mark)
{
    for (const unsigned char *e = p + len; p < e; p++) {
        unsigned char c = *p;
        unsigned char cls = TCLASS[c];
        int num = cls == 1;
        out[k] = num ? MARK : c;
        k += (cls == 2) | (num & !prev_mark);
        prev_mark = num | (prev_mark & (cls == 0));
    }
    return k;
}

#ifdef __SSE2__
#include <emmintrin.h>

/* the bytes of v that are number characters (or the mark \x01) */
static inline __m128i
number_bytes(__m128i v)
{
    __m128i d = _mm_cmplt_epi8(_mm_xor_si128(_mm_sub_epi8(v, _mm_set1_epi8('0')), _mm_set1_epi8((char)0x80)),
                               _mm_set1_epi8((char)(10 ^ 0x80)));
    __m128i o = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')), _mm_cmpeq_epi8(v, _mm_set1_epi8('+')));
    o = _mm_or_si128(o, _mm_cmpeq_epi8(v, _mm_set1_epi8('-')));
    o = _mm_or_si128(o, _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('e')));
    o = _mm_or_si128(o, _mm_cmpeq_epi8(v, _mm_set1_epi8(MARK)));
    return _mm_or_si128(d, o);
}

/* 16 bytes a step: a chunk of ASCII bytes (no \x02) is its marks blended in, then written as the runs of bytes it
   keeps (a mark right after a mark is the only byte dropped); any other chunk byte by byte. Bytes up to limit may
   be read (past the line: masked off). */
static size_t
template_line(const unsigned char *p, size_t len, const unsigned char *limit, unsigned char *out)
{
    size_t k = 0, i = 0;
    unsigned prev = 0; /* the last kept byte was a mark */
    unsigned char tmp[32];
    memset(tmp + 16, 0, 16);
    while (i < len && p + i + 16 <= limit) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
        size_t n = len - i < 16 ? len - i : 16;
        unsigned valid = n == 16 ? 0xFFFFu : (1u << n) - 1;
        unsigned odd = ((unsigned)_mm_movemask_epi8(v) |
                        (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(2)))) & valid;
        if (odd) {
            k = template_tail(p + i, n, out, k, (int)prev);
            /* the state after the chunk: the last byte that counts (not >= 128) */
            size_t j = n;
            while (j && p[i + j - 1] >= 128)
                j--;
            if (j)
                prev = TCLASS[p[i + j - 1]] == 1;
            i += n;
            continue;
        }
        __m128i num = number_bytes(v);
        unsigned m = (unsigned)_mm_movemask_epi8(num) & valid;
        unsigned dup = m & ((m << 1) | prev);
        unsigned keep = ~dup & valid;
        __m128i o = _mm_or_si128(_mm_andnot_si128(num, v), _mm_and_si128(num, _mm_set1_epi8(MARK)));
        if (keep == 0xFFFFu) {
            _mm_storeu_si128((__m128i *)(out + k), o);
            k += 16;
        } else {
            _mm_storeu_si128((__m128i *)tmp, o);
            while (keep) {
                unsigned a = (unsigned)__builtin_ctz(keep);
                unsigned run = (unsigned)__builtin_ctz(~(keep >> a)); /* keep < 2**16: a zero bit above */
                _mm_storeu_si128((__m128i *)(out + k), _mm_loadu_si128((const __m128i *)(tmp + a)));
                k += run;
                keep &= ~((1u << (a + run)) - 1);
            }
        }
        if (n)
            prev = (m >> (n - 1)) & 1;
        i += n;
    }
    return template_tail(p + i, len - i, out, k, (int)prev);
}
#else
static size_t
template_line(const unsigned char *p, size_t len, const unsigned char *limit, unsigned char *out)
{
    (void)limit;
    return template_tail(p, len, out, 0, 0);
}
#endif

/* the codes of the lines of data[0:size] (*n_lines of them, in *codes, malloc'ed); 0 or -1 (out of memory) */
static int
templates_scan(const unsigned char *data, size_t size, int64_t **codes, size_t *n_lines, TemplateSet *t)
{
    size_t codes_cap = 0;
    if (tset_rehash(t, 1024) || grow((void **)&t->arena, &t->arena_cap, 4096, 1))
        return -1;
    size_t line = 0, at = 0;
    for (;;) {
        const unsigned char *nl = memchr(data + at, '\n', size - at);
        size_t end = nl ? (size_t)(nl - data) : size;
        size_t len = end - at;
        if (t->arena_len + len + 32 > t->arena_cap &&
            grow((void **)&t->arena, &t->arena_cap, t->arena_len + len + 32, 1))
            return -1;
        if (line + 1 > codes_cap && grow((void **)codes, &codes_cap, line + 1, sizeof(int64_t)))
            return -1;
        size_t k = template_line(data + at, len, data + size, t->arena + t->arena_len);
        int64_t code = tset_code(t, k);
        if (code < 0)
            return -1;
        (*codes)[line++] = code;
        if (nl == NULL)
            break;
        at = end + 1;
    }
    *n_lines = line;
    return 0;
}

static PyObject *
kernel_templates(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!PyBytes_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "templates() takes bytes (the lines joined by \\n), not %.100s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    const unsigned char *data = (const unsigned char *)PyBytes_AS_STRING(arg);
    size_t size = (size_t)PyBytes_GET_SIZE(arg);
    TemplateSet t = {0};
    int64_t *codes = NULL;
    size_t n = 0;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    failed = templates_scan(data, size, &codes, &n, &t);
    Py_END_ALLOW_THREADS
    PyObject *codes_obj = NULL, *uniques = NULL, *result = NULL;
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    codes_obj = PyBytes_FromStringAndSize((const char *)codes, (Py_ssize_t)(n * sizeof(int64_t)));
    if (codes_obj == NULL)
        goto done;
    uniques = PyList_New((Py_ssize_t)t.k);
    if (uniques == NULL)
        goto done;
    for (size_t c = 0; c < t.k; c++) {
        PyObject *b = PyBytes_FromStringAndSize((const char *)t.arena + t.off[c], (Py_ssize_t)t.len[c]);
        if (b == NULL)
            goto done;
        PyList_SET_ITEM(uniques, (Py_ssize_t)c, b);
    }
    result = PyTuple_Pack(2, codes_obj, uniques);
done:
    Py_XDECREF(codes_obj);
    Py_XDECREF(uniques);
    free(codes);
    tset_free(&t);
    return result;
}

/* line_ends(joined) -> bytes: the end of each line of joined (int64: the offset of its b"\n", len(joined) for the
   last line), as many as joined.split(b"\n") has lines */
static PyObject *
kernel_line_ends(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!PyBytes_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "line_ends() takes bytes (the lines joined by \\n), not %.100s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    const unsigned char *data = (const unsigned char *)PyBytes_AS_STRING(arg);
    size_t size = (size_t)PyBytes_GET_SIZE(arg);
    int64_t *ends = NULL;
    size_t n = 0, cap = 0;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    size_t i = 0;
#ifdef __SSE2__
    /* 16 bytes a step, each newline a bit (short lines: no call per line) */
    for (; i + 16 <= size && !failed; i += 16) {
        unsigned m = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(data + i)), _mm_set1_epi8('\n')));
        if (m && n + 16 > cap && grow((void **)&ends, &cap, n + 16, sizeof(int64_t)))
            failed = 1;
        for (; m && !failed; m &= m - 1)
            ends[n++] = (int64_t)(i + (size_t)__builtin_ctz(m));
    }
#endif
    for (; i < size && !failed; i++)
        if (data[i] == '\n') {
            if (n + 1 > cap && grow((void **)&ends, &cap, n + 1, sizeof(int64_t)))
                failed = 1;
            else
                ends[n++] = (int64_t)i;
        }
    if (!failed && n + 1 > cap && grow((void **)&ends, &cap, n + 1, sizeof(int64_t)))
        failed = 1;
    if (!failed)
        ends[n++] = (int64_t)size; /* the last line ends at the text's end */
    Py_END_ALLOW_THREADS
    PyObject *out = failed ? PyErr_NoMemory() : PyBytes_FromStringAndSize((const char *)ends, (Py_ssize_t)(n * 8));
    free(ends);
    return out;
}

/* the bytes and size of a bytes argument; NULL, with a TypeError naming the function, for anything else */
static const unsigned char *
bytes_arg(PyObject *arg, const char *fn, size_t *size)
{
    if (!PyBytes_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s() takes bytes, not %.100s", fn, Py_TYPE(arg)->tp_name);
        return NULL;
    }
    *size = (size_t)PyBytes_GET_SIZE(arg);
    return (const unsigned char *)PyBytes_AS_STRING(arg);
}

/* ---------------------------------------------------------------- rewrites at a trigger byte */

/* What replaces a match that starts at data[k] (the trigger byte): written at out[*o], *o moved on; the index right
   after the match comes back, or k when there is none there (the trigger byte is then kept as it is). */
typedef size_t (*MatchAt)(const unsigned char *data, size_t size, size_t k, unsigned char *out, size_t *o);

/* data rewritten at each `trigger` byte (found by memchr) by `at`, left to right, the scan going on after each
   match: written straight into the result, which holds at most `cap` bytes (the caller's bound for its matches);
   data itself when nothing matched. The GIL is released while it scans. Linear when `at` looks a bounded way
   ahead. */
static PyObject *
rewrite_at(PyObject *arg, const char *fn, unsigned char trigger, size_t (*cap)(size_t), MatchAt at)
{
    size_t size;
    const unsigned char *data = bytes_arg(arg, fn, &size);
    if (data == NULL)
        return NULL;
    if (memchr(data, trigger, size) == NULL) {
        Py_INCREF(arg);
        return arg;
    }
    size_t room = cap(size);
    if (room > (size_t)PY_SSIZE_T_MAX)
        return PyErr_NoMemory();
    PyObject *result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)room);
    if (result == NULL)
        return NULL;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(result);
    size_t o = 0, i = 0;
    int changed = 0;
    Py_BEGIN_ALLOW_THREADS
    while (i < size) {
        const unsigned char *p = memchr(data + i, trigger, size - i);
        size_t k = p == NULL ? size : (size_t)(p - data);
        memcpy(out + o, data + i, k - i);
        o += k - i;
        if (p == NULL)
            break;
        size_t next = at(data, size, k, out, &o);
        if (next == k) {
            out[o++] = trigger;
            i = k + 1;
        } else {
            changed = 1;
            i = next;
        }
    }
    Py_END_ALLOW_THREADS
    if (!changed) {
        Py_DECREF(result);
        Py_INCREF(arg);
        return arg;
    }
    if (_PyBytes_Resize(&result, (Py_ssize_t)o) < 0)
        return NULL;
    return result;
}

static size_t
same_size(size_t size)
{
    return size;
}

/* cut_bars(data) -> bytes: data with each tqdm bar "%|" + at most 256 bytes that are neither "|" nor "\n" + "|"
   written "%||", leftmost first, the scan going on after each bar: what re.sub(rb"%\|[^|\n]{0,256}+\|", b"%||")
   makes (lines.py keeps that pattern as the reference). Linear: each byte is looked at at most twice (the look
   ahead of a "%|" that is no bar stops at 256 bytes, a newline or a "|", and the scan resumes right after the "%"). */
#define BAR_MAX 256
static size_t
bar_at(const unsigned char *data, size_t size, size_t k, unsigned char *out, size_t *o)
{
    if (k + 1 >= size || data[k + 1] != '|')
        return k;
    size_t lim = k + 2 + BAR_MAX < size ? k + 2 + BAR_MAX : size;
    size_t j = k + 2;
    while (j < lim && data[j] != '|' && data[j] != '\n')
        j++;
    if (j >= size || data[j] != '|')
        return k;
    memcpy(out + *o, "%||", 3); /* at most 256 bytes of bar, then its closing "|" */
    *o += 3;
    return j + 1;
}

static PyObject *
kernel_cut_bars(PyObject *self, PyObject *arg)
{
    (void)self;
    return rewrite_at(arg, "cut_bars", '%', same_size, bar_at);
}

/* break_glued(data) -> bytes: a bar redrawn right after the last one's "...it/s]" without a carriage return
   ("]  38%||", bars already cut) put on a line of its own: what re.sub(rb"\]( {1,3}+\d{1,3}+%\|\|)", rb"]\n\1")
   makes (lines.GLUED_BAR). Linear: each "]" looks at most 8 bytes ahead. */
static size_t
glued_at(const unsigned char *data, size_t size, size_t k, unsigned char *out, size_t *o)
{
    size_t j = k + 1, spaces = 0, digits = 0;
    while (j < size && spaces < 3 && data[j] == ' ') {
        j++;
        spaces++;
    }
    while (j < size && digits < 3 && data[j] >= '0' && data[j] <= '9') {
        j++;
        digits++;
    }
    if (!spaces || !digits || j + 3 > size || data[j] != '%' || data[j + 1] != '|' || data[j + 2] != '|')
        return k;
    out[(*o)++] = ']';
    out[(*o)++] = '\n';
    memcpy(out + *o, data + k + 1, j + 3 - (k + 1));
    *o += j + 3 - (k + 1);
    return j + 3;
}

static size_t
glued_size(size_t size)
{
    return size + size / 6 + 16; /* a break per match, a match is 6 bytes at least ("] 1%||") */
}

static PyObject *
kernel_break_glued(PyObject *self, PyObject *arg)
{
    (void)self;
    return rewrite_at(arg, "break_glued", ']', glued_size, glued_at);
}

/* break_records(data) -> bytes: a printed record ("{'loss': ..." or '{"loss": ...') on a line of its own: a newline
   before each "{" followed by a quote, what data.replace(b"{'", b"\n{'").replace(b'{"', b'\n{"') makes. */
static size_t
record_at(const unsigned char *data, size_t size, size_t k, unsigned char *out, size_t *o)
{
    if (k + 1 >= size || (data[k + 1] != '\'' && data[k + 1] != '"'))
        return k;
    out[(*o)++] = '\n';
    out[(*o)++] = '{';
    return k + 1;
}

static size_t
records_size(size_t size)
{
    return size + size / 2 + 1; /* a break per match, a match is 2 bytes ("{'") */
}

static PyObject *
kernel_break_records(PyObject *self, PyObject *arg)
{
    (void)self;
    return rewrite_at(arg, "break_records", '{', records_size, record_at);
}

/* match_events(queue, avail, eps, spe) -> (steps: bytes, head: int, spe: float | None): the records of a block,
   in line order, each taking a progress bar's write event from the queue (bar_steps.match_write_events): the next
   one, unless the record's epoch times the steps per epoch seen so far is nearer a later one (the head moves on
   while the next event is strictly nearer); a record with no event queued before it (avail[r] <= head) takes none (NaN).
   queue: float64, avail: int64 (each 0 <= avail[r] <= len(queue)), eps: float64 (NaN: no epoch), as many as avail.
   Python's float arithmetic, step for step (IEEE doubles, no reordering): the answer is the Python walk's. */
static PyObject *
kernel_match_events(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer qb = {0}, ab = {0}, eb = {0};
    PyObject *spe_obj;
    if (!PyArg_ParseTuple(args, "y*y*y*O:match_events", &qb, &ab, &eb, &spe_obj))
        return NULL;
    PyObject *result = NULL;
    double *steps = NULL;
    if (qb.len % 8 || ab.len % 8 || eb.len % 8 || ab.len != eb.len) {
        PyErr_SetString(PyExc_ValueError, "match_events: queue, avail and eps must be 8-byte arrays, avail and eps "
                                          "of one length");
        goto done;
    }
    int has_spe = spe_obj != Py_None;
    double spe = 0.0;
    if (has_spe) {
        spe = PyFloat_AsDouble(spe_obj);
        if (spe == -1.0 && PyErr_Occurred())
            goto done;
    }
    const double *q = (const double *)qb.buf;
    const int64_t *avail = (const int64_t *)ab.buf;
    const double *eps = (const double *)eb.buf;
    size_t nq = (size_t)qb.len / 8, n = (size_t)ab.len / 8;
    for (size_t r = 0; r < n; r++)
        if (avail[r] < 0 || (uint64_t)avail[r] > nq) {
            PyErr_Format(PyExc_ValueError, "match_events: avail[%zu] = %lld is outside 0 .. %zu (the queue's length)",
                         r, (long long)avail[r], nq);
            goto done;
        }
    steps = malloc(n ? n * sizeof(double) : 1);
    if (steps == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    size_t head = 0;
    Py_BEGIN_ALLOW_THREADS
    for (size_t r = 0; r < n; r++) {
        size_t av = (size_t)avail[r];
        if (av <= head) {
            steps[r] = Py_NAN; /* no event written yet */
            continue;
        }
        double e = eps[r];
        if (has_spe && spe != 0.0 && e > 0) { /* Python: "if spe and e > 0" (NaN is true) */
            double want = e * spe;
            while (av - head > 1 && fabs(q[head + 1] - want) < fabs(q[head] - want))
                head++;
        }
        double step = q[head++];
        steps[r] = step;
        if (e > 0 && step > 0) {
            spe = step / e;
            has_spe = 1;
        }
    }
    Py_END_ALLOW_THREADS
    {
        PyObject *sb = PyBytes_FromStringAndSize((const char *)steps, (Py_ssize_t)(n * sizeof(double)));
        if (sb != NULL) {
            if (has_spe)
                result = Py_BuildValue("(Nnd)", sb, (Py_ssize_t)head, spe);
            else
                result = Py_BuildValue("(NnO)", sb, (Py_ssize_t)head, Py_None);
        }
    }
done:
    free(steps);
    PyBuffer_Release(&qb);
    PyBuffer_Release(&ab);
    PyBuffer_Release(&eb);
    return result;
}

/* mask_words(data) -> bytes: the nan/inf words that stand alone written as numbers, what templates.MASKS make
   (re.sub of each of infinity, Infinity, inf, Inf, INF -> 9e999 and nan, NaN, NAN -> the NaN mark +.+, one after
   another, each "word(?<![A-Za-z_]word)(?:\.0++)?+(?![A-Za-z_0-9])"): no letter or _ before the word, then ".0..."
   taken whole if there, then no letter, _ or digit. One scan, the longer word tried first at a place (a rewritten
   word is never next to a letter, so one after another and all at once are the same). data itself when nothing
   changes. */
static inline int
word_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static size_t
mask_word_at(const unsigned char *data, size_t size, size_t i, const char **repl, size_t *repl_len)
{
    static const char *const words[] = {"infinity", "Infinity", "inf", "Inf", "INF", "nan", "NaN", "NAN"};
    static const size_t lens[] = {8, 8, 3, 3, 3, 3, 3, 3};
    if (i > 0 && word_char(data[i - 1]))
        return 0;
    for (size_t w = 0; w < 8; w++) {
        size_t n = lens[w];
        if (i + n > size || memcmp(data + i, words[w], n) != 0)
            continue;
        size_t end = i + n;
        if (end + 1 < size && data[end] == '.' && data[end + 1] == '0') {
            end += 2;
            while (end < size && data[end] == '0')
                end++;
        }
        if (end < size && (word_char(data[end]) || (data[end] >= '0' && data[end] <= '9')))
            return 0; /* possessive: no shorter word and no shorter ".0" is tried (the pattern cannot backtrack) */
        *repl = w < 5 ? "9e999" : "+.+";
        *repl_len = w < 5 ? 5 : 3;
        return end - i;
    }
    return 0;
}

static PyObject *
kernel_mask_words(PyObject *self, PyObject *arg)
{
    (void)self;
    size_t size;
    const unsigned char *data = bytes_arg(arg, "mask_words", &size);
    if (data == NULL)
        return NULL;
    size_t cap = size + 2 * (size / 3) + 16; /* "inf" (3 bytes) -> "9e999" (5): at most 2 more per 3 */
    unsigned char *out = NULL;
    size_t o = 0, i = 0, done = 0, changed = 0;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    while (i < size) {
#ifdef __SSE2__
        /* 16 places a step: a word can start only where three bytes spell nan, NaN, NAN, inf, Inf or INF */
        while (i + 18 <= size) {
            __m128i b0 = _mm_loadu_si128((const __m128i *)(data + i));
            __m128i b1 = _mm_loadu_si128((const __m128i *)(data + i + 1));
            __m128i b2 = _mm_loadu_si128((const __m128i *)(data + i + 2));
            __m128i n0 = _mm_cmpeq_epi8(b0, _mm_set1_epi8('n')), N0 = _mm_cmpeq_epi8(b0, _mm_set1_epi8('N'));
            __m128i n2 = _mm_cmpeq_epi8(b2, _mm_set1_epi8('n')), N2 = _mm_cmpeq_epi8(b2, _mm_set1_epi8('N'));
            __m128i a1 = _mm_cmpeq_epi8(b1, _mm_set1_epi8('a')), A1 = _mm_cmpeq_epi8(b1, _mm_set1_epi8('A'));
            __m128i nan = _mm_or_si128(_mm_and_si128(_mm_and_si128(n0, a1), n2),
                                       _mm_and_si128(_mm_and_si128(N0, _mm_or_si128(a1, A1)), N2));
            __m128i i0 = _mm_or_si128(_mm_cmpeq_epi8(b0, _mm_set1_epi8('i')), _mm_cmpeq_epi8(b0, _mm_set1_epi8('I')));
            __m128i inf = _mm_and_si128(_mm_and_si128(i0, _mm_cmpeq_epi8(b1, _mm_set1_epi8('n'))),
                                        _mm_cmpeq_epi8(b2, _mm_set1_epi8('f')));
            __m128i INF = _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(b0, _mm_set1_epi8('I')),
                                                      _mm_cmpeq_epi8(b1, _mm_set1_epi8('N'))),
                                        _mm_cmpeq_epi8(b2, _mm_set1_epi8('F')));
            unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(nan, inf), INF));
            if (m) {
                i += (size_t)__builtin_ctz(m);
                break;
            }
            i += 16;
        }
        if (i >= size)
            break;
#endif
        unsigned char c = data[i];
        if (c != 'n' && c != 'N' && c != 'i' && c != 'I') {
            i++;
            continue;
        }
        const char *repl;
        size_t repl_len;
        size_t len = mask_word_at(data, size, i, &repl, &repl_len);
        if (!len) {
            i++;
            continue;
        }
        if (out == NULL && (out = malloc(cap)) == NULL) {
            failed = 1;
            break;
        }
        memcpy(out + o, data + done, i - done);
        o += i - done;
        memcpy(out + o, repl, repl_len);
        o += repl_len;
        i += len;
        done = i;
        changed++;
    }
    Py_END_ALLOW_THREADS
    if (failed)
        return PyErr_NoMemory();
    if (!changed) {
        Py_INCREF(arg);
        return arg;
    }
    memcpy(out + o, data + done, size - done);
    o += size - done;
    PyObject *result = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)o);
    free(out);
    return result;
}

/* strip_ansi(data) -> bytes: data without terminal escape codes, what lines.ANSI's substitution by nothing makes:
   ESC [ then at most 64 parameter bytes (0x30-0x3f), at most 16 intermediates (0x20-0x2f), an optional final byte
   (0x40-0x7e); ESC ] then at most 512 bytes that are not BEL, ESC or a newline, then an optional BEL or ESC \;
   else ESC and an optional printable byte. Possessive, left to right, each byte looked at once. data itself when
   it holds no ESC. */
static size_t
ansi_at(const unsigned char *data, size_t size, size_t k, unsigned char *out, size_t *o)
{
    (void)out;
    (void)o;
    size_t j = k + 1;
    if (j < size && data[j] == '[') {
        j++;
        size_t lim = j + 64;
        while (j < size && j < lim && data[j] >= 0x30 && data[j] <= 0x3f)
            j++;
        lim = j + 16;
        while (j < size && j < lim && data[j] >= 0x20 && data[j] <= 0x2f)
            j++;
        if (j < size && data[j] >= 0x40 && data[j] <= 0x7e)
            j++;
    } else if (j < size && data[j] == ']') {
        j++;
        size_t lim = j + 512;
        while (j < size && j < lim && data[j] != 0x07 && data[j] != 0x1b && data[j] != '\n')
            j++;
        if (j < size && data[j] == 0x07)
            j++;
        else if (j + 1 < size && data[j] == 0x1b && data[j + 1] == '\\')
            j += 2;
    } else if (j < size && data[j] >= 0x20 && data[j] <= 0x7e) {
        j++;
    }
    return j; /* an escape code always matches: at least its ESC goes */
}

static PyObject *
kernel_strip_ansi(PyObject *self, PyObject *arg)
{
    (void)self;
    return rewrite_at(arg, "strip_ansi", 0x1b, same_size, ansi_at);
}

/* line_breaks(data) -> (bytes, nuls): each line break a terminal log holds as one "\n", what
   lines.line_breaks_reference makes, and the NUL bytes counted (a crash's block of them is said): "\r\n" one break, a run of backspaces (Keras' meter erasing itself) a break and an empty line ("\n\n"),
   every other C0 control byte but \t, \n and ESC, and DEL, one break. data itself when it holds none of them (a
   16-byte scan). Linear; the output at most twice the input (a lone backspace is two bytes). */
static inline int
is_break(unsigned char c)
{
    return (c < 32 && c != '\t' && c != '\n' && c != 0x1b) || c == 0x7f;
}

#ifdef __SSE2__
static inline unsigned
break_mask(__m128i v)
{
    __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(31)), v); /* v <= 31 */
    __m128i kept = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
                                             _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8(0x1b)));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_andnot_si128(kept, low),
                                                    _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f))));
}
#endif

/* one break at data[i] written to out[o]: i and o moved past it, a NUL counted */
static inline void
write_break(const unsigned char *data, size_t size, size_t *i, unsigned char *out, size_t *o, size_t *nuls)
{
    size_t k = *i;
    *nuls += data[k] == 0;
    if (data[k] == '\r' && k + 1 < size && data[k + 1] == '\n') {
        out[(*o)++] = '\n';
        k += 2;
    } else if (data[k] == 0x08) {
        while (k < size && data[k] == 0x08)
            k++;
        out[(*o)++] = '\n';
        out[(*o)++] = '\n';
    } else {
        out[(*o)++] = '\n';
        k++;
    }
    *i = k;
}

static PyObject *
kernel_line_breaks(PyObject *self, PyObject *arg)
{
    (void)self;
    size_t size;
    const unsigned char *data = bytes_arg(arg, "line_breaks", &size);
    if (data == NULL)
        return NULL;
    size_t first = 0;
    Py_BEGIN_ALLOW_THREADS
#ifdef __SSE2__
    for (; first + 16 <= size; first += 16) {
        unsigned m = break_mask(_mm_loadu_si128((const __m128i *)(data + first)));
        if (m) {
            first += (unsigned)__builtin_ctz(m);
            break;
        }
    }
    if (first + 16 > size)
#endif
        while (first < size && !is_break(data[first]))
            first++;
    Py_END_ALLOW_THREADS
    if (first == size)
        return Py_BuildValue("(On)", arg, (Py_ssize_t)0);
    if (size > (size_t)PY_SSIZE_T_MAX / 2)
        return PyErr_NoMemory();
    /* written straight into the result (no copy after): twice the input reserved, only the pages written are
       touched, the rest given back by the resize */
    PyObject *result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(2 * size));
    if (result == NULL)
        return NULL;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(result);
    memcpy(out, data, first);
    size_t o = first, i = first, nuls = 0;
    Py_BEGIN_ALLOW_THREADS
    write_break(data, size, &i, out, &o, &nuls);
#ifdef __SSE2__
    /* 16 bytes stored a step (o + 16 <= 2 * i + 16 <= 2 * size: each byte read is at most two written), o moved
       past the bytes before the step's first break, that break written */
    while (i + 16 <= size) {
        __m128i v = _mm_loadu_si128((const __m128i *)(data + i));
        _mm_storeu_si128((__m128i *)(out + o), v);
        unsigned m = break_mask(v);
        if (!m) {
            i += 16;
            o += 16;
            continue;
        }
        unsigned b = (unsigned)__builtin_ctz(m);
        i += b;
        o += b;
        write_break(data, size, &i, out, &o, &nuls);
    }
#endif
    while (i < size) {
        if (is_break(data[i]))
            write_break(data, size, &i, out, &o, &nuls);
        else
            out[o++] = data[i++];
    }
    Py_END_ALLOW_THREADS
    if (_PyBytes_Resize(&result, (Py_ssize_t)o) < 0)
        return NULL;
    return Py_BuildValue("(Nn)", result, (Py_ssize_t)nuls);
}

/* keras_bars(data) -> bytes: each Keras 2 bar "[" + 2 to 256 of "=", ">", "." + "]" written "[]", leftmost first,
   the scan going on after each bar: what re.sub(rb"\[[=>.]{2,256}+\]", b"[]") makes (lines.KERAS_BAR). A "["
   followed by a longer run is no bar (the possessive run takes 256 and finds no "]"). data itself when it holds no
   bar. Linear: a run is looked at from its "[" only, and holds no "[". */
#define KERAS_BAR_MAX 256
static size_t
keras_bar_at(const unsigned char *data, size_t size, size_t k, unsigned char *out, size_t *o)
{
    size_t j = k + 1, lim = k + 1 + KERAS_BAR_MAX < size ? k + 1 + KERAS_BAR_MAX : size;
    while (j < lim && (data[j] == '=' || data[j] == '>' || data[j] == '.'))
        j++;
    if (j - (k + 1) < 2 || j >= size || data[j] != ']')
        return k;
    out[(*o)++] = '[';
    out[(*o)++] = ']';
    return j + 1;
}

static PyObject *
kernel_keras_bars(PyObject *self, PyObject *arg)
{
    (void)self;
    return rewrite_at(arg, "keras_bars", '[', same_size, keras_bar_at);
}

/* ---------------------------------------------------------------- numbers */

static const double POW10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Eisel-Lemire (as Go's strconv.eiselLemire64): man * 10**e10 correctly rounded, or 0 when it cannot tell (the
   caller then asks PyOS_string_to_double). man != 0. */
static __attribute__((noinline)) int
eisel_lemire(uint64_t man, int64_t e10, int neg, double *out)
{
    if (e10 < POW5_MIN_Q || e10 > POW5_MAX_Q)
        return 0;
    int clz = __builtin_clzll(man);
    man <<= clz;
    uint64_t ret_exp2 = (uint64_t)(((217706 * e10) >> 16) + 64 + 1023) - (uint64_t)clz;
    const uint64_t *pw = POW5_128[e10 - POW5_MIN_Q];
    __uint128_t x = (__uint128_t)man * pw[0];
    uint64_t x_hi = (uint64_t)(x >> 64), x_lo = (uint64_t)x;
    if ((x_hi & 0x1FF) == 0x1FF && x_lo + man < man) {
        __uint128_t y = (__uint128_t)man * pw[1];
        uint64_t y_hi = (uint64_t)(y >> 64), y_lo = (uint64_t)y;
        uint64_t merged_hi = x_hi, merged_lo = x_lo + y_hi;
        if (merged_lo < x_lo)
            merged_hi++;
        if ((merged_hi & 0x1FF) == 0x1FF && merged_lo + 1 == 0 && y_lo + man < man)
            return 0;
        x_hi = merged_hi;
        x_lo = merged_lo;
    }
    uint64_t msb = x_hi >> 63;
    uint64_t ret_man = x_hi >> (msb + 9);
    ret_exp2 -= 1 ^ msb;
    if (x_lo == 0 && (x_hi & 0x1FF) == 0 && (ret_man & 3) == 1)
        return 0;
    ret_man += ret_man & 1;
    ret_man >>= 1;
    if (ret_man >> 53) {
        ret_man >>= 1;
        ret_exp2 += 1;
    }
    if (ret_exp2 - 1 >= 0x7FF - 1)
        return 0;
    uint64_t bits = ret_exp2 << 52 | (ret_man & 0x000FFFFFFFFFFFFFULL);
    if (neg)
        bits |= 0x8000000000000000ULL;
    memcpy(out, &bits, 8);
    return 1;
}

enum { NUM_OK = 0, NUM_BAD = 1, NUM_SLOW = 2 };

/* man * 10**e10, signed, when a fast path settles it (man != 0) */
static inline __attribute__((always_inline)) int
to_double(uint64_t man, int64_t e10, int neg, double *out)
{
    /* 1 <= man < 10**20: below 10**-343 rounds to zero (half the least subnormal is 2.47e-324), from 10**310 up
       overflows (float() gives inf) */
    if (e10 < -363 || e10 > 309) {
        *out = neg ? (e10 > 0 ? -Py_HUGE_VAL : -0.0) : (e10 > 0 ? Py_HUGE_VAL : 0.0);
        return 1;
    }
    if (man <= (1ULL << 53) && e10 >= -22 && e10 <= 22) { /* Clinger: both exact, one rounding */
        double v = (double)man;
        v = e10 < 0 ? v / POW10[-e10] : v * POW10[e10];
        *out = neg ? -v : v;
        return 1;
    }
    return eisel_lemire(man, e10, neg, out);
}

static int parse_field_general(const unsigned char *p, size_t n, double *out);

/* The field whose raw bytes are p[0:n] (content bytes and skipped bytes; no separator): its value as float() reads
   its content. NUM_SLOW when it is a float that needs PyOS_string_to_double. The common case first: content bytes
   only, at most 19 mantissa digits, a short exponent; anything else (skipped bytes, the NaN mark, no number, long
   numbers) goes to parse_field_general. */
static inline int
parse_field(const unsigned char *p, size_t n, double *out)
{
    size_t i = 0;
    int neg = 0;
    if (n == 0 || n > 40)
        return n ? parse_field_general(p, n, out) : NUM_BAD;
    while (FCLASS[p[i]] == F_SKIP) /* letters before the number: "bf16" */
        if (++i == n)
            return NUM_BAD;
    if (p[i] == '-' || p[i] == '+') {
        neg = p[i] == '-';
        i++;
    }
    uint64_t man = 0;
    size_t d0 = i;
    unsigned d;
    while (i < n && (d = (unsigned)(p[i] - '0')) < 10) {
        man = man * 10 + d;
        i++;
    }
    size_t nd = i - d0;
    int64_t e10 = 0;
    if (i < n && p[i] == '.') {
        i++;
        size_t f0 = i;
        while (i < n && (d = (unsigned)(p[i] - '0')) < 10) {
            man = man * 10 + d;
            i++;
        }
        e10 = -(int64_t)(i - f0);
        nd += i - f0;
    }
    if (nd == 0 || nd > 19)
        return parse_field_general(p, n, out);
    if (i < n && (p[i] | 0x20) == 'e') {
        i++;
        int eneg = 0;
        if (i < n && (p[i] == '-' || p[i] == '+')) {
            eneg = p[i] == '-';
            i++;
        }
        size_t x0 = i;
        int64_t ev = 0;
        while (i < n && (d = (unsigned)(p[i] - '0')) < 10 && i - x0 < 7) {
            ev = ev * 10 + d;
            i++;
        }
        if (i == x0 || i - x0 > 6)
            return parse_field_general(p, n, out);
        e10 += eneg ? -ev : ev;
    }
    while (i < n && FCLASS[p[i]] == F_SKIP) /* letters after it: "1.25z", "216ms" */
        i++;
    if (i != n)
        return parse_field_general(p, n, out);
    if (man == 0) {
        *out = neg ? -0.0 : 0.0;
        return NUM_OK;
    }
    return to_double(man, e10, neg, out) ? NUM_OK : NUM_SLOW;
}

static int
parse_field_general(const unsigned char *p, size_t n, double *out)
{
    size_t i = 0;
#define NEXT() do { while (i < n && FCLASS[p[i]] == F_SKIP) i++; } while (0)
    NEXT();
    if (i == n)
        return NUM_BAD;
    /* the NaN mark "+.+" */
    {
        size_t j = i;
        unsigned char m[3];
        int got = 0;
        while (j < n && got < 4) {
            if (FCLASS[p[j]] != F_SKIP) {
                if (got < 3)
                    m[got] = p[j];
                got++;
            }
            j++;
        }
        if (got == 3 && m[0] == '+' && m[1] == '.' && m[2] == '+') {
            *out = Py_NAN;
            return NUM_OK;
        }
    }
    int neg = 0;
    if (p[i] == '+' || p[i] == '-') {
        neg = p[i] == '-';
        i++;
        NEXT();
    }
    uint64_t man = 0;
    int nd = 0;            /* significant digits in man */
    int digits = 0;        /* a mantissa digit seen */
    int many = 0;          /* more than 19 significant digits */
    int64_t e10 = 0;
    while (i < n && p[i] >= '0' && p[i] <= '9') {
        unsigned d = p[i] - '0';
        digits = 1;
        if (man || d) {
            if (nd < 19) {
                man = man * 10 + d;
                nd++;
            } else {
                many = 1;
            }
        }
        i++;
        NEXT();
    }
    if (i < n && p[i] == '.') {
        i++;
        NEXT();
        while (i < n && p[i] >= '0' && p[i] <= '9') {
            unsigned d = p[i] - '0';
            digits = 1;
            if (man || d) {
                if (nd < 19) {
                    man = man * 10 + d;
                    nd++;
                    e10--;
                } else {
                    many = 1;
                }
            } else {
                e10--;
            }
            i++;
            NEXT();
        }
    }
    if (!digits)
        return NUM_BAD;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        NEXT();
        int eneg = 0;
        if (i < n && (p[i] == '+' || p[i] == '-')) {
            eneg = p[i] == '-';
            i++;
            NEXT();
        }
        int edigits = 0;
        int64_t ev = 0;
        while (i < n && p[i] >= '0' && p[i] <= '9') {
            if (ev < 100000000)
                ev = ev * 10 + (p[i] - '0');
            else
                many = 1; /* an exponent this long: PyOS_string_to_double reads it */
            edigits++;
            i++;
            NEXT();
        }
        if (!edigits)
            return NUM_BAD;
        e10 += eneg ? -ev : ev;
    }
    if (i != n)
        return NUM_BAD; /* a character where none may be: "1.2.3", "1e5e", "++1" */
    if (many)
        return NUM_SLOW;
    if (man == 0) {
        *out = neg ? -0.0 : 0.0;
        return NUM_OK;
    }
    return to_double(man, e10, neg, out) ? NUM_OK : NUM_SLOW;
#undef NEXT
}

/* ---------------------------------------------------------------- fields */

typedef struct {
    size_t cell, start, end;
} Slow;

/* float() of the text data[start:end] -- its number characters only when `content_only` (a field's letters are
   skipped) --, for the numbers the fast paths leave (PyOS_string_to_double, float()'s own reader): 0 with *out
   set, 1 when float() refuses it, -1 with an exception set (MemoryError). With the GIL. */
static int
slow_double(const unsigned char *data, size_t start, size_t end, int content_only, double *out)
{
    char small[64];
    size_t len = end - start;
    char *b = len < sizeof small ? small : malloc(len + 1);
    if (b == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    size_t m = 0;
    for (size_t a = start; a < end; a++)
        if (!content_only || FCLASS[data[a]] == F_CONTENT)
            b[m++] = (char)data[a];
    b[m] = 0;
    double v = PyOS_string_to_double(b, NULL, NULL);
    if (b != small)
        free(b);
    if (v == -1.0 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError))
            return -1;
        PyErr_Clear();
        return 1;
    }
    *out = v;
    return 0;
}

typedef struct {
    const unsigned char *data;
    size_t size;
    const unsigned char *starts, *ends; /* int64, possibly unaligned */
    size_t n;
    const int64_t *cols;
    size_t k;
    double *values;
    unsigned char *bad;
    Slow *slow;
    size_t n_slow, slow_cap;
    Py_ssize_t bad_line; /* the first line whose offsets are wrong, or -1 */
    int nomem;
} FieldJob;

#ifdef __SSE2__
/* the separators among the 16 bytes at p (bytes that are no number character, letter, '_' or >= 128) */
static inline unsigned
separator_bits(const unsigned char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i high = _mm_cmplt_epi8(v, _mm_setzero_si128());
    __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
    __m128i alpha = _mm_cmplt_epi8(_mm_xor_si128(_mm_sub_epi8(lower, _mm_set1_epi8('a')), _mm_set1_epi8((char)0x80)),
                                   _mm_set1_epi8((char)(26 ^ 0x80)));
    __m128i digit = _mm_cmplt_epi8(_mm_xor_si128(_mm_sub_epi8(v, _mm_set1_epi8('0')), _mm_set1_epi8((char)0x80)),
                                   _mm_set1_epi8((char)(10 ^ 0x80)));
    __m128i o = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')), _mm_cmpeq_epi8(v, _mm_set1_epi8('+')));
    o = _mm_or_si128(o, _mm_cmpeq_epi8(v, _mm_set1_epi8('-')));
    o = _mm_or_si128(o, _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
    o = _mm_or_si128(_mm_or_si128(o, high), _mm_or_si128(alpha, digit));
    return ~(unsigned)_mm_movemask_epi8(o) & 0xFFFFu;
}
#endif

/* The separators of a line, in order: 16 bytes classified at a time (bytes up to limit may be read; those past
   the line's end are masked off). */
typedef struct {
    const unsigned char *base, *end, *limit;
    unsigned mask; /* the separators of base[0:16] not yet taken */
} Seps;

static inline void
seps_load(Seps *it)
{
    size_t left = (size_t)(it->end - it->base);
    unsigned m = 0;
#ifdef __SSE2__
    if (it->limit - it->base >= 16)
        m = separator_bits(it->base);
    else
#endif
        for (size_t i = 0; i < 16 && i < left; i++)
            m |= (unsigned)(FCLASS[it->base[i]] == F_SEP) << i;
    if (left < 16)
        m &= (1u << left) - 1;
    it->mask = m;
}

static inline void
seps_init(Seps *it, const unsigned char *start, const unsigned char *end, const unsigned char *limit)
{
    it->base = start;
    it->end = end;
    it->limit = limit;
    it->mask = 0;
    if (start < end)
        seps_load(it);
}

/* the next separator, or the line's end when none is left */
static inline const unsigned char *
seps_next(Seps *it)
{
    while (!it->mask) {
        if (it->end - it->base <= 16)
            return it->end;
        it->base += 16;
        seps_load(it);
    }
    unsigned b = (unsigned)__builtin_ctz(it->mask);
    it->mask &= it->mask - 1;
    return it->base + b;
}

static inline int64_t
popcount16(unsigned m)
{
    return POPCOUNT8[m & 0xFF] + POPCOUNT8[m >> 8];
}

/* the n-th next separator (n >= 1), or the line's end when fewer are left */
static inline const unsigned char *
seps_skip(Seps *it, int64_t n)
{
    for (;;) {
        int64_t c = popcount16(it->mask);
        if (c >= n) {
            while (--n)
                it->mask &= it->mask - 1;
            unsigned b = (unsigned)__builtin_ctz(it->mask);
            it->mask &= it->mask - 1;
            return it->base + b;
        }
        n -= c;
        it->mask = 0;
        if (it->end - it->base <= 16)
            return it->end;
        it->base += 16;
        seps_load(it);
    }
}

static void
fields_scan(FieldJob *j)
{
    const unsigned char *data = j->data;
    size_t k = j->k;
    for (size_t r = 0; r < j->n; r++) {
        int64_t s, e;
        memcpy(&s, j->starts + r * 8, 8);
        memcpy(&e, j->ends + r * 8, 8);
        if (s < 0 || e < s || (uint64_t)e > (uint64_t)j->size) {
            j->bad_line = (Py_ssize_t)r;
            return;
        }
        double *vals = j->values + r * k;
        unsigned char *bad = j->bad + r * k;
        size_t c = 0;
        int64_t f = 0; /* the field that starts at p */
        const unsigned char *p = data + s, *end = data + e;
        Seps it;
        seps_init(&it, p, end, data + j->size);
        for (; c < k; c++) {
            if (j->cols[c] > f) { /* to the start of the next wanted field */
                const unsigned char *q = seps_skip(&it, j->cols[c] - f);
                if (q == end)
                    break; /* the line ends before it */
                p = q + 1;
                f = j->cols[c];
            }
            const unsigned char *q = seps_next(&it);
            double v = 0.0;
            int got = parse_field(p, (size_t)(q - p), &v);
            if (got == NUM_OK) {
                vals[c] = v;
                bad[c] = 0;
            } else {
                vals[c] = Py_NAN;
                bad[c] = got == NUM_BAD;
                if (got == NUM_SLOW) {
                    if (grow((void **)&j->slow, &j->slow_cap, j->n_slow + 1, sizeof(Slow))) {
                        j->nomem = 1;
                        return;
                    }
                    j->slow[j->n_slow++] = (Slow){r * k + c, (size_t)(p - data), (size_t)(q - data)};
                }
            }
            if (q == end) {
                c++;
                break;
            }
            p = q + 1;
            f++;
        }
        for (; c < k; c++) { /* fields past the line's last */
            vals[c] = Py_NAN;
            bad[c] = 1;
        }
    }
}

static int
read_buffer(PyObject *obj, Py_buffer *view, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "fields(): %s must be bytes or a contiguous buffer, not %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *
kernel_fields(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *joined, *starts_obj, *ends_obj, *cols_obj;
    if (!PyArg_ParseTuple(args, "SOOO!:fields", &joined, &starts_obj, &ends_obj, &PyTuple_Type, &cols_obj))
        return NULL;
    Py_buffer sv = {0}, ev = {0};
    PyObject *values = NULL, *bad = NULL, *result = NULL;
    int64_t *cols = NULL;
    FieldJob j = {0};
    if (read_buffer(starts_obj, &sv, "starts") < 0)
        return NULL;
    if (read_buffer(ends_obj, &ev, "ends") < 0) {
        PyBuffer_Release(&sv);
        return NULL;
    }
    if (sv.len % 8 || ev.len % 8 || sv.len != ev.len) {
        PyErr_Format(PyExc_ValueError,
                     "fields(): starts and ends must be int64 arrays of one length (got %zd and %zd bytes)",
                     sv.len, ev.len);
        goto done;
    }
    size_t n = (size_t)sv.len / 8;
    Py_ssize_t k = PyTuple_GET_SIZE(cols_obj);
    cols = malloc(((size_t)k + 1) * sizeof(int64_t));
    if (cols == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c = 0; c < k; c++) {
        PyObject *o = PyTuple_GET_ITEM(cols_obj, c);
        if (!PyLong_Check(o)) {
            PyErr_Format(PyExc_ValueError, "fields(): cols[%zd] is %.100s, not an int", c, Py_TYPE(o)->tp_name);
            goto done;
        }
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (v == -1 && PyErr_Occurred())
            goto done;
        if (overflow || v < 0 || v >= (1LL << 20)) {
            PyErr_Format(PyExc_ValueError, "fields(): cols[%zd] = %R is out of range (a field number 0 .. 2**20-1)",
                         c, o);
            goto done;
        }
        if (c && v <= cols[c - 1]) {
            PyErr_Format(PyExc_ValueError,
                         "fields(): cols must be sorted ascending and distinct (cols[%zd] = %lld after %lld)", c, v,
                         (long long)cols[c - 1]);
            goto done;
        }
        cols[c] = v;
    }
    if (k && n > (size_t)PY_SSIZE_T_MAX / 8 / (size_t)k) {
        PyErr_NoMemory();
        goto done;
    }
    values = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * (size_t)k * 8));
    bad = values ? PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * (size_t)k)) : NULL;
    if (bad == NULL)
        goto done;
    j.data = (const unsigned char *)PyBytes_AS_STRING(joined);
    j.size = (size_t)PyBytes_GET_SIZE(joined);
    j.starts = sv.buf;
    j.ends = ev.buf;
    j.n = n;
    j.cols = cols;
    j.k = (size_t)k;
    j.values = (double *)PyBytes_AS_STRING(values);
    j.bad = (unsigned char *)PyBytes_AS_STRING(bad);
    j.bad_line = -1;
    Py_BEGIN_ALLOW_THREADS
    fields_scan(&j);
    Py_END_ALLOW_THREADS
    if (j.nomem) {
        PyErr_NoMemory();
        goto done;
    }
    if (j.bad_line >= 0) {
        int64_t s, e;
        memcpy(&s, j.starts + (size_t)j.bad_line * 8, 8);
        memcpy(&e, j.ends + (size_t)j.bad_line * 8, 8);
        PyErr_Format(PyExc_ValueError,
                     "fields(): line %zd has offsets [%lld, %lld), outside 0 <= start <= end <= %zu (len(joined))",
                     j.bad_line, (long long)s, (long long)e, j.size);
        goto done;
    }
    for (size_t i = 0; i < j.n_slow; i++) { /* the numbers the fast paths could not settle */
        Slow *sl = &j.slow[i];
        double v = 0.0;
        int got = slow_double(j.data, sl->start, sl->end, 1, &v);
        if (got < 0)
            goto done;
        j.values[sl->cell] = got ? Py_NAN : v;
        j.bad[sl->cell] = got == 1;
    }
    result = PyTuple_Pack(2, values, bad);
done:
    Py_XDECREF(values);
    Py_XDECREF(bad);
    free(cols);
    free(j.slow);
    PyBuffer_Release(&sv);
    PyBuffer_Release(&ev);
    return result;
}

/* ---------------------------------------------------------------- module */

/* md_cells(rows, k) -> (starts, ends) | None: the number in each of the k cells of each line of rows, a markdown
   table's numeric rows, as spans (int64 n x k, row-major) for fields(); None when a line is not
   [spaces] "|" then k times ([spaces] [token] [spaces] "|") then [spaces] "\n" (a blank line, another width, a cell
   with two tokens or a byte that is no number character). A token is a run of number characters, or "-" or "@"
   (not logged, "No log" as the caller wrote it: an empty span, as an empty cell). Linear, one pass. */
static PyObject *
kernel_md_cells(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows_obj;
    Py_ssize_t k;
    if (!PyArg_ParseTuple(args, "On:md_cells", &rows_obj, &k))
        return NULL;
    size_t size;
    const unsigned char *data = bytes_arg(rows_obj, "md_cells", &size);
    if (data == NULL)
        return NULL;
    if (k < 1 || k > (1 << 16)) {
        PyErr_Format(PyExc_ValueError, "md_cells(): k = %zd is out of range (1 .. 65536 cells)", k);
        return NULL;
    }
    size_t n = 0;
    for (const unsigned char *p = data, *end = data + size; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        n++;
    if (n && n > (size_t)PY_SSIZE_T_MAX / 8 / (size_t)k)
        return PyErr_NoMemory();
    PyObject *starts = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * (size_t)k * 8));
    PyObject *ends = starts ? PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * (size_t)k * 8)) : NULL;
    if (ends == NULL) {
        Py_XDECREF(starts);
        return NULL;
    }
    int64_t *s_out = (int64_t *)PyBytes_AS_STRING(starts), *e_out = (int64_t *)PyBytes_AS_STRING(ends);
    int ok = 1;
    Py_BEGIN_ALLOW_THREADS
    size_t i = 0, r = 0;
    while (i < size && ok) {
        while (i < size && data[i] == ' ')
            i++;
        if (i >= size || data[i] != '|') {
            ok = 0;
            break;
        }
        i++;
        for (Py_ssize_t c = 0; c < k; c++) {
            while (i < size && data[i] == ' ')
                i++;
            size_t a = i;
            while (i < size && FCLASS[data[i]] == F_CONTENT)
                i++;
            size_t b = i;
            if (b == a && i < size && data[i] == '@') {
                i++;
                a = b = i; /* not logged: no number */
            } else if (b == a + 1 && data[a] == '-') {
                a = b; /* not logged */
            }
            while (i < size && data[i] == ' ')
                i++;
            if (i >= size || data[i] != '|') {
                ok = 0;
                break;
            }
            i++;
            s_out[r * (size_t)k + (size_t)c] = (int64_t)a;
            e_out[r * (size_t)k + (size_t)c] = (int64_t)b;
        }
        if (!ok)
            break;
        while (i < size && data[i] == ' ')
            i++;
        if (i >= size || data[i] != '\n') {
            ok = 0;
            break;
        }
        i++;
        r++;
    }
    Py_END_ALLOW_THREADS
    if (!ok) {
        Py_DECREF(starts);
        Py_DECREF(ends);
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(NN)", starts, ends);
}

#include "_kernel_doc.c"

#include "_kernel_json.c"

#include "_kernel_wandb.c"

static PyMethodDef kernel_methods[] = {
    DOC_METHODS
    {"templates", kernel_templates, METH_O,
     "templates(joined: bytes) -> (codes: bytes, uniques: list[bytes])\n\n"
     "Each line's template (bytes >= 128 dropped, each run of number characters one \\x01 mark), factorised in order "
     "of first appearance; codes are the raw bytes of a native int64 array."},
    {"line_ends", kernel_line_ends, METH_O,
     "line_ends(joined: bytes) -> bytes\n\n"
     "The end of each line of joined (int64: the offset of its \\n; len(joined) for the last line)."},
    {"cut_bars", kernel_cut_bars, METH_O,
     "cut_bars(data: bytes) -> bytes\n\n"
     "data with each tqdm bar (%| then at most 256 bytes, no | or newline, then |) written %||."},
    {"break_glued", kernel_break_glued, METH_O,
     "break_glued(data: bytes) -> bytes\n\n"
     "A newline after each ] followed by 1-3 blanks, 1-3 digits and %|| (a bar redrawn without a carriage return)."},
    {"break_records", kernel_break_records, METH_O,
     "break_records(data: bytes) -> bytes\n\n"
     "A newline before each { followed by a quote (a printed record)."},
    {"match_events", kernel_match_events, METH_VARARGS,
     "match_events(queue, avail, eps, spe) -> (steps: bytes, head: int, spe: float | None)\n\n"
     "The write event each record takes (float64, NaN for none), the queue's head after them, the steps per epoch."},
    {"mask_words", kernel_mask_words, METH_O,
     "mask_words(data: bytes) -> bytes\n\n"
     "The nan/inf words that stand alone written as numbers (templates.MASKS): inf -> 9e999, nan -> +.+."},
    {"strip_ansi", kernel_strip_ansi, METH_O,
     "strip_ansi(data: bytes) -> bytes\n\n"
     "data without terminal escape codes (lines.ANSI)."},
    {"line_breaks", kernel_line_breaks, METH_O,
     "line_breaks(data: bytes) -> (bytes, nuls: int)\n\n"
     "The NUL bytes counted, and each line break as one \\n: \\r\\n one, a run of backspaces two, every other control byte but \\t and ESC one."},
    {"keras_bars", kernel_keras_bars, METH_O,
     "keras_bars(data: bytes) -> bytes\n\n"
     "data with each Keras 2 bar ([ then 2 to 256 of =>. then ]) written []."},
    {"md_cells", kernel_md_cells, METH_VARARGS,
     "md_cells(rows: bytes, k: int) -> (starts: bytes, ends: bytes) | None\n\n"
     "The span of the number in each of the k cells of each markdown row (int64 n x k); None for another line."},
    {"fields", kernel_fields, METH_VARARGS,
     "fields(joined: bytes, starts, ends, cols: tuple[int, ...]) -> (values: bytes, bad: bytes)\n\n"
     "Fields cols of lines joined[starts[i]:ends[i]] (int64 buffers) as float() reads them: float64 n x k and uint8 "
     "n x k (1 where a field holds no number; the NaN mark +.+ is NaN, not bad)."},
    {"json_records", kernel_json_records, METH_VARARGS,
     "json_records(data: bytes, start: int, shapes: tuple, width: int, max_record: int) -> (values: bytes, kinds: "
     "bytes, starts: bytes, which: bytes)\n\n"
     "The flat JSON records of the shapes' key orders from start, up to the first line that is none (_kernel_json.c)."},
    {"history_rows", kernel_history_rows, METH_VARARGS,
     "history_rows(lines: list, after_step: int) -> (kinds: bytes, steps: bytes, names: list[str], first: bytes, "
     "points: list[tuple[bytes, bytes]])\n\n"
     "W&B history rows (each a str holding one flat JSON object) as each metric's points; the rows it leaves are "
     "Python's (_kernel_wandb.c)."},
    {"history_page", kernel_history_page, METH_VARARGS,
     "history_page(text: str, after_step: int) -> None | (kinds, steps, names, first, points, slow: list[str])\n\n"
     "A HistoryPage answer's text ({\"project\": {\"run\": {\"history\": [...]}}}) read as history_rows reads its "
     "lines, the lines it leaves as str; None for any other text (_kernel_wandb.c)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "_kernel", "The text-log engine's bulk steps in C (templates, fields).", -1,
    kernel_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    init_tables();
    uintptr_t addr = (uintptr_t)&hash_seed;
    hash_seed = mix((uint64_t)time(NULL) ^ 0x2D358DCCAA6C78A5ULL, (uint64_t)addr | 1) ^ (uint64_t)clock();
    return PyModule_Create(&kernel_module);
}
