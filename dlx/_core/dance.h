/* dlx._core's dance: the node layout, the state of one search, and the steps of
 * Knuth's Algorithms X, C and M (TAOCP 7.2.2.1) that the loop (loop.c) inlines.
 *
 * Each step is written once, here, as dlx/dance.py's Dance writes it; the loop
 * and the placing of forced options (loop.c, minimize.c) compile them in with a
 * constant `colored` flag (COLOURS, SECONDARY_LENS, CYCLIC: see hide), so
 * that problems without colours get a dance with no colour tests in it, from the
 * same source.  Nothing here touches Python objects: the loop runs without the GIL.
 *
 * Knuth's one-letter names, as in dlx/links.py, whose layout the core reads:
 *
 *   LLINK/RLINK  item list (head 0: primary items; head N+1: secondary items)
 *   ULINK/DLINK  vertical lists; item i's header is node i
 *   TOP          TOP[x] = item of node x; TOP[x] <= 0 marks a spacer node, whose
 *                ULINK is the first node of the option before it and whose DLINK
 *                is the last node of the option after it
 *   LEN          LEN[i] = options left in item i's list
 *   COLOR        colour code of node x (0 none; Knuth's -1 while purified is
 *                PURIFIED here, on the node); of header i: the colour purify gave i
 *   OPT          OPT[x] = option index of node x (-1 for headers and spacers)
 *   BOUND, SLACK (Algorithm M) how many more times primary item i may be covered,
 *                and v - u of its bounds (u, v)
 *
 * Where each step is:  hide/unhide (13), (15) (hide_long/unhide_long for an
 * option without a walk); cover/uncover (12), (14);
 * purify/unpurify and commit/uncommit (Algorithm C); commit_option (X5) and
 * uncommit_option (X6); for Algorithm M: commit_bounded/uncommit_bounded,
 * tweak/untweak, restore_bounded (X7).  X3 (M3), the choice of an item by each rule
 * (choose_mrv, choose_item, choose_bounded), is in choose.h, included at the end.
 * The loop itself, X1..X8 (M1..M9), is run_core_impl in loop.c.  For big problems
 * the steps also keep X3's tournament tree (tree.h) when the loop has one (TREE):
 * x3_len, x3_fix, x3_in and x3_out below; x3_choose reads it.
 */

#ifndef DLX_DANCE_H
#define DLX_DANCE_H

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
/* (unused: a file that includes this header need not call every step) */
#define NOINLINE static __attribute__((noinline, unused))
/* a function of one file of the core that others call: not exported by the .so */
#define DLX_HIDDEN __attribute__((visibility("hidden")))
#else
#define ALWAYS_INLINE static inline
#define NOINLINE static
#define DLX_HIDDEN
#endif

#include "tree.h"

#define LOOKAHEAD 64                 /* early failure looks this far; as dlx.search */

/* One node of a search's copy of the links.  Links are byte offsets into the
   node array (node x lives at x * sizeof(Node)); TOP is kept as the offset of
   the item's header node, and an item's LEN lives in its header node, as in
   Knuth's DLX1: the inner loops then address memory without scaling indices. */
typedef struct {
    int u, d;                /* ULINK, DLINK of the node, as node offsets */
    int t;                   /* option nodes: offset of the item's header;
                                spacers: TOP * sizeof(Node) (<= 0); headers: 0 */
    int s;                   /* option nodes: where this node's walk starts in W (see
                                table.c's build_layout), negated while the node is
                                purified; headers: LEN of the item */
} Node;

#define NODE ((int)sizeof(Node))
#define NODE_SHIFT 4                        /* NODE == 1 << NODE_SHIFT */
#define OFF(x) ((x) * NODE)                 /* node index -> node offset */
/* node offset -> node index: offsets are multiples of NODE (spacers' t too, below
   0), so an arithmetic shift is exact, and cheaper than a signed division */
#define IDX(o) ((o) >> NODE_SHIFT)
_Static_assert(sizeof(Node) == 1 << NODE_SHIFT, "a Node is 16 bytes");
#define AT(base, off) ((Node *)((char *)(base) + (off)))
#define LEN_OF(base, h) (AT(base, h)->s)    /* LEN of the item whose header is at h */
/* Purify marks the nodes that agree with its colour by negating their walk start
   (Knuth sets their COLOR to -1; here COLOR keeps the node's colour).  A node is
   never purified when its own walk is read: hide starts from nodes of lists that
   are not purified. */
#define PURIFIED(n) ((n)->s < 0)
/* Secondary items' LEN carries this bias, so that "a list became empty"
   (--LEN == 0) is only ever true of a primary item.  No heuristic reads them, and
   only the coloured dance keeps them, for the cache (SECONDARY_LENS). */
#define SECONDARY_BIAS (1 << 30)

struct Table;                /* core.h: the static arrays of a problem */
struct Best;                 /* core.h: branch and bound */
struct Memo;                 /* memo.h: counting by caching */
struct Bits;                 /* bits.h: the bitset representation */

/* The state of one search, with no Python objects in it (so the loop can run
   without the GIL): a copy of the dynamic arrays, the stack of choices, the
   counters, and where a paused loop goes on (loop.c's run_alloc makes one). */
typedef struct {
    const struct Table *t;
    int N1, mode, heuristic; /* heuristic: one of the H_ codes (the X3 rule) */
    const unsigned char *sharp;  /* (H_SHARP) per primary item: named #... */
    long long *wt;           /* (H_WEIGHTED) per primary item: its weight, from 1 */
    uint64_t rng;            /* (H_MRV_RANDOM) the state of its random draws */
    const int *OPT;
    const int *W;            /* the table's option walks (see hide) */
    /* the dynamic arrays (one allocation) */
    void *block;
    Node *nd;
    int *LL, *RL, *COL;
    int *x;                  /* x[l]: node offset of the option tried at level l */
    int *BOUND;              /* (M) how many more times each primary item may be covered */
    const int *SLACK;        /* (M) v - u of its bounds */
    int *first;              /* (M) first[l]: the first option tried at level l */
    int *deg;                /* deg[l]: the options of the item chosen at level l */
    int depth;               /* levels x[] can hold */
    long long *profile;      /* profile[l]: nodes at level l */
    int plen;                /* levels with a node: profile[0..plen) */
    struct Best *bb;         /* branch and bound (mode best), else NULL */
    struct Memo *memo;       /* counting by caching (mode count), else NULL */
    int *first_x, first_len; /* the first solution (batches) */
    /* the bitset representation (bits.c), when attached: its table's bitsets, the
       states of the levels and their choices */
    const struct Bits *bits;
    void *bits_block;
    char *bits_state;
    uint64_t *bits_cand;
    /* X3's tournament tree (tree.h), when the search keeps one: 2 * tree_P keys,
       then the items marked since the last X3 (loop.c's dlx_tree_attach) */
    void *tree;
    int tree_P;
    /* counters and limits */
    long long nodes, updates, solutions, budget, limit, pause_at;
    int check_reason;
    int keep_first;          /* keep the first solution in first_x (batches) */
    /* the loop */
    int level, base, i, resume, zeros;
} Run;

/* The dance's view of the dynamic state.  The loop holds it in locals (so the
   compiler keeps the pointers and the zeros counter in registers: stores through
   the link arrays cannot alias them); zeros counts the uncovered primary items
   with an empty list, and goes back into the Run when the dancing is done. */
typedef struct {
    Node *nd;
    int *LL, *RL, *COL;
    const int *W;
    int *BOUND;              /* (M) as in Run */
    const int *SLACK;
    int N1;                  /* the last primary item */
    int zeros;
    void *tree;              /* (TREE) X3's tree, as in Run, and its leaves */
    int P;
} Ctx;

/* The Ctx of run r (the one place it is written); store c.zeros back into r after. */
ALWAYS_INLINE Ctx
ctx_of(const Run *r)
{
    Ctx c = {r->nd, r->LL, r->RL, r->COL, r->W, r->BOUND, r->SLACK, r->N1, r->zeros,
             r->tree, r->tree_P};
    return c;
}

/* ------------------------------------------------------- Algorithms X and C */

/* The constant `colored` argument of the steps: 0 for a dance without colours
   (CYCLIC when the table's walks are Knuth's cyclic ones, Table.cyclic), else
   COLOURS, with SECONDARY_LENS when the secondary items' LEN must be kept
   (counting by caching reads it: memo.h's secondary_key; nothing else does). */
#define COLOURS 1
#define SECONDARY_LENS 2
#define KEPT_LENS (COLOURS | SECONDARY_LENS)
#define CYCLIC 4                 /* (without colours) the walks are Knuth's cyclic ones */
#define TREE 8                   /* the loop keeps X3's tree (tree.h), keyed by LEN */
#define TREE_BOUNDED (TREE | 16) /* ... keyed by Algorithm M's branching degree */

/* ------------------------------------------------ X3's tree (tree.h), kept */

/* The key primary item i has now: Algorithm M's (TREE_BOUNDED) or by LEN len. */
ALWAYS_INLINE wkey
x3_key(const Ctx *c, int i, int len, const int colored)
{
    if ((colored & TREE_BOUNDED) == TREE_BOUNDED)
        return tree_key_bounded(len, c->BOUND[i], c->SLACK[i], i);
    return tree_key(len, i);
}

/* The items whose key may have changed since the last X3 (after the tree's keys):
   D[0] of them in D[1..], each marked in mark[] (after D's P + 1 ints). */
ALWAYS_INLINE int *
x3_dirty(const Ctx *c, const int colored)
{
    if ((colored & TREE_BOUNDED) == TREE_BOUNDED)
        return (int *)((wkey *)c->tree + 2 * (size_t)c->P);
    return (int *)((uint64_t *)c->tree + 2 * (size_t)c->P);
}

/* Primary item i has LEN len now (or, under bounds, a new BOUND): its key is set
   at the next X3 (x3_flush), once however often it changes before then, and not at
   all when it comes back to what it was. */
ALWAYS_INLINE void
x3_len(const Ctx *c, int i, int len, const int colored)
{
    (void)len;
    if (!(colored & TREE))
        return;
    int *D = x3_dirty(c, colored);
    unsigned char *mark = (unsigned char *)(D + c->P + 1);
    if (!mark[i]) {
        mark[i] = 1;
        D[++D[0]] = i;
    }
}

/* The same after BOUND[i] or LEN[i] changed. */
ALWAYS_INLINE void
x3_fix(const Ctx *c, int i, const int colored)
{
    x3_len(c, i, 0, colored);
}

/* Give the items marked by x3_len their keys now: an item in the active list the
   key of its LEN (and bounds), moved up or down its path; an item out of it keeps
   OUT (x3_in gives it its key when it comes back). */
ALWAYS_INLINE void
x3_flush(const Ctx *c, const int colored)
{
    int *D = x3_dirty(c, colored);
    unsigned char *mark = (unsigned char *)(D + c->P + 1);
    const int n = D[0], P = c->P;
    for (int k = 1; k <= n; k++) {
        const int i = D[k], l = P + i, len = LEN_OF(c->nd, OFF(i));
        mark[i] = 0;
        if ((colored & TREE_BOUNDED) == TREE_BOUNDED) {
            wkey *T = (wkey *)c->tree, old = T[l];
            if (old != OUT128)
                tree_move_bounded(T, l, old, x3_key(c, i, len, colored));
        }
        else {
            uint64_t *T = (uint64_t *)c->tree, old = T[l];
            if (old != OUT64)
                tree_move(T, l, old, tree_key(len, i));
        }
    }
    D[0] = 0;
}

/* Primary item i leaves the active list (cover, the null choice), or comes back. */
ALWAYS_INLINE void
x3_out(const Ctx *c, int i, const int colored)
{
    if (!(colored & TREE))
        return;
    const int l = c->P + i;
    if ((colored & TREE_BOUNDED) == TREE_BOUNDED)
        tree_move_bounded((wkey *)c->tree, l, ((wkey *)c->tree)[l], OUT128);
    else
        tree_move((uint64_t *)c->tree, l, ((uint64_t *)c->tree)[l], OUT64);
}

ALWAYS_INLINE void
x3_in(const Ctx *c, int i, const int colored)
{
    if (!(colored & TREE))
        return;
    const int l = c->P + i, len = LEN_OF(c->nd, OFF(i));
    if ((colored & TREE_BOUNDED) == TREE_BOUNDED)
        tree_move_bounded((wkey *)c->tree, l, ((wkey *)c->tree)[l], x3_key(c, i, len, colored));
    else
        tree_move((uint64_t *)c->tree, l, ((uint64_t *)c->tree)[l], tree_key(len, i));
}

/* X3 by the tree: the item of least key (some primary item is uncovered).  It is
   the item choose_mrv chooses (no uncovered primary item empty), or under bounds
   choose_bounded_by's (without sharp). */
ALWAYS_INLINE int
x3_choose(const Ctx *c, const int colored)
{
    x3_flush(c, colored);
    if ((colored & TREE_BOUNDED) == TREE_BOUNDED)
        return (int)(uint32_t)((const wkey *)c->tree)[1];
    return (int)(uint32_t)((const uint64_t *)c->tree)[1];
}

/* The next node of x's option after q, cyclically (q+1, or the option's first
   node after its last), and the one before it. */
ALWAYS_INLINE int
next_node(const char *nd, int q)
{
    q += NODE;
    return AT(nd, q)->t <= 0 ? AT(nd, q)->u : q;
}

ALWAYS_INLINE int
prev_node(const char *nd, int q)
{
    q -= NODE;
    return AT(nd, q)->t <= 0 ? AT(nd, q)->d : q;
}

/* hide and unhide for an option with no walk in W (see build_walks in table.c):
   Knuth's walk by the links, every node as in Algorithm C's hide' (secondary
   items' LEN too, which both keep: nothing else needs it then).  They write no Ctx
   but return what Ctx.zeros gains (and hide_long its updates), so that the loop
   keeps its Ctx in registers; with TREE they keep X3's tree of c. */
typedef struct {
    long long updates;
    int zeros;
} Hidden;

ALWAYS_INLINE Hidden
hide_long(char *nd, const Ctx *c, int p, const int colored)
{
    Hidden h = {0, 0};
    for (int q = next_node(nd, p); q != p; q = next_node(nd, q)) {
        const Node *n = AT(nd, q);
        if ((colored & COLOURS) && PURIFIED(n)) {
            LEN_OF(nd, n->t)--;
            continue;
        }
        AT(nd, n->u)->d = n->d;
        AT(nd, n->d)->u = n->u;
        int len = --LEN_OF(nd, n->t);
        h.zeros += len == 0;
        h.updates++;
        if ((colored & TREE) && n->t <= OFF(c->N1))
            x3_len(c, IDX(n->t), len, colored);
    }
    return h;
}

ALWAYS_INLINE int
unhide_long(char *nd, const Ctx *c, int p, const int colored)
{
    int zeros = 0;
    for (int q = next_node(nd, p); q != p; q = next_node(nd, q)) {
        const Node *n = AT(nd, q);
        if ((colored & COLOURS) && PURIFIED(n)) {
            LEN_OF(nd, n->t)++;
            continue;
        }
        AT(nd, n->u)->d = q;
        AT(nd, n->d)->u = q;
        int len = LEN_OF(nd, n->t)++;
        zeros -= len == 0;
        if ((colored & TREE) && n->t <= OFF(c->N1))
            x3_len(c, IDX(n->t), len + 1, colored);
    }
    return zeros;
}

/* Hide option p (7.2.2.1-(13)), leaving purified nodes (PURIFIED) alone:
   Algorithm C's hide'.  The walk is read from W (table.c's build_layout): with
   CYCLIC, Knuth's cyclic walk from p+1; otherwise p's other nodes in primary
   items, then those in secondary items.  Only the primary ones can empty a list
   that matters (zeros); without colours, secondary items need no LEN (no rule
   reads it; the cache asks whether their lists are empty), and with colours only
   secondary nodes can be purified.  Returns the updates (Knuth's: every node
   taken out of a list, as dlx.dance counts them). */
ALWAYS_INLINE long long
hide(Ctx *c, int p, const int colored)
{
    char *restrict nd = (char *)c->nd;
    const int *restrict w = c->W + AT(nd, p)->s;
    const int rel = w[-1];               /* p - (first node of its option) */
    if (colored & CYCLIC) {
        /* Knuth's cyclic walk, to the entry p itself has (build_layout) */
        const int *const w0 = w;
        char *const fb = nd + (p - rel);
        int zeros = c->zeros;
        for (int r; (r = *w) != rel; w++) {
            const Node *n = (const Node *)(fb + r);
            int u = n->u, d = n->d, t = n->t;
            AT(nd, u)->d = d;
            AT(nd, d)->u = u;
            int len = --LEN_OF(nd, t);
            zeros += len == 0;
            if ((colored & TREE) && t <= OFF(c->N1))    /* (secondary ones too here) */
                x3_len(c, IDX(t), len, colored);
        }
        c->zeros = zeros;
        return w - w0;
    }
    if (__builtin_expect(rel < 0, 0)) {
        Hidden h = hide_long(nd, c, p, colored);
        c->zeros += h.zeros;
        return h.updates;
    }
    const int *const w0 = w;
    char *const fb = nd + (p - rel);     /* the option's first node */
    int zeros = c->zeros;
    for (int r; (r = *w) >= 0; w++) {    /* in primary items */
        const Node *n = (const Node *)(fb + r);
        int u = n->u, d = n->d, t = n->t;
        AT(nd, u)->d = d;
        AT(nd, d)->u = u;
        int len = --LEN_OF(nd, t);
        zeros += len == 0;
        x3_len(c, IDX(t), len, colored);
    }
    c->zeros = zeros;
    long long k = w - w0;
    const int *const w1 = w;
    for (int r; (r = *++w) >= 0;) {      /* in secondary items */
        const Node *n = (const Node *)(fb + r);
        if ((colored & COLOURS) && PURIFIED(n)) {
            if (colored & SECONDARY_LENS)   /* purified: stays linked, but its option */
                LEN_OF(nd, n->t)--;          /* is gone */
            continue;
        }
        int u = n->u, d = n->d;
        AT(nd, u)->d = d;
        AT(nd, d)->u = u;
        if (colored & SECONDARY_LENS)
            LEN_OF(nd, n->t)--;
        if (colored & COLOURS)
            k++;
    }
    return (colored & COLOURS) ? k : k + (w - w1 - 1);
}

/* Unhide option p (7.2.2.1-(15)).  Its nodes are in distinct lists, so the order
   in which they return does not matter. */
ALWAYS_INLINE void
unhide(Ctx *c, int p, const int colored)
{
    char *restrict nd = (char *)c->nd;
    const int *restrict w = c->W + AT(nd, p)->s;
    const int rel = w[-1];
    if (colored & CYCLIC) {
        const int f = p - rel;
        int zeros = c->zeros;
        for (int r; (r = *w) != rel; w++) {
            int q = f + r;
            const Node *n = AT(nd, q);
            int u = n->u, d = n->d, t = n->t;
            AT(nd, u)->d = q;
            AT(nd, d)->u = q;
            int len = LEN_OF(nd, t)++;
            zeros -= len == 0;
            if ((colored & TREE) && t <= OFF(c->N1))
                x3_len(c, IDX(t), len + 1, colored);
        }
        c->zeros = zeros;
        return;
    }
    if (__builtin_expect(rel < 0, 0)) {
        c->zeros += unhide_long(nd, c, p, colored);
        return;
    }
    const int f = p - rel;
    int zeros = c->zeros;
    for (int r; (r = *w) >= 0; w++) {
        int q = f + r;
        const Node *n = AT(nd, q);
        int u = n->u, d = n->d, t = n->t;
        AT(nd, u)->d = q;
        AT(nd, d)->u = q;
        int len = LEN_OF(nd, t)++;
        zeros -= len == 0;
        x3_len(c, IDX(t), len + 1, colored);
    }
    c->zeros = zeros;
    for (int r; (r = *++w) >= 0;) {
        int q = f + r;
        const Node *n = AT(nd, q);
        if ((colored & COLOURS) && PURIFIED(n)) {
            if (colored & SECONDARY_LENS)
                LEN_OF(nd, n->t)++;
            continue;
        }
        int u = n->u, d = n->d;
        AT(nd, u)->d = q;
        AT(nd, d)->u = q;
        if (colored & SECONDARY_LENS)
            LEN_OF(nd, n->t)++;
    }
}

/* Cover item i (7.2.2.1-(12)): hide every option in its list, then take i out of
   the item list.  Returns the updates (1 + nodes hidden). */
ALWAYS_INLINE long long
cover(Ctx *c, int i, const int colored)
{
    char *nd = (char *)c->nd;
    const int h = OFF(i);
    long long k = 1;
    for (int p = AT(nd, h)->d; p != h; p = AT(nd, p)->d)
        k += hide(c, p, colored);
    int l = c->LL[i], r = c->RL[i];
    c->RL[l] = r;
    c->LL[r] = l;
    c->zeros -= LEN_OF(nd, h) == 0;
    if ((colored & TREE) && i <= c->N1)
        x3_out(c, i, colored);
    return k;
}

/* Uncover item i (7.2.2.1-(14)): exactly undo cover(i), bottom up. */
ALWAYS_INLINE void
uncover(Ctx *c, int i, const int colored)
{
    char *nd = (char *)c->nd;
    const int h = OFF(i);
    int l = c->LL[i], r = c->RL[i];
    c->RL[l] = i;
    c->LL[r] = i;
    c->zeros += LEN_OF(nd, h) == 0;
    if ((colored & TREE) && i <= c->N1)
        x3_in(c, i, colored);
    for (int p = AT(nd, h)->u; p != h; p = AT(nd, p)->u)
        unhide(c, p, colored);
}

/* Node p gives its secondary item a colour: hide the options that give the item
   another colour, mark those that agree as purified, and record the colour in the
   item's header (Algorithm C's purify; DLX6 keys its cache on that colour).  With
   SECONDARY_LENS the item's LEN counts the options left that use it, as DLX6 keeps
   it: the nodes of the options hidden stay in its list, but no longer count. */
static inline long long
purify(Ctx *c, int p, const int colored)
{
    char *nd = (char *)c->nd;
    int *COL = c->COL;
    int cc = COL[IDX(p)], h = AT(nd, p)->t, gone = 0;
    long long k = 0;
    for (int q = AT(nd, h)->d; q != h; q = AT(nd, q)->d) {
        if (COL[IDX(q)] == cc)
            AT(nd, q)->s = -AT(nd, q)->s;        /* purified */
        else {
            k += hide(c, q, colored);
            gone++;
        }
    }
    COL[IDX(h)] = cc;
    if (colored & SECONDARY_LENS)
        LEN_OF(nd, h) -= gone;
    return k;
}

/* Exactly undo purify(p), bottom up. */
static inline void
unpurify(Ctx *c, int p, const int colored)
{
    char *nd = (char *)c->nd;
    int *COL = c->COL;
    int h = AT(nd, p)->t, back = 0;
    COL[IDX(h)] = 0;
    for (int q = AT(nd, h)->u; q != h; q = AT(nd, q)->u) {
        if (PURIFIED(AT(nd, q)))
            AT(nd, q)->s = -AT(nd, q)->s;
        else {
            unhide(c, q, colored);
            back++;
        }
    }
    if (colored & SECONDARY_LENS)
        LEN_OF(nd, h) += back;
}

/* Algorithm C's commit of node q: cover its item when q has no colour, purify it
   when it has one; a node already purified (PURIFIED) needs nothing.  Without
   colours, every commit is a cover. */
ALWAYS_INLINE long long
commit(Ctx *c, int q, const int colored)
{
    int i = IDX(AT(c->nd, q)->t);
    if (!(colored & COLOURS))
        return cover(c, i, colored);
    if (c->COL[IDX(q)] == 0)
        return cover(c, i, colored);
    if (!PURIFIED(AT(c->nd, q)))
        return purify(c, q, colored);
    return 0;
}

/* Algorithm C's uncommit of node q: exactly undo commit(q). */
ALWAYS_INLINE void
uncommit(Ctx *c, int q, const int colored)
{
    int i = IDX(AT(c->nd, q)->t);
    if (!(colored & COLOURS)) {
        uncover(c, i, colored);
        return;
    }
    if (c->COL[IDX(q)] == 0)
        uncover(c, i, colored);
    else if (!PURIFIED(AT(c->nd, q)))
        unpurify(c, q, colored);
}

/* X5 for option x: commit its other items, cyclically from x+1 (Algorithm C), and
   return the updates.  Early failure (as dlx.search): after each commit, when some
   uncovered primary item is empty and it is not the item of a node still to commit,
   stop there: *last is the last node committed, and the result is -1 - updates.
   X6 then uncommits from *last back, as it does after a whole option. */
ALWAYS_INLINE long long
commit_option(Ctx *c, int x, int *last, const int colored)
{
    const char *nd = (const char *)c->nd;
    long long k = 0;
    for (int q = next_node(nd, x); q != x; q = next_node(nd, q)) {
        k += commit(c, q, colored);
        if (c->zeros > 0) {
            int e = 0, rest = 0, r;
            for (r = next_node(nd, q); r != x && rest <= LOOKAHEAD; r = next_node(nd, r)) {
                rest++;
                e += LEN_OF(nd, AT(nd, r)->t) == 0;
            }
            if (rest <= LOOKAHEAD && c->zeros > e) {
                *last = q;
                return -1 - k;
            }
        }
    }
    return k;
}

/* X6 for option x: uncommit its other items right to left, from `last` (the last
   one committed: prev_node(x) after a whole option) back to x+1. */
ALWAYS_INLINE void
uncommit_option(Ctx *c, int x, int last, const int colored)
{
    const char *nd = (const char *)c->nd;
    for (int q = last; q != x; q = prev_node(nd, q))
        uncommit(c, q, colored);
}

/* ------- Algorithm M: bounds on primary items (dlx/dance.py's Dance.commit_bounded etc.) */

/* Algorithm M's commit of node q: a primary item may be covered BOUND more times
   (cover it when that reaches 0); a secondary item as Algorithm C.  (Under bounds
   the dance is the coloured one: `colored` is COLOURS, or KEPT_LENS.) */
ALWAYS_INLINE long long
commit_bounded(Ctx *c, int q, const int colored)
{
    int i = IDX(AT(c->nd, q)->t);
    if (i > c->N1)
        return commit(c, q, colored);
    if (--c->BOUND[i] == 0)
        return cover(c, i, colored);
    x3_fix(c, i, colored);
    return 0;
}

/* Exactly undo commit_bounded(q). */
ALWAYS_INLINE void
uncommit_bounded(Ctx *c, int q, const int colored)
{
    int i = IDX(AT(c->nd, q)->t);
    if (i > c->N1) {
        uncommit(c, q, colored);
        return;
    }
    if (c->BOUND[i]++ == 0)
        uncover(c, i, colored);
    x3_fix(c, i, colored);
}

/* The null choice takes item i out of the item list (its options stay), and puts
   it back. */
static inline void
deactivate(Ctx *c, int i, const int colored)
{
    int l = c->LL[i], r = c->RL[i];
    c->RL[l] = r;
    c->LL[r] = l;
    x3_out(c, i, colored);
}

static inline void
reactivate(Ctx *c, int i, const int colored)
{
    c->RL[c->LL[i]] = i;
    c->LL[c->RL[i]] = i;
    x3_in(c, i, colored);
}

/* Take node x out of its item's list (Knuth's tweak); with block, hide the rest of
   its option too.  Returns the updates.  (This and restore_bounded stay out of
   line, as they always compiled: the bounded loop calls them rather than copying
   them in at each use.) */
NOINLINE long long
tweak(Ctx *c, int x, int block, const int colored)
{
    char *nd = (char *)c->nd;
    Node *n = AT(nd, x);
    AT(nd, n->u)->d = n->d;
    AT(nd, n->d)->u = n->u;
    int len = --LEN_OF(nd, n->t);
    if ((colored & TREE) && n->t <= OFF(c->N1))
        x3_len(c, IDX(n->t), len, colored);
    return 1 + (block ? hide(c, x, colored) : 0);
}

/* Put back the nodes tweaked out of item i's list since `first`, unhiding their
   options when block (Knuth's untweak). */
static inline void
untweak(Ctx *c, int i, int first, int block, const int colored)
{
    char *nd = (char *)c->nd;
    const int h = OFF(i);
    int last = AT(nd, h)->d, above = h, k = 0;
    AT(nd, h)->d = first;
    for (int q = first; q != last; q = AT(nd, q)->d) {
        AT(nd, q)->u = above;
        k++;
        if (block)
            unhide(c, q, colored);
        above = q;
    }
    AT(nd, last)->u = above;
    LEN_OF(nd, h) += k;
    x3_fix(c, i, colored);
}

/* X7 (M8) for item i: undo its cover, or put back what was tweaked out of its list
   since `first` (then undo the cover of its exhausted bound, leaving it out of the
   item list); then give the choice back to its bound. */
NOINLINE void
restore_bounded(Ctx *c, int i, int first, const int colored)
{
    if (c->BOUND[i] == 0 && c->SLACK[i] == 0) {
        uncover(c, i, colored);
    }
    else {
        untweak(c, i, first, c->BOUND[i] != 0, colored);
        if (c->BOUND[i] == 0) {
            char *nd = (char *)c->nd;
            const int h = OFF(i);
            for (int p = AT(nd, h)->u; p != h; p = AT(nd, p)->u)
                unhide(c, p, colored);
        }
    }
    c->BOUND[i]++;
    x3_fix(c, i, colored);
}

#include "choose.h"      /* X3: the rules of choice (after the types and steps they use) */

#endif /* DLX_DANCE_H */
