/* dlx._core's bitset representation for small problems (see bits.h): the same
 * search as loop.c's plain loop (Algorithm X: X1..X8 named where they happen),
 * on bitsets of live options and counts of live options per primary item.
 *
 * A level's state, `stride` bytes at r->bits_state + level * stride:
 *
 *   Head   zeros (uncovered primary items with no live option), active
 *          (uncovered primary items)
 *   live   W words: the options not hidden
 *   cnt    NP counts: the live options of each uncovered primary item, COVERED
 *          for covered ones (and for item 0 and the padding); bytes when no item
 *          has more than 254 options (b->narrow), else signed 16-bit numbers
 *
 * and cand (W words per level, r->bits_cand): the options of the item chosen at
 * that level, as its list holds them when X4 covers it; X5 tries them in order
 * (option order is list order: dlx_bits_build declines a table whose lists are
 * not).  The node x[l] recorded for each choice is the option's node in the
 * chosen item, as the links record it, so that solutions, batches' first
 * solutions and the frontier read the same.
 */

#include "core.h"
#include "bits.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct {
    int zeros, active;
    int pad[6];             /* (the live words start 32 bytes in) */
} Head;

#define STATE(r, l) ((Head *)((r)->bits_state + (size_t)(l) * (r)->bits->stride))
#define LIVE(s) ((word *)((char *)(s) + sizeof(Head)))
#define CNT(b, s) ((void *)((char *)(s) + sizeof(Head) + (size_t)(b)->W4 * sizeof(word)))

/* The counts, as bytes (narrow) or 16-bit numbers: the functions below take a
   constant `narrow`, and the loop is compiled once for each. */
#define COVERED8 0xFF
#define COVERED16 0x7FFF
#define COVERED_OF(narrow) ((narrow) ? COVERED8 : COVERED16)

ALWAYS_INLINE int
cnt_get(const void *c, int j, const int narrow)
{
    return narrow ? ((const uint8_t *)c)[j] : ((const int16_t *)c)[j];
}

ALWAYS_INLINE int
cnt_dec(void *c, int j, const int narrow)     /* the count after taking one */
{
    return narrow ? --((uint8_t *)c)[j] : --((int16_t *)c)[j];
}

ALWAYS_INLINE void
cnt_set(void *c, int j, int v, const int narrow)
{
    if (narrow)
        ((uint8_t *)c)[j] = (uint8_t)v;
    else
        ((int16_t *)c)[j] = (int16_t)v;
}
#define CAND(r, l) ((r)->bits_cand + (size_t)(l) * (r)->bits->W)

/* -------------------------------------------------------------- building */

void
dlx_bits_free(Bits *b)
{
    if (b == NULL)
        return;
    PyMem_Free(b->opts);
    PyMem_Free(b->lo);
    PyMem_Free(b->istart);
    PyMem_Free(b->ofirst);
    PyMem_Free(b->prim);
    PyMem_Free(b->cnt0);
    PyMem_Free(b);
}

/* The bitsets of table t, when it has no colours and no bounds, fits the limits
   (bits.h) and lists every item's options in option order; else t->bits stays
   NULL.  -1 on no memory. */
int
dlx_bits_build(TableObject *t)
{
    const int N = t->N, N1 = t->N1, M = t->M, n = t->n_options;
    t->bits = NULL;
    if (t->colored || t->multi || n < 1 || n > BITS_MAX_OPTIONS || N1 < 1)
        return 0;
    const int W = (n + 63) / 64;
    if ((size_t)(N + 1) * (size_t)W * sizeof(word) > BITS_MAX_BYTES)
        return 0;
    for (int j = 1; j <= N; j++)            /* each list in option order */
        for (int x = t->D[j], prev = -1; x != j; x = t->D[x]) {
            if (t->OPT[x] <= prev)
                return 0;
            prev = t->OPT[x];
        }
    Bits *b = (Bits *)PyMem_Calloc(1, sizeof(Bits));
    if (b == NULL)
        return -1;
    b->W = W;
    b->n_options = n;
    b->NP = (N1 + 1 + 31) / 32 * 32;
    b->opts = (word *)PyMem_Calloc((size_t)(N + 1) * W, sizeof(word));
    b->lo = (int *)PyMem_Malloc(2 * ((size_t)N + 1) * sizeof(int));
    b->ofirst = (int *)PyMem_Malloc((3 * (size_t)n + 1) * sizeof(int));
    b->prim = (int *)PyMem_Malloc(((size_t)M + 1) * sizeof(int));
    b->cnt0 = PyMem_Malloc((size_t)b->NP * sizeof(int16_t));
    b->istart = (int *)PyMem_Malloc(((size_t)N + 2 + (size_t)M) * sizeof(int));
    if (b->opts == NULL || b->lo == NULL || b->ofirst == NULL || b->prim == NULL
            || b->cnt0 == NULL || b->istart == NULL) {
        dlx_bits_free(b);
        return -1;
    }
    b->hi = b->lo + (N + 1);
    b->ilist = b->istart + (N + 2);
    b->olen = b->ofirst + n;
    b->pstart = b->olen + n;
    /* options: their nodes and primary items, in layout order */
    int o = 0, p = 0;
    for (int x = N + 2; x < M; x++) {
        if (t->TOP[x] <= 0)
            continue;
        b->ofirst[o] = x;
        b->pstart[o] = p;
        int len = 0;
        for (; t->TOP[x + len] > 0; len++) {
            int j = t->TOP[x + len];
            b->opts[(size_t)j * W + o / 64] |= (word)1 << (o % 64);
            if (j <= N1)
                b->prim[p++] = j;
        }
        b->olen[o] = len;
        x += len;
        o++;
    }
    b->pstart[o] = p;
    long long nodes = 0;
    for (int j = 1; j <= N; j++) {
        const word *m = b->opts + (size_t)j * W;
        int lo = 0, hi = W;
        while (lo < W && m[lo] == 0)
            lo++;
        while (hi > lo && m[hi - 1] == 0)
            hi--;
        b->lo[j] = lo;
        b->hi[j] = hi;
        nodes += t->LEN[j];
    }
    /* an item with fewer options than words to look at: its options as a list */
    for (int j = 0, at = 0; j <= N; j++) {
        b->istart[j] = at;
        if (j >= 1 && t->LEN[j] < b->hi[j] - b->lo[j]) {
            for (int x = t->D[j]; x != j; x = t->D[x])
                b->ilist[at++] = t->OPT[x];
            b->hi[j] = -1;              /* (marks a list) */
        }
        b->istart[j + 1] = at;
    }
    b->lo[0] = b->hi[0] = 0;
    b->narrow = 1;
    for (int j = 1; j <= N1; j++)
        b->narrow &= t->LEN[j] < COVERED8;
    for (int j = 0; j < b->NP; j++)
        cnt_set(b->cnt0, j, j >= 1 && j <= N1 ? t->LEN[j] : COVERED_OF(b->narrow), b->narrow);
    b->zeros0 = t->zeros;
    b->active0 = N1;
    b->W4 = (W + 3) / 4 * 4;                /* (so that the counts are 32-byte aligned) */
    b->stride = sizeof(Head) + (size_t)b->W4 * sizeof(word)
                + (size_t)b->NP * (b->narrow ? 1 : sizeof(int16_t));
    /* Whether they pay, by size and density: a node on the bitsets costs a copy of
       the level's state and a look at every option an item ever had (words or a
       list), where the links touch only the options still live.  So the bitsets
       win on a few hundred options of several items each (the dense workloads of
       bench/tdoku_bench.py, random covers with options of 4 or more items: 0.5x
       to 0.95x the time) and lose where many short options die early (random
       covers of pairs and triples among thousands of options: up to 3.5x; a
       matrix of 4,096 options of 4 items: 1.25x).
       The rule, from those measurements (bench/tdoku_bench.py --generic): at most
       48 words of options, options of 3.5 items or more on average, a state of
       at most 4 KiB. */
    double per_option = (double)nodes / n;
    b->pays = W <= 48 && per_option >= 3.5 && b->stride <= 4096;
    t->bits = b;
    return 0;
}

/* ----------------------------------------------------------- attaching */

/* Run r searches on the bitsets when its table has them and its search is one
   they serve (the rules mrv or first; no cache, no branch and bound), and `want`
   asks for them: 1 always, -1 when they pay ("auto"), 0 never.  Returns 1 when
   attached, 0 when not, -1 on no memory.  Before placing forced options. */
int
dlx_bits_attach(Run *r, int want)
{
    const Bits *b = r->t->bits;
    if (want == 0 || b == NULL || r->memo != NULL || r->bb != NULL
            || (r->heuristic != H_MRV && r->heuristic != H_FIRST) || (want < 0 && !b->pays))
        return 0;
    size_t levels = (size_t)r->depth + 1;
    char *block = (char *)PyMem_Malloc(levels * b->stride + 32
                                       + levels * (size_t)b->W * sizeof(word));
    if (block == NULL)
        return -1;
    r->bits = b;
    r->bits_block = block;
    r->bits_state = (char *)(((uintptr_t)block + 31) & ~(uintptr_t)31);
    r->bits_cand = (word *)(r->bits_state + levels * b->stride);
    dlx_bits_reset(r);
    return 1;
}

void
dlx_bits_detach(Run *r)
{
    PyMem_Free(r->bits_block);
    r->bits_block = NULL;
    r->bits = NULL;
}

/* The state a search starts from, at level 0 (X1: nothing covered). */
void
dlx_bits_reset(Run *r)
{
    const Bits *b = r->bits;
    Head *s = STATE(r, 0);
    word *live = LIVE(s);
    s->zeros = b->zeros0;
    s->active = b->active0;
    for (int w = 0; w < b->W; w++)
        live[w] = ~(word)0;
    if (b->n_options % 64)
        live[b->W - 1] = ((word)1 << (b->n_options % 64)) - 1;
    memcpy(CNT(b, s), b->cnt0, (size_t)b->NP * (b->narrow ? 1 : sizeof(int16_t)));
    r->level = 0;
    r->resume = RESUME_ENTER;
}

/* ------------------------------------------------------------- the dance */

/* Cover item j in state s: hide its live options (each takes one from the count
   of its primary items), and take j out if primary.  Returns the updates the
   links make: 1 + the other nodes of each option hidden. */
ALWAYS_INLINE long long
bits_cover(const Bits *restrict b, Head *restrict s, int j, int N1, const int narrow)
{
    word *restrict live = LIVE(s);
    void *restrict cnt = CNT(b, s);
    const word *restrict m = b->opts + (size_t)j * b->W;
    const int *restrict prim = b->prim, *restrict pstart = b->pstart, *restrict olen = b->olen;
    long long k = 1;
    int zeros = s->zeros;
    if (b->hi[j] < 0) {     /* a few options: look each one up */
        for (int a = b->istart[j], e = b->istart[j + 1]; a < e; a++) {
            const int o = b->ilist[a];
            const word bit = (word)1 << (o % 64);
            if (!(live[o / 64] & bit))
                continue;
            live[o / 64] &= ~bit;
            k += olen[o] - 1;
            for (int q = pstart[o], f = pstart[o + 1]; q < f; q++)
                zeros += cnt_dec(cnt, prim[q], narrow) == 0;
        }
    }
    else for (int w = b->lo[j], hi = b->hi[j]; w < hi; w++) {
        word kill = live[w] & m[w];
        if (kill == 0)
            continue;
        live[w] &= ~kill;
        do {
            int o = w * 64 + __builtin_ctzll(kill);
            kill &= kill - 1;
            k += olen[o] - 1;
            for (int q = pstart[o], e = pstart[o + 1]; q < e; q++)
                zeros += cnt_dec(cnt, prim[q], narrow) == 0;
        } while (kill);
    }
    if (j <= N1) {          /* its count is 0 now, and was counted in zeros once */
        cnt_set(cnt, j, COVERED_OF(narrow), narrow);
        zeros--;
        s->active--;
    }
    s->zeros = zeros;
    return k;
}

/* X3: the first uncovered primary item with the fewest live options (choose_mrv),
   or with the rule first, the first uncovered one.  Some item is uncovered.  The
   counts are 16-byte aligned, a multiple of 32 of them, the extra ones COVERED:
   on x86-64, SSE2 (which every such machine has) takes 16 bytes at a time. */
ALWAYS_INLINE int
bits_choose(const Bits *restrict b, const Head *restrict s, int heuristic, const int narrow)
{
    const void *restrict cnt = CNT(b, s);
    const int NP = b->NP;
#if defined(__SSE2__)
    const __m128i *v = (const __m128i *)cnt;
    const int blocks = narrow ? NP / 16 : NP / 8, per = narrow ? 16 : 8;
    __m128i least;
    if (heuristic == H_MRV) {
        least = _mm_load_si128(v);
        for (int k = 1; k < blocks; k++)
            least = narrow ? _mm_min_epu8(least, _mm_load_si128(v + k))
                           : _mm_min_epi16(least, _mm_load_si128(v + k));
        /* the least of the lanes, in every lane */
        if (narrow) {
            least = _mm_min_epu8(least, _mm_shuffle_epi32(least, 0x4E));
            least = _mm_min_epu8(least, _mm_shuffle_epi32(least, 0xB1));
            least = _mm_min_epu8(least, _mm_shufflelo_epi16(least, 0xB1));
            least = _mm_min_epu8(least, _mm_srli_epi16(least, 8));
            least = _mm_set1_epi8((char)(_mm_cvtsi128_si32(least) & 0xFF));
        }
        else {
            least = _mm_min_epi16(least, _mm_shuffle_epi32(least, 0x4E));
            least = _mm_min_epi16(least, _mm_shuffle_epi32(least, 0xB1));
            least = _mm_min_epi16(least, _mm_shufflelo_epi16(least, 0xB1));
            least = _mm_set1_epi16((short)_mm_extract_epi16(least, 0));
        }
    }
    else
        least = narrow ? _mm_set1_epi8((char)COVERED8) : _mm_set1_epi16(COVERED16);
    const int flip = heuristic == H_MRV ? 0 : 0xFFFF;   /* first: not COVERED */
    for (int k = 0;; k++) {
        __m128i c = _mm_load_si128(v + k);
        int hit = _mm_movemask_epi8(narrow ? _mm_cmpeq_epi8(c, least)
                                           : _mm_cmpeq_epi16(c, least)) ^ flip;
        if (hit)
            return k * per + __builtin_ctz((unsigned)hit) / (narrow ? 1 : 2);
    }
#else
    int least = COVERED_OF(narrow);
    if (heuristic == H_MRV)
        for (int j = 0; j < NP; j++) {
            int c = cnt_get(cnt, j, narrow);
            least = c < least ? c : least;
        }
    for (int j = 0;; j++)
        if (heuristic == H_MRV ? cnt_get(cnt, j, narrow) == least
                               : cnt_get(cnt, j, narrow) != COVERED_OF(narrow))
            return j;
#endif
}

/* The node of option o in item i (the node the links record as x_l), or -1. */
ALWAYS_INLINE int
node_in(const Bits *b, const int *TOP, int o, int i)
{
    for (int q = b->ofirst[o], e = q + b->olen[o]; q < e; q++)
        if (TOP[q] == i)
            return q;
    return -1;
}

/* X5 for the option of node xn: commit (cover) its other items, cyclically from
   the node after xn, in state s, with early failure as commit_option: after each
   cover, when some uncovered primary item has no option left and it is not the
   item of a node still to commit, stop.  Returns the updates, or -1 - the
   updates when it stopped early. */
ALWAYS_INLINE long long
bits_commit_option(const Bits *restrict b, Head *restrict s, const int *TOP, int xn, int o,
                   int N1, const int narrow)
{
    const void *cnt = CNT(b, s);
    const int first = b->ofirst[o], len = b->olen[o];
    long long k = 0;
    const int pos = xn - first;
    for (int step = 1; step < len; step++) {
        int q = first + pos + step - (pos + step >= len ? len : 0);
        k += bits_cover(b, s, TOP[q], N1, narrow);
        if (s->zeros > 0) {
            int e = 0, rest = 0;
            for (int more = step + 1; more < len && rest <= LOOKAHEAD; more++) {
                int j = TOP[first + pos + more - (pos + more >= len ? len : 0)];
                rest++;
                e += j <= N1 && cnt_get(cnt, j, narrow) == 0;
            }
            if (rest <= LOOKAHEAD && s->zeros > e)
                return -1 - k;
        }
    }
    return k;
}

/* ----------------------------------------------------- forced options (X1) */

/* dlx_place_forced on the bitsets: the same outcomes, levels and updates. */
int
dlx_bits_place_forced(Run *r, const int *forced, int n)
{
    const Bits *b = r->bits;
    const int *TOP = r->t->TOP, *OPT = r->OPT, N1 = r->N1, narrow = b->narrow;
    Head *s = STATE(r, 0);
    long long k = 0;
    int level = r->level;
    for (int j = 0; j < n; j++) {
        int f = IDX(forced[j]), o = OPT[f];
        if (level > N1 || !(LIVE(s)[o / 64] >> (o % 64) & 1)) {
            r->level = level;
            return CLASH;
        }
        if (j == n - 1 && s->zeros == 0 && s->active > 0) {
            /* the last one through the item the search would choose here */
            int q = node_in(b, TOP, o, bits_choose(b, s, r->heuristic, narrow));
            if (q >= 0)
                f = q;
        }
        r->x[level] = OFF(f);
        bits_cover(b, s, TOP[f], N1, narrow);
        if (j < n - 1) {
            int first = b->ofirst[o], len = b->olen[o];
            for (int q = first; q < first + len; q++)
                if (q != f)
                    bits_cover(b, s, TOP[q], N1, narrow);
        }
        else if ((k = bits_commit_option(b, s, TOP, f, o, N1, narrow)) < 0) {
            r->updates = -1 - k;        /* the root is a dead end */
            r->level = level;
            return DEAD;
        }
        level++;
    }
    if (level > 0)
        memcpy(STATE(r, level), s, r->bits->stride);
    r->level = level;
    r->updates = k;
    return PLACED;
}

/* -------------------------------------------------------------- the loop */

/* The next option of cand after option o (o = -1: the first), or -1. */
ALWAYS_INLINE int
next_option(const word *cand, int W, int o)
{
    int w = (o + 1) / 64;
    if (w >= W)
        return -1;
    word m = cand[w] & (~(word)0 << ((o + 1) % 64));
    while (m == 0) {
        if (++w == W)
            return -1;
        m = cand[w];
    }
    return w * 64 + __builtin_ctzll(m);
}

/* THE loop on the bitsets: run_core_plain's steps, resumable in the same way;
   compiled twice, for counts in bytes (narrow) and in 16-bit numbers. */
ALWAYS_INLINE int
bits_run_impl(Run *r, const int narrow)
{
    const Bits *b = r->bits;
    const int *TOP = r->t->TOP, *OPT = r->OPT, N1 = r->N1, W = b->W;
    const size_t stride = b->stride;
    int *x = r->x;
    int level = r->level, i = r->i, o;
    long long nodes = r->nodes, updates = r->updates, k;
    const long long budget = r->budget, pause_at = r->pause_at;
    const int base = r->base, heuristic = r->heuristic;
    int why;
    Head *s;

    switch (r->resume) {
    case RESUME_LEAVE:
        goto leave;
    case RESUME_X5:
        goto x5_commit;
    default:
        break;
    }

enter:
    /* X2: enter level `level` */
    s = STATE(r, level);
    if (s->active == 0) {
        r->solutions++;
        if (r->keep_first && r->solutions == 1) {
            memcpy(r->first_x, x, (size_t)level * sizeof(int));
            r->first_len = level;
        }
        if (r->mode == MODE_SOLUTIONS || r->solutions == r->limit) {
            r->resume = RESUME_LEAVE;
            why = R_SOLUTION;
            goto save;
        }
        goto leave;
    }
    /* X3: choose an item i (a primary item with no option left: a dead end) */
    if (s->zeros > 0)
        goto leave;
    i = bits_choose(b, s, heuristic, narrow);
    if (level >= r->depth - 1) {   /* impossible for a valid table */
        why = R_BROKEN;
        goto save;
    }
    /* X4: cover i; its options, as its list holds them, are the level's choices */
    {
        const word *live = LIVE(s), *m = b->opts + (size_t)i * W;
        word *cand = CAND(r, level);
        memset(cand, 0, (size_t)W * sizeof(word));
        if (b->hi[i] < 0)
            for (int a = b->istart[i]; a < b->istart[i + 1]; a++) {
                const int o = b->ilist[a];
                cand[o / 64] |= live[o / 64] & (word)1 << (o % 64);
            }
        else
            for (int w = b->lo[i]; w < b->hi[i]; w++)
                cand[w] = live[w] & m[w];
    }
    r->deg[level] = cnt_get(CNT(b, s), i, narrow);
    updates += bits_cover(b, s, i, N1, narrow);
    o = next_option(CAND(r, level), W, -1);
    goto try_;

leave:
    /* X8: leave level `level` */
    if (level == base) {
        r->resume = RESUME_ENTER;
        why = R_DONE;
        goto save;
    }
    level--;
    /* X6: try again: nothing to undo (the level's state is as X4 left it); the
       next option of i */
    i = TOP[IDX(x[level])];
    o = next_option(CAND(r, level), W, OPT[IDX(x[level])]);

try_:
    if (o < 0)
        goto leave;         /* X7: every option of i has been tried (nothing to uncover) */
    x[level] = OFF(node_in(b, TOP, o, i));
    /* X5: try x_l */
    if (nodes == budget) {
        r->resume = RESUME_X5;    /* not resumable: the search is over */
        why = R_BUDGET;
        goto save;
    }
    nodes++;
    {
        int check = check_due(nodes, updates, pause_at);
        if (check) {
            r->check_reason = check;
            r->resume = RESUME_X5;
            why = R_CHECK;
            goto save;
        }
    }
x5_commit:
    if (r->plen == level + 1)
        r->profile[r->plen++] = 1;
    else
        r->profile[level + 1]++;
    s = (Head *)memcpy((char *)STATE(r, level) + stride, STATE(r, level), stride);
    k = bits_commit_option(b, s, TOP, IDX(x[level]), OPT[IDX(x[level])], N1, narrow);
    if (k < 0) {
        /* early failure: an item outside x_l has no option left: to X6 */
        updates += -1 - k;
        i = TOP[IDX(x[level])];
        o = next_option(CAND(r, level), W, OPT[IDX(x[level])]);
        goto try_;
    }
    updates += k;
    level++;
    goto enter;

save:
    r->level = level;
    r->i = i;
    r->nodes = nodes;
    r->updates = updates;
    return why;
}

NOINLINE int
bits_run_narrow(Run *r)
{
    return bits_run_impl(r, 1);
}

NOINLINE int
bits_run_wide(Run *r)
{
    return bits_run_impl(r, 0);
}

int
dlx_bits_run(Run *r)
{
    return r->bits->narrow ? bits_run_narrow(r) : bits_run_wide(r);
}

/* ---------------------------------------------------- check points, frontier */

/* Knuth's estimate of the fraction of the tree done (search_object.c's explored):
   at each level the k-th of d branches takes (k - 1) / d of what is left there. */
double
dlx_bits_explored(const Run *r)
{
    double done = 0.0, width = 1.0;
    for (int l = r->base; l <= r->level; l++) {
        int d = r->deg[l] > 0 ? r->deg[l] : 1, o = r->OPT[IDX(r->x[l])], k = 1;
        const word *cand = CAND(r, l);
        for (int w = 0; w < o / 64; w++)
            k += __builtin_popcountll(cand[w]);
        k += __builtin_popcountll(cand[o / 64] & (((word)1 << (o % 64)) - 1));
        width *= d;
        done += ((k < d ? k : d) - 1) / width;
    }
    return done + 0.5 / width;
}

/* The option after option o at level l (o = -1: the first), or -1: for the
   frontier, which lists the subtrees a stopped search has not explored. */
int
dlx_bits_sibling(const Run *r, int l, int o)
{
    return next_option(CAND(r, l), r->bits->W, o);
}
