/*
 * choose.h: X3 (M3), the choice of an item, by each rule of dlx/rules.py's table
 * (the enum below follows its order): minimum remaining values (choose_mrv, the
 * scan), first, sharp (dlx2-sharp), weighted (SSXCC/SSMCC's weights), mrv-random
 * (ties and the first option tried drawn at random: the restarts' rule); under
 * bounds, Algorithm M's branching degree (degree_of, choose_bounded and its rules).
 * choose_item and choose_bounded dispatch on the run's rule.  Big problems under
 * mrv keep a tree instead of the scan (tree.h; dance.h's x3_* steps keep it).
 *
 * Included at the end of dance.h, whose types and steps it uses.
 */

#ifndef DLX_CHOOSE_H
#define DLX_CHOOSE_H

/* X3, minimum remaining values: the first item of shortest list, as dlx.search.
   Called only when no uncovered primary item is empty (zeros == 0), so the scan
   can stop at the first item of length 1. */
static inline int
choose_mrv(const int *RL, const char *nd)
{
    int i = RL[0], j = i, s = LEN_OF(nd, OFF(i));
    while (s > 1) {
        j = RL[j];
        if (j == 0)
            break;
        int t = LEN_OF(nd, OFF(j));
        if (t < s) {
            s = t;
            i = j;
        }
    }
    return i;
}

/* The rules of X3, in the order of dlx.rules.RULES (their codes): the table there
   names them and says what each does; each has its chooser here and in dlx.dance. */
enum { H_MRV, H_FIRST, H_SHARP, H_WEIGHTED, H_MRV_RANDOM, H_RULES };

/* Added to the key of an item that is not sharp: more than any LEN (dlx2-sharp). */
#define UNSHARP (1LL << 40)

/* X3, Knuth's dlx2-sharp: minimum remaining values among the items named #..., an
   item that is not sharp winning only with at most one option left; the first on
   ties (dlx.dance.choose_sharp).  Called when no uncovered primary item is empty. */
static inline int
choose_sharp(const int *RL, const char *nd, const unsigned char *sharp)
{
    int best = 0;
    long long key = 0;
    for (int j = RL[0]; j != 0; j = RL[j]) {
        long long n = LEN_OF(nd, OFF(j));
        long long k = n <= 1 || sharp[j] ? n : n + UNSHARP;
        if (best == 0 || k < key) {
            best = j;
            key = k;
            if (key <= 1)
                break;
        }
    }
    return best;
}

/* X3, the weighted choice of Knuth's SSXCC variant (dlx.dance.Weighted): the first
   item with one option left, else the item of least LEN / weight, the first on ties
   (compared as products: exact). */
static inline int
choose_weighted(const int *RL, const char *nd, const long long *wt)
{
    int best = 0;
    long long nb = 0;
    for (int j = RL[0]; j != 0; j = RL[j]) {
        long long n = LEN_OF(nd, OFF(j));
        if (n <= 1)
            return j;
        if (best == 0 || n * wt[best] < nb * wt[j]) {
            best = j;
            nb = n;
        }
    }
    return best;
}

/* (weighted) A dead end: the first uncovered primary item with an empty list gains
   weight (dlx.dance.Weighted.ran_dry). */
static inline void
ran_dry(const int *RL, const char *nd, long long *wt)
{
    int j = RL[0];
    while (j != 0 && LEN_OF(nd, OFF(j)) != 0)
        j = RL[j];
    if (j != 0)
        wt[j]++;
}

/* splitmix64 (Steele, Lea and Flood), as dlx.dance.Rand: the same numbers from the
   same seed on both engines (the random rule, and estimate.c's probes). */
static inline uint64_t
rand_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A uniform number in 0..n-1: draws below 2**64 mod n are rejected (no bias). */
static inline uint64_t
rand_below(uint64_t *state, uint64_t n)
{
    uint64_t low = (0 - n) % n;
    for (;;) {
        uint64_t z = rand_next(state);
        if (z >= low)
            return z % n;
    }
}

/* X3, minimum remaining values with its ties drawn at random (dlx.dance.RandomTies):
   among the items of shortest list, the k-th in the item list, k drawn from *rng;
   an item with one option left is taken at once, with no draw.  Called when no
   uncovered primary item is empty. */
static inline int
choose_random(const int *RL, const char *nd, uint64_t *rng)
{
    int best = RL[0], s = LEN_OF(nd, OFF(best)), ties = 1;
    for (int j = RL[best]; j != 0 && s > 1; j = RL[j]) {
        int n = LEN_OF(nd, OFF(j));
        if (n < s) {
            best = j;
            s = n;
            ties = 1;
        }
        else if (n == s)
            ties++;
    }
    if (s <= 1 || ties == 1)
        return best;
    uint64_t k = rand_below(rng, (uint64_t)ties);
    int j = best;                       /* the k-th tie from the first one on */
    while (LEN_OF(nd, OFF(j)) != s || k > 0) {
        if (LEN_OF(nd, OFF(j)) == s)
            k--;
        j = RL[j];
    }
    return j;
}

/* (H_MRV_RANDOM) X4: the option of item i to try first, drawn at random from r->rng
   (no draw when it has one option): dlx.dance.RandomTies.turn. */
static inline int
random_first(Run *r, int i)
{
    const char *nd = (const char *)r->nd;
    int n = LEN_OF(nd, OFF(i)), x = AT(nd, OFF(i))->d;
    for (uint64_t k = n > 1 ? rand_below(&r->rng, (uint64_t)n) : 0; k > 0; k--)
        x = AT(nd, x)->d;
    return x;
}

/* Make node q the first option of item i's list, keeping the list's cyclic order:
   the header moves to sit above q (dlx.dance.Dance.start_at).  start_at with the old
   first undoes it; while i is covered nothing else changes its list. */
static inline void
start_at(char *nd, int i, int q)
{
    const int h = OFF(i);
    Node *head = AT(nd, h);
    if (head->d == q)
        return;
    AT(nd, head->d)->u = head->u;       /* the header out of the circle */
    AT(nd, head->u)->d = head->d;
    int above = AT(nd, q)->u;           /* and back in, above q */
    head->u = above;
    head->d = q;
    AT(nd, above)->d = h;
    AT(nd, q)->u = h;
}

/* X3 without bounds: the item r's rule chooses (no uncovered primary item empty). */
static inline int
choose_item(Run *r)
{
    const char *nd = (const char *)r->nd;
    switch (r->heuristic) {
    case H_FIRST:
        return r->RL[0];
    case H_SHARP:
        return choose_sharp(r->RL, nd, r->sharp);
    case H_WEIGHTED:
        return choose_weighted(r->RL, nd, r->wt);
    case H_MRV_RANDOM:
        return choose_random(r->RL, nd, &r->rng);
    default:
        return choose_mrv(r->RL, nd);
    }
}

/* The branching degree of item i under bounds: LEN + s - BOUND + 1, where
   s = min(SLACK, BOUND) (dlx.dance.degree). */
ALWAYS_INLINE int
degree_of(const Run *r, int i, int *s)
{
    int b = r->BOUND[i];
    *s = r->SLACK[i] < b ? r->SLACK[i] : b;
    return LEN_OF(r->nd, OFF(i)) + *s - b + 1;
}

/* X3 (M3), Algorithm M's choice: the item of smallest branching degree (degree_of);
   ties to the smaller s, then the longer list, then the first
   (dlx.dance.choose_bounded; with `sharp`, dlx3-sharp's rule, choose_bounded_sharp).
   An item of degree 0 or less is a dead end whichever is chosen: the scan stops
   there.  Returns the degree through *degree. */
ALWAYS_INLINE int
choose_bounded_by(const Run *r, const unsigned char *sharp, int *degree)
{
    const char *nd = (const char *)r->nd;
    const int *RL = r->RL, *BOUND = r->BOUND, *SLACK = r->SLACK;
    int best = 0, bs = 0, bl = 0, bd = 0;
    long long bt = LLONG_MAX;
    for (int j = RL[0]; j != 0; j = RL[j]) {
        int b = BOUND[j], s = SLACK[j] < b ? SLACK[j] : b;
        int len = LEN_OF(nd, OFF(j));
        int d = len + s - b + 1;
        if (d <= 0) {
            best = j;
            bd = d;
            break;
        }
        long long t = d;
        if (sharp != NULL && d > 1 && !sharp[j])
            t += UNSHARP;               /* dlx3-sharp: an item that is not sharp waits */
        if (t < bt || (t == bt && (s < bs || (s == bs && len > bl)))) {
            best = j;
            bt = t;
            bs = s;
            bl = len;
            bd = d;
        }
    }
    *degree = bd;
    return best;
}

/* choose_bounded_by with dlx3-sharp's rule, out of line (the loop inlines the
   plain rule only). */
static __attribute__((noinline, unused)) int
choose_bounded_sharp(const Run *r, int *degree)
{
    return choose_bounded_by(r, r->sharp, degree);
}

/* X3 (M3), the weighted choice under bounds of Knuth's SSMCC-WTD
   (dlx.dance.WeightedBounded): the first item of degree 0 or less (a dead end, whose
   weight the loop raises), else the first of degree 1 (forced), else the item of
   least degree / weight (compared as products: exact), ties as choose_bounded_by's
   (the smaller s, then the longer list, then the first). */
static __attribute__((noinline, unused)) int
choose_bounded_weighted(const Run *r, int *degree)
{
    const int *RL = r->RL;
    const long long *wt = r->wt;
    int best = 0, forced = 0, bd = 0, bs = 0, bl = 0, s;
    for (int j = RL[0]; j != 0; j = RL[j]) {
        int d = degree_of(r, j, &s), len = LEN_OF(r->nd, OFF(j));
        if (d <= 0) {
            *degree = d;
            return j;
        }
        if (d == 1) {
            if (forced == 0)
                forced = j;
            continue;
        }
        if (forced != 0)
            continue;
        long long here = (long long)d * wt[best], there = (long long)bd * wt[j];
        if (best == 0 || here < there
            || (here == there && (s < bs || (s == bs && len > bl)))) {
            best = j;
            bd = d;
            bs = s;
            bl = len;
        }
    }
    *degree = forced != 0 ? 1 : bd;
    return forced != 0 ? forced : best;
}

/* X3 (M3), Algorithm M's choice with its ties (degree, s and length alike) drawn at
   random from r->rng (dlx.dance.RandomTiesBounded); a dead end (degree 0 or less):
   the first one, with no draw. */
static __attribute__((noinline, unused)) int
choose_bounded_random(Run *r, int *degree)
{
    const int *RL = r->RL;
    int best = 0, bd = 0, bs = 0, bl = 0, ties = 0, s;
    for (int j = RL[0]; j != 0; j = RL[j]) {
        int d = degree_of(r, j, &s), len = LEN_OF(r->nd, OFF(j));
        if (d <= 0) {
            *degree = d;
            return j;
        }
        if (best == 0 || d < bd || (d == bd && (s < bs || (s == bs && len > bl)))) {
            best = j;
            bd = d;
            bs = s;
            bl = len;
            ties = 1;
        }
        else if (d == bd && s == bs && len == bl)
            ties++;
    }
    *degree = bd;
    if (ties <= 1)
        return best;
    uint64_t k = rand_below(&r->rng, (uint64_t)ties);
    for (int j = best;; j = RL[j]) {
        int d = degree_of(r, j, &s);
        if (d == bd && s == bs && LEN_OF(r->nd, OFF(j)) == bl && k-- == 0)
            return j;
    }
}

/* X3 (M3) under bounds, by r's rule: the first item (its degree), or the one its
   chooser chooses (the degree through *degree). */
ALWAYS_INLINE int
choose_bounded(Run *r, int *degree)
{
    int s;
    switch (r->heuristic) {
    case H_FIRST:
        *degree = degree_of(r, r->RL[0], &s);
        return r->RL[0];
    case H_SHARP:
        return choose_bounded_sharp(r, degree);
    case H_WEIGHTED:
        return choose_bounded_weighted(r, degree);
    case H_MRV_RANDOM:
        return choose_bounded_random(r, degree);
    default:
        return choose_bounded_by(r, NULL, degree);
    }
}

#endif /* DLX_CHOOSE_H */
