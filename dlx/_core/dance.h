/* dlx._core's dance: the node layout, the state of one search, and the steps of
 * Knuth's Algorithms X, C and M (TAOCP 7.2.2.1) that the loop (loop.c) inlines.
 *
 * Each step is written once, here, as dlx/search.py's Dance writes it; the loop
 * and the placing of forced options (loop.c, minimize.c) compile them in with a
 * constant `colored` flag, so that problems without colours get a dance with no
 * colour tests in it, from the same source.  Nothing here touches Python objects:
 * the loop runs without the GIL.
 *
 * Knuth's one-letter names, as in dlx/links.py, whose layout the core reads:
 *
 *   LLINK/RLINK  item list (head 0: primary items; head N+1: secondary items)
 *   ULINK/DLINK  vertical lists; item i's header is node i
 *   TOP          TOP[x] = item of node x; TOP[x] <= 0 marks a spacer node, whose
 *                ULINK is the first node of the option before it and whose DLINK
 *                is the last node of the option after it
 *   LEN          LEN[i] = options left in item i's list
 *   COLOR        colour code of node x (0 none, -1 while purified)
 *   OPT          OPT[x] = option index of node x (-1 for headers and spacers)
 *   BOUND, SLACK (Algorithm M) how many more times primary item i may be covered,
 *                and v - u of its bounds (u, v)
 *
 * Where each step is:  hide/unhide (13), (15); cover/uncover (12), (14);
 * purify/unpurify and commit/uncommit (Algorithm C); commit_option (X5) and
 * uncommit_option (X6); choose_mrv (X3); for Algorithm M: commit_bounded/
 * uncommit_bounded, tweak/untweak, restore_bounded (X7) and choose_bounded (X3).
 * The loop itself, X1..X8 (M1..M9), is run_core_impl in loop.c.
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
                                hide); headers: LEN of the item */
} Node;

#define NODE ((int)sizeof(Node))
#define OFF(x) ((x) * NODE)                 /* node index -> node offset */
#define IDX(o) ((o) / NODE)                 /* node offset -> node index */
#define AT(base, off) ((Node *)((char *)(base) + (off)))
#define LEN_OF(base, h) (AT(base, h)->s)    /* LEN of the item whose header is at h */
/* Secondary items' LEN carries this bias, so that "a list became empty"
   (--LEN == 0) is only ever true of a primary item.  No heuristic reads them. */
#define SECONDARY_BIAS (1 << 30)

struct Table;                /* core.h: the static arrays of a problem */
struct Best;                 /* core.h: branch and bound */
struct Memo;                 /* memo.h: counting by caching */

/* The state of one search, with no Python objects in it (so the loop can run
   without the GIL): a copy of the dynamic arrays, the stack of choices, the
   counters, and where a paused loop goes on (loop.c's run_alloc makes one). */
typedef struct {
    const struct Table *t;
    int N1, mode, heuristic; /* heuristic: one of the H_ codes (the X3 rule) */
    const unsigned char *sharp;  /* (H_SHARP) per primary item: named #... */
    long long *wt;           /* (H_WEIGHTED) per primary item: its weight, from 1 */
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
    int zeros;
} Ctx;

/* The Ctx of run r (the one place it is written); store c.zeros back into r after. */
ALWAYS_INLINE Ctx
ctx_of(const Run *r)
{
    Ctx c = {r->nd, r->LL, r->RL, r->COL, r->W, r->zeros};
    return c;
}

/* ------------------------------------------------------- Algorithms X and C */

/* Hide option p (7.2.2.1-(13)), leaving purified nodes (COLOR < 0) alone:
   Algorithm C's hide'.  The walk is Knuth's, cyclically from p+1, read from W
   (see table.c's build_layout).  Returns the updates. */
ALWAYS_INLINE long long
hide(Ctx *c, int p, const int colored)
{
    char *restrict nd = (char *)c->nd;
    const int *restrict w = c->W + AT(nd, p)->s;
    const int *const w0 = w;
    const int rel = w[-1];               /* p - (first node of its option) */
    char *const fb = nd + (p - rel);     /* the option's first node */
    int zeros = c->zeros;
    long long k = 0;
    for (int r; (r = *w) != rel; w++) {
        const Node *n = (const Node *)(fb + r);
        if (colored && c->COL[IDX((int)(fb + r - nd))] < 0) {
            LEN_OF(nd, n->t)--;          /* purified: stays linked, but its option is gone */
            continue;
        }
        int u = n->u, d = n->d, t = n->t;
        AT(nd, u)->d = d;
        AT(nd, d)->u = u;
        zeros += --LEN_OF(nd, t) == 0;    /* only primary items reach 0 */
        if (colored)
            k++;
    }
    c->zeros = zeros;
    return colored ? k : (long long)(w - w0);
}

/* Unhide option p (7.2.2.1-(15)).  Its nodes are in distinct lists, so the order
   in which they return does not matter. */
ALWAYS_INLINE void
unhide(Ctx *c, int p, const int colored)
{
    char *restrict nd = (char *)c->nd;
    const int *restrict w = c->W + AT(nd, p)->s;
    const int rel = w[-1];
    const int f = p - rel;
    int zeros = c->zeros;
    for (int r; (r = *w) != rel; w++) {
        int q = f + r;
        const Node *n = AT(nd, q);
        if (colored && c->COL[IDX(q)] < 0) {
            LEN_OF(nd, n->t)++;
            continue;
        }
        int u = n->u, d = n->d, t = n->t;
        AT(nd, u)->d = q;
        AT(nd, d)->u = q;
        zeros -= LEN_OF(nd, t)++ == 0;
    }
    c->zeros = zeros;
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
    for (int p = AT(nd, h)->u; p != h; p = AT(nd, p)->u)
        unhide(c, p, colored);
}

/* Node p gives its secondary item a colour: hide the options that give the item
   another colour, mark those that agree as purified, and record the colour in the
   item's header (Algorithm C's purify; DLX6 keys its cache on that colour).  The
   item's LEN counts the options left that use it, as DLX6 keeps it: the nodes of
   the options hidden stay in its list, but no longer count. */
static inline long long
purify(Ctx *c, int p)
{
    char *nd = (char *)c->nd;
    int *COL = c->COL;
    int cc = COL[IDX(p)], h = AT(nd, p)->t, gone = 0;
    long long k = 0;
    for (int q = AT(nd, h)->d; q != h; q = AT(nd, q)->d) {
        if (COL[IDX(q)] == cc)
            COL[IDX(q)] = -1;
        else {
            k += hide(c, q, 1);
            gone++;
        }
    }
    COL[IDX(h)] = cc;
    LEN_OF(nd, h) -= gone;
    return k;
}

/* Exactly undo purify(p), bottom up. */
static inline void
unpurify(Ctx *c, int p)
{
    char *nd = (char *)c->nd;
    int *COL = c->COL;
    int cc = COL[IDX(p)], h = AT(nd, p)->t, back = 0;
    COL[IDX(h)] = 0;
    for (int q = AT(nd, h)->u; q != h; q = AT(nd, q)->u) {
        if (COL[IDX(q)] < 0)
            COL[IDX(q)] = cc;
        else {
            unhide(c, q, 1);
            back++;
        }
    }
    LEN_OF(nd, h) += back;
}

/* Algorithm C's commit of node q: cover its item when q has no colour, purify it
   when it has one; a node already purified (COLOR < 0) needs nothing.  Without
   colours, every commit is a cover. */
ALWAYS_INLINE long long
commit(Ctx *c, int q, const int colored)
{
    int i = IDX(AT(c->nd, q)->t);
    if (!colored)
        return cover(c, i, 0);
    int cc = c->COL[IDX(q)];
    if (cc == 0)
        return cover(c, i, 1);
    if (cc > 0)
        return purify(c, q);
    return 0;
}

/* Algorithm C's uncommit of node q: exactly undo commit(q). */
ALWAYS_INLINE void
uncommit(Ctx *c, int q, const int colored)
{
    int i = IDX(AT(c->nd, q)->t);
    if (!colored) {
        uncover(c, i, 0);
        return;
    }
    int cc = c->COL[IDX(q)];
    if (cc == 0)
        uncover(c, i, 1);
    else if (cc > 0)
        unpurify(c, q);
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

/* The rules of X3, as dlx.search names them: mrv, first, sharp, weighted. */
enum { H_MRV, H_FIRST, H_SHARP, H_WEIGHTED };

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

/* X3 without bounds: the item r's rule chooses (no uncovered primary item empty). */
static inline int
choose_item(const Run *r)
{
    const char *nd = (const char *)r->nd;
    switch (r->heuristic) {
    case H_FIRST:
        return r->RL[0];
    case H_SHARP:
        return choose_sharp(r->RL, nd, r->sharp);
    case H_WEIGHTED:
        return choose_weighted(r->RL, nd, r->wt);
    default:
        return choose_mrv(r->RL, nd);
    }
}

/* ------------ Algorithm M: bounds on primary items (dlx.search's Dance.commit etc.) */

/* Algorithm M's commit of node q: a primary item may be covered BOUND more times
   (cover it when that reaches 0); a secondary item as Algorithm C. */
ALWAYS_INLINE long long
commit_bounded(Ctx *c, Run *r, int q)
{
    int i = IDX(AT(c->nd, q)->t);
    if (i > r->N1)
        return commit(c, q, 1);
    if (--r->BOUND[i] == 0)
        return cover(c, i, 1);
    return 0;
}

/* Exactly undo commit_bounded(q). */
ALWAYS_INLINE void
uncommit_bounded(Ctx *c, Run *r, int q)
{
    int i = IDX(AT(c->nd, q)->t);
    if (i > r->N1) {
        uncommit(c, q, 1);
        return;
    }
    if (r->BOUND[i]++ == 0)
        uncover(c, i, 1);
}

/* The null choice takes item i out of the item list (its options stay), and puts
   it back. */
static inline void
deactivate(Ctx *c, int i)
{
    int l = c->LL[i], r = c->RL[i];
    c->RL[l] = r;
    c->LL[r] = l;
}

static inline void
reactivate(Ctx *c, int i)
{
    c->RL[c->LL[i]] = i;
    c->LL[c->RL[i]] = i;
}

/* Take node x out of its item's list (Knuth's tweak); with block, hide the rest of
   its option too.  Returns the updates.  (This and restore_bounded stay out of
   line, as they always compiled: the bounded loop calls them rather than copying
   them in at each use.) */
NOINLINE long long
tweak(Ctx *c, int x, int block)
{
    char *nd = (char *)c->nd;
    Node *n = AT(nd, x);
    AT(nd, n->u)->d = n->d;
    AT(nd, n->d)->u = n->u;
    LEN_OF(nd, n->t)--;
    return 1 + (block ? hide(c, x, 1) : 0);
}

/* Put back the nodes tweaked out of item i's list since `first`, unhiding their
   options when block (Knuth's untweak). */
static inline void
untweak(Ctx *c, int i, int first, int block)
{
    char *nd = (char *)c->nd;
    const int h = OFF(i);
    int last = AT(nd, h)->d, above = h, k = 0;
    AT(nd, h)->d = first;
    for (int q = first; q != last; q = AT(nd, q)->d) {
        AT(nd, q)->u = above;
        k++;
        if (block)
            unhide(c, q, 1);
        above = q;
    }
    AT(nd, last)->u = above;
    LEN_OF(nd, h) += k;
}

/* X7 (M8) for item i: undo its cover, or put back what was tweaked out of its list
   (then undo the cover of its exhausted bound, leaving it out of the item list);
   then give the choice back to its bound. */
NOINLINE void
restore_bounded(Ctx *c, Run *r, int i)
{
    if (r->BOUND[i] == 0 && r->SLACK[i] == 0) {
        uncover(c, i, 1);
    }
    else {
        untweak(c, i, r->first[r->level], r->BOUND[i] != 0);
        if (r->BOUND[i] == 0) {
            char *nd = (char *)c->nd;
            const int h = OFF(i);
            for (int p = AT(nd, h)->u; p != h; p = AT(nd, p)->u)
                unhide(c, p, 1);
        }
    }
    r->BOUND[i]++;
}

/* X3 (M3), Algorithm M's choice: the item of smallest branching degree
   LEN + s - BOUND + 1 (s = min(SLACK, BOUND)); ties to the smaller s, then the
   longer list, then the first (dlx.dance.choose_bounded; with r->sharp, dlx3-sharp's
   rule, choose_bounded_sharp).  Returns the degree through *degree. */
static inline int
choose_bounded(const Run *r, int *degree)
{
    const char *nd = (const char *)r->nd;
    int best = 0, bs = 0, bl = 0, bd = 0;
    long long bt = 0;
    for (int j = r->RL[0]; j != 0; j = r->RL[j]) {
        int s = r->SLACK[j] < r->BOUND[j] ? r->SLACK[j] : r->BOUND[j];
        int len = LEN_OF(nd, OFF(j));
        int d = len + s - r->BOUND[j] + 1;
        long long t = d;
        if (r->sharp != NULL && d > 1 && !r->sharp[j])
            t += UNSHARP;               /* dlx3-sharp: an item that is not sharp waits */
        if (best == 0 || t < bt || (t == bt && (s < bs || (s == bs && len > bl)))) {
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

#endif /* DLX_DANCE_H */
