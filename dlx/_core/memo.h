/* dlx._core's counting by caching (Knuth's DLX6; dlx/memo.py is the reference):
 * the number of solutions below each state met, keyed by a 128-bit signature of
 * what is left, so that a search that meets the same state again adds the count
 * without searching.
 *
 * The signature is the one dlx.memo defines, computed the same way in spirit (its
 * values differ; only which states are equal matters, and that is the same):
 *
 *  - Algorithm C: Zobrist's XOR of a random number per primary item still in the
 *    item list, which the loop keeps up to date (X4 and X7 flip the item chosen;
 *    X5 flips the primary items of x_l, X6 flips them back), and, read off the
 *    links for each key, per secondary item in the list that some option left
 *    uses (LEN > 0, as DLX6 keeps LEN), a random number for it and its colour
 *    (purify records the colour in its header, as DLX6 does).
 *  - Algorithm M: read off the links at each node (as dlx.memo does): the
 *    uncovered primary items with their bounds, the uncovered secondary items with
 *    their colours, and the set of options left in the primary items' lists.
 *
 * Two different states share a signature with probability 2**-128 per pair.
 * The table keeps at most `limit` entries (then `full`, and no more are stored);
 * counts are 128-bit, and a count past that sets `overflow` (the view then counts
 * on the pure engine, whose ints are unbounded).
 */

#ifndef DLX_MEMO_H
#define DLX_MEMO_H

#include "core.h"

typedef unsigned __int128 u128;

/* (dlx.zdd) The diagram under construction: branch nodes (var, lo, hi) with ids from
   2 (0 and 1 are the sinks), each made once (a unique table), children first. */
typedef struct Zdd {
    int32_t *var, *lo, *hi;
    size_t count, cap;       /* ids 0..count-1 in use (the sinks included) */
    int32_t *slots;          /* the unique table: 1 + id, 0 free */
    size_t slot_cap;
    int failed;              /* no memory for more nodes */
} Zdd;

typedef struct Memo {
    /* the table: open addressing, linear probing */
    uint64_t *keys;          /* 2 per slot */
    u128 *vals;
    unsigned char *used;
    size_t cap, count, limit;
    int full, overflow;
    /* the signature (Algorithm C), and per item its random number */
    uint64_t *Z;             /* 2 per item 0..N+1 */
    uint64_t s0, s1;
    /* per level */
    uint64_t *lkey;          /* 2 per level: what was left when the level was entered */
    u128 *lfrom;             /* the solutions counted by then */
    unsigned char *lset;     /* the level will store its count when left */
    uint64_t *dsig;          /* 2 per level: what committing x_l flipped */
    /* (M) the options seen by the key walk */
    int *stamp, now;
    u128 total;              /* every solution counted, those of cache hits included */
    /* (dlx.zdd) the diagram: per slot, the node of its state; per level, the diagram of
       the level so far (the chain of the options tried); the last one finished */
    Zdd *zdd;
    int32_t *znode, *zres, last;
} Memo;

DLX_HIDDEN Memo *dlx_memo_new(const Run *r, size_t limit);
DLX_HIDDEN void dlx_memo_free(Memo *m);
/* The signature of the state r is in (after the forced options): a walk. */
DLX_HIDDEN void dlx_memo_start(Memo *m, const Run *r);
DLX_HIDDEN void dlx_memo_grow(Memo *m);
/* Build the ZDD of all solutions too (dlx.zdd); -1 on no memory. */
DLX_HIDDEN int dlx_memo_want_zdd(Memo *m, const Run *r);
/* The node (var, lo, hi): lo when hi is 0, the one made before for the same triple, or
   a new one (ZDDBuilder.make); 0 with z->failed set when there is no memory. */
DLX_HIDDEN int32_t dlx_zdd_make(Zdd *z, int32_t var, int32_t lo, int32_t hi);

/* splitmix64's finaliser: the random numbers are mixes of their index and a seed. */
ALWAYS_INLINE uint64_t
mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The random numbers of (item, value): a colour given to a secondary item, a bound
   of a primary item, an option left; `kind` keeps the families apart. */
ALWAYS_INLINE void
flip_pair(uint64_t *s0, uint64_t *s1, uint64_t kind, uint64_t i, uint64_t v)
{
    uint64_t z = (i << 32) ^ (v & 0xffffffffULL) ^ (kind << 60);
    *s0 ^= mix64(z ^ 0x243f6a8885a308d3ULL);
    *s1 ^= mix64(z ^ 0x13198a2e03707344ULL);
}

enum { SIG_HUE = 1, SIG_BOUND = 2, SIG_OPTION = 3, SIG_SECONDARY = 4 };

/* What committing the other nodes of option x flips in the signature (Algorithm C):
   its primary items leave the item list.  (The secondary items are read off the
   links for each key: secondary_key.) */
ALWAYS_INLINE void
commit_flip(const Memo *m, const Ctx *c, int x, int n1, uint64_t *d0, uint64_t *d1)
{
    const char *nd = (const char *)c->nd;
    uint64_t a = 0, b = 0;
    for (int q = next_node(nd, x); q != x; q = next_node(nd, q)) {
        int j = IDX(AT(nd, q)->t);
        if (j <= n1) {
            a ^= m->Z[2 * j];
            b ^= m->Z[2 * j + 1];
        }
    }
    *d0 = a;
    *d1 = b;
}

/* Flip in the secondary items still in the item list that some option left uses
   (LEN > 0, as DLX6 counts it: purify and hide keep it), with their colours: an item
   no option uses can no longer tell two states apart, and DLX6 leaves it out.
   Without colours no node stays linked once its option is gone, so that is a list
   that is not empty (hide keeps no LEN for secondary items then). */
ALWAYS_INLINE void
secondary_key(const Run *r, uint64_t *a, uint64_t *b, const int colored)
{
    const char *nd = (const char *)r->nd;
    const int *RL = r->RL, head = r->t->N + 1;
    for (int j = RL[head]; j != head; j = RL[j])
        if (colored ? LEN_OF(nd, OFF(j)) > SECONDARY_BIAS : AT(nd, OFF(j))->d != OFF(j))
            flip_pair(a, b, SIG_SECONDARY, (uint64_t)j, (uint64_t)r->COL[j]);
}

/* (M) The key of what is left, read off the links. */
ALWAYS_INLINE void
bounded_key(Memo *m, const Run *r, uint64_t *k0, uint64_t *k1)
{
    const char *nd = (const char *)r->nd;
    const int *RL = r->RL;
    uint64_t a = 0, b = 0;
    int now = ++m->now;
    for (int j = RL[0]; j != 0; j = RL[j]) {
        flip_pair(&a, &b, SIG_BOUND, (uint64_t)j, (uint64_t)r->BOUND[j]);
        const int h = OFF(j);
        for (int q = AT(nd, h)->d; q != h; q = AT(nd, q)->d) {
            int o = r->OPT[IDX(q)];
            if (m->stamp[o] != now) {
                m->stamp[o] = now;
                flip_pair(&a, &b, SIG_OPTION, (uint64_t)o, 0);
            }
        }
    }
    secondary_key(r, &a, &b, 1);
    *k0 = a;
    *k1 = b;
}

/* The count stored under key (k0, k1): 1 and *val (and with a ZDD, its node *node),
   or 0 when there is none. */
ALWAYS_INLINE int
memo_get(const Memo *m, uint64_t k0, uint64_t k1, u128 *val, int32_t *node)
{
    size_t mask = m->cap - 1;
    for (size_t s = (size_t)k0 & mask; m->used[s]; s = (s + 1) & mask) {
        if (m->keys[2 * s] == k0 && m->keys[2 * s + 1] == k1) {
            *val = m->vals[s];
            if (m->zdd != NULL)
                *node = m->znode[s];
            return 1;
        }
    }
    return 0;
}

/* Store the count under key (k0, k1) (the search never stores a key twice). */
ALWAYS_INLINE void
memo_put(Memo *m, uint64_t k0, uint64_t k1, u128 val, int32_t node)
{
    if (m->count >= m->limit) {
        m->full = 1;
        return;
    }
    if (2 * (m->count + 1) > m->cap) {
        dlx_memo_grow(m);
        if (2 * (m->count + 1) > m->cap) {      /* no memory for more: full */
            m->full = 1;
            return;
        }
    }
    size_t mask = m->cap - 1, s = (size_t)k0 & mask;
    while (m->used[s])
        s = (s + 1) & mask;
    m->used[s] = 1;
    m->keys[2 * s] = k0;
    m->keys[2 * s + 1] = k1;
    m->vals[s] = val;
    if (m->zdd != NULL)
        m->znode[s] = node;
    m->count++;
}

#endif /* DLX_MEMO_H */
