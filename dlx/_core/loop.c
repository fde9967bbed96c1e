/* dlx._core's loop: Knuth's Algorithm C (X without colours, M with bounds),
 * TAOCP 7.2.2.1, as dlx.search.run runs it, with steps X1..X8 named where they
 * happen (and Algorithm M's M1..M9 beside them, as dlx.search numbers them).
 * The loop is written once (run_core_impl) and compiled twelve times, by constant
 * arguments of an always-inline function, into run_core_plain (no colours: every
 * commit a cover), run_core_cyclic (the same on Knuth's cyclic walks),
 * run_core_colored (Algorithm C) and run_core_bounded (Algorithm M), each also
 * counting by caching (..._cached) and keeping X3's tree for big problems
 * (..._tree, tree.h); the dance it inlines is in dance.h.  Also here: a search's
 * state (dlx_run_alloc, the representation it runs on), the forced options (X1,
 * dlx_place_forced), X3's tree (dlx_tree_attach, dlx_tree_build) and branch and
 * bound (offer, hopeless).
 */

#include "core.h"
#include "memo.h"

/* ------------------------------------------------------------------- Run */

/* A search of table t at its start (no forced options placed): its own copy of
   the dynamic arrays, in one allocation (r->block); -1 on no memory. */
int
dlx_run_alloc(Run *r, const TableObject *t)
{
    if (dlx_run_alloc_bare(r, t) < 0)
        return -1;
    dlx_run_load_links(r);
    return 0;
}

/* dlx_run_alloc without copying the links (a search on the bitsets never reads
   them): dlx_run_load_links copies them. */
int
dlx_run_alloc_bare(Run *r, const TableObject *t)
{
    int N = t->N, N1 = t->N1, M = t->M;
    int depth = dlx_levels(t);
    size_t nodes = (size_t)M * sizeof(Node);
    /* COL changes only with colours (purify): without, the search reads the table's */
    size_t cols = t->colored ? (size_t)M : 0;
    size_t ints = 2 * (size_t)(N + 2) + cols + 4 * (size_t)depth + (size_t)N1 + 1;
    size_t longs = (size_t)depth + 1;
    size_t bytes = nodes + longs * sizeof(long long) + ints * sizeof(int);
    char *block = (char *)PyMem_Malloc(bytes);
    if (block == NULL)
        return -1;
    dlx_huge_pages(block, bytes);
    memset(r, 0, sizeof(Run));
    r->t = t;
    r->N1 = N1;
    r->depth = depth;
    r->OPT = t->OPT;
    r->W = t->W;
    r->block = block;
    r->nd = (Node *)block;
    r->profile = (long long *)(block + nodes);
    r->LL = (int *)(block + nodes + longs * sizeof(long long));
    r->RL = r->LL + (N + 2);
    r->COL = t->colored ? r->RL + (N + 2) : t->COL;
    r->x = r->RL + (N + 2) + cols;
    r->first_x = r->x + depth;
    r->first = r->first_x + depth;
    r->deg = r->first + depth;
    r->BOUND = r->deg + depth;
    r->SLACK = t->SLACK;
    r->budget = r->limit = -1;
    return 0;
}

/* Attach the representation `rep` asks for: -1 the core's choice, 0 the links with
   X3's scan, 1 the bitsets, 2 the links with X3's tree, each where it serves (the
   links otherwise); and copy the links unless the run is on the bitsets.  -1 on no
   memory. */
int
dlx_run_attach(Run *r, int rep)
{
    int bits = dlx_bits_attach(r, rep == 1 ? 1 : rep < 0 ? -1 : 0);
    if (bits < 0)
        return -1;
    if (bits)
        return 0;
    if (dlx_tree_attach(r, rep == 2 ? 1 : rep < 0 ? -1 : 0) < 0)
        return -1;
    dlx_run_load_links(r);
    return 0;
}

void
dlx_run_load_links(Run *r)
{
    const TableObject *t = r->t;
    if (t->multi)
        memcpy(r->BOUND, t->BOUND, ((size_t)t->N1 + 1) * sizeof(int));
    memcpy(r->nd, t->nodes, (size_t)t->M * sizeof(Node));
    memcpy(r->LL, t->LL, (size_t)(t->N + 2) * sizeof(int));
    memcpy(r->RL, t->RL, (size_t)(t->N + 2) * sizeof(int));
    if (t->colored)
        memcpy(r->COL, t->COL, (size_t)t->M * sizeof(int));
    r->zeros = t->zeros;
}

/* Put the links back as the table lays them out (after a search of a batch):
   copying them is cheaper than undoing a deep search step by step. */
void
dlx_run_reset(Run *r)
{
    if (r->bits != NULL) {
        dlx_bits_reset(r);
        return;
    }
    const TableObject *t = r->t;
    memcpy(r->nd, t->nodes, (size_t)t->M * sizeof(Node));
    memcpy(r->LL, t->LL, (size_t)(t->N + 2) * sizeof(int));
    memcpy(r->RL, t->RL, (size_t)(t->N + 2) * sizeof(int));
    if (t->colored)
        memcpy(r->COL, t->COL, (size_t)t->M * sizeof(int));
    if (t->multi)
        memcpy(r->BOUND, t->BOUND, ((size_t)t->N1 + 1) * sizeof(int));
    r->zeros = t->zeros;
    r->level = 0;
    r->resume = RESUME_ENTER;
}

/* Start counting a search whose root is the current level (after the forced
   options): one node, at level `base`; r->updates holds the root's own (see
   dlx_place_forced). */
void
dlx_run_start(Run *r)
{
    r->base = r->level;
    memset(r->profile, 0, ((size_t)r->depth + 1) * sizeof(long long));
    r->profile[r->base] = 1;
    r->plen = r->base + 1;
    r->nodes = 1;
    r->solutions = 0;
    r->resume = RESUME_ENTER;
}

/* ------------------------------------------------------ X3's tree (tree.h) */

/* When "auto" keeps X3's tree: the scan walks the active list at every node (up to
   the first item of at most one option), the tree moves a key for each item whose
   LEN a node changes, about u = (options of an item) x (items of an option) of them
   for each cover.  So the tree pays with many items and few updates: from
   TREE_MIN_ITEMS primary items, when there are TREE_ITEMS_PER_UPDATE times u of
   them.  bench/big.py --crossover measured it (CPU time, tree over scan): square
   boards tiled by pairs of neighbours 0.12 at 1,024 items (u = 7.5) and 0.02 at
   8,100; random covers of 2-5 items 1.15 at 1,024 items (u = 49) and 0.74 at 2,048;
   empty n^2 x n^2 grids with boxes (options of 4 items) 1.4-1.7 at 2,500 items
   (u = 100), 1.06 at 5,184 (u = 144), 0.80 at 9,604 and 0.51 at 16,384. */
#define TREE_MIN_ITEMS 1024
#define TREE_ITEMS_PER_UPDATE 40

static int
tree_pays(const TableObject *t)
{
#ifdef DLX_TREE_ALWAYS
    return 1;           /* (a build for the tests: the tree wherever it serves) */
#endif
    if (t->N1 < TREE_MIN_ITEMS)
        return 0;
    long long primary_nodes = 0;
    for (int j = 1; j <= t->N1; j++)
        primary_nodes += t->LEN[j];
    double option_nodes = (double)t->M - t->N - 2 - t->n_options;
    double u = (double)primary_nodes / t->N1 * option_nodes / (t->n_options > 0 ? t->n_options : 1);
    return t->N1 >= TREE_ITEMS_PER_UPDATE * u;
}

/* Run r keeps X3's tree when its search is one the tree serves (the rule mrv, not
   sharp; not counting by caching; not on the bitsets) and `want` asks for it: 1
   always, -1 when it pays (tree_pays), 0 never.  Returns 1 when attached, 0 when
   not, -1 on no memory.  dlx_tree_build fills it once the forced options are
   placed. */
int
dlx_tree_attach(Run *r, int want)
{
    const TableObject *t = r->t;
    if (want == 0 || r->bits != NULL || r->memo != NULL || r->heuristic != H_MRV
            || r->sharp != NULL || t->N1 < 1 || (want < 0 && !tree_pays(t)))
        return 0;
    int P = 1;
    while (P <= t->N1)
        P <<= 1;
    /* the keys, then the items marked since the last X3 (x3_len), then their marks */
    size_t bytes = 2 * (size_t)P * (t->multi ? sizeof(wkey) : sizeof(uint64_t))
                   + ((size_t)P + 1) * sizeof(int) + (size_t)P;
    void *T = PyMem_Malloc(bytes);
    if (T == NULL)
        return -1;
    dlx_huge_pages(T, bytes);
    r->tree = T;
    r->tree_P = P;
    return 1;
}

void
dlx_tree_detach(Run *r)
{
    PyMem_Free(r->tree);
    r->tree = NULL;
}

/* Fill r's tree from the state of its links now: the keys of the items in the
   active list, OUT for the others, and the minima above them. */
#define TREE_BUILD(T, OUT, key)                                               \
    do {                                                                      \
        for (int k = 0; k < 2 * P; k++)                                       \
            T[k] = OUT;                                                       \
        for (int j = r->RL[0]; j != 0; j = r->RL[j])                          \
            T[P + j] = key;                                                   \
        for (int k = P - 1; k >= 1; k--)                                      \
            T[k] = T[2 * k] < T[2 * k + 1] ? T[2 * k] : T[2 * k + 1];         \
        T[0] = 0;                                                             \
        int *D = (int *)(T + 2 * (size_t)P);                                  \
        D[0] = 0;                                                             \
        memset(D + P + 1, 0, (size_t)P);                                      \
    } while (0)

void
dlx_tree_build(Run *r)
{
    const Ctx c = ctx_of(r);
    const int P = r->tree_P;
    if (r->t->multi) {
        wkey *T = (wkey *)r->tree;
        TREE_BUILD(T, OUT128, x3_key(&c, j, LEN_OF(r->nd, OFF(j)), TREE_BOUNDED));
    }
    else {
        uint64_t *T = (uint64_t *)r->tree;
        TREE_BUILD(T, OUT64, tree_key(LEN_OF(r->nd, OFF(j)), j));
    }
}

#ifdef DLX_TREE_CHECK
/* (a build for the tests: -DDLX_TREE_CHECK) Does r's tree disagree with its links:
   a key not the item's, a minimum not its children's, a choice not the scan's? */
#define TREE_AUDIT(T, OUT, key)                                               \
    do {                                                                      \
        for (int j = 1; j < P; j++) {                                         \
            int in = j <= r->N1 && r->RL[r->LL[j]] == j;                      \
            if (T[P + j] != (in ? key : OUT))                                 \
                return 1;                                                     \
        }                                                                     \
        for (int k = P - 1; k >= 1; k--)                                      \
            if (T[k] != (T[2 * k] < T[2 * k + 1] ? T[2 * k] : T[2 * k + 1]))  \
                return 1;                                                     \
    } while (0)

static int
tree_differs(const Run *r, int i, int multi)
{
    const Ctx c = ctx_of(r);
    const int P = r->tree_P;
    int degree;
    if (multi) {
        const wkey *T = (const wkey *)r->tree;
        TREE_AUDIT(T, OUT128, x3_key(&c, j, LEN_OF(r->nd, OFF(j)), TREE_BOUNDED));
        return choose_bounded(r, &degree) != i;
    }
    const uint64_t *T = (const uint64_t *)r->tree;
    TREE_AUDIT(T, OUT64, tree_key(LEN_OF(r->nd, OFF(j)), j));
    return choose_mrv(r->RL, (const char *)r->nd) != i;
}

#define TREE_CHECK(r, i, multi)                                               \
    do {                                                                      \
        if (colored & TREE) {                                                 \
            r->zeros = c.zeros;                                               \
            if (tree_differs(r, i, multi)) {                                  \
                why = R_BROKEN;                                               \
                goto save;                                                    \
            }                                                                 \
        }                                                                     \
    } while (0)
#else
#define TREE_CHECK(r, i, multi) ((void)0)
#endif

/* ------------------------------------------------------- branch and bound */

static long long
floor_div(long long a, long long b)       /* b > 0 */
{
    long long q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* Is the k-th best known, and can no completion of this level's partial solution
   beat it? */
static int
hopeless(const Run *r)
{
    const Best *bb = r->bb;
    if (bb->found < bb->k || r->t->multi)
        return 0;           /* (with bounds there is no default bound: as dlx.bound) */
    const int *RL = r->RL;
    const char *nd = (const char *)r->nd;
    long long iroom = 0;
    double froom = 0.0;
    for (int j = RL[0]; j != 0; j = RL[j]) {
        const int h = OFF(j);
        int p = AT(nd, h)->d;
        if (p == h)
            return 1;                    /* an item no option can cover */
        if (bb->integral) {
            long long m = bb->ishare[IDX(p)];
            for (p = AT(nd, p)->d; p != h; p = AT(nd, p)->d)
                if (bb->ishare[IDX(p)] > m)
                    m = bb->ishare[IDX(p)];
            iroom += m;
        }
        else {
            double m = bb->fshare[IDX(p)];
            for (p = AT(nd, p)->d; p != h; p = AT(nd, p)->d)
                if (bb->fshare[IDX(p)] > m)
                    m = bb->fshare[IDX(p)];
            froom += m;
        }
    }
    int worst = bb->k - 1;
    if (bb->integral)
        return !(bb->iscore[r->level] + floor_div(iroom, bb->scale) > bb->ibest[worst]);
    return !(bb->fscore[r->level] + froom > bb->fbest[worst]);
}

/* score[level + 1] = score[level] + the weight of option o (o < 0: none, Algorithm
   M's null choice). */
static inline void
add_weight(Best *bb, int level, int o)
{
    if (bb->integral)
        bb->iscore[level + 1] = bb->iscore[level] + (o < 0 ? 0 : bb->iw[o]);
    else
        bb->fscore[level + 1] = bb->fscore[level] + (o < 0 ? 0.0 : bb->fw[o]);
}

/* Whether the score at `level` is better than the j-th best kept (ties are not). */
static inline int
beats(const Best *bb, int level, int j)
{
    return bb->integral ? bb->iscore[level] > bb->ibest[j] : bb->fscore[level] > bb->fbest[j];
}

/* A solution at `level`: keep it if it is among the k best so far (ties: the
   first found stays ahead). */
static void
offer(Run *r, int level)
{
    Best *bb = r->bb;
    int at = bb->found;
    if (at == bb->k) {
        if (!beats(bb, level, at - 1))
            return;
        at--;                           /* the last one kept drops out */
    }
    for (; at > 0 && beats(bb, level, at - 1); at--) {
        if (bb->integral)
            bb->ibest[at] = bb->ibest[at - 1];
        else
            bb->fbest[at] = bb->fbest[at - 1];
        bb->blen[at] = bb->blen[at - 1];
        memcpy(bb->bx + (size_t)at * bb->width, bb->bx + (size_t)(at - 1) * bb->width,
               (size_t)bb->blen[at] * sizeof(int));
    }
    if (bb->integral)
        bb->ibest[at] = bb->iscore[level];
    else
        bb->fbest[at] = bb->fscore[level];
    bb->blen[at] = level;
    memcpy(bb->bx + (size_t)at * bb->width, r->x, (size_t)level * sizeof(int));
    if (bb->found < bb->k)
        bb->found++;
}

/* -------------------------------------------------------------- the loop */

/* THE loop, resumable.  Runs without touching Python objects (the caller may
   have released the GIL) until a solution to report, the end, the budget, or a
   check point; saves its state in r and says why it stopped. */
ALWAYS_INLINE int
run_core_impl(Run *r, const int colored, const int multi, const int cached)
{
    Ctx c = ctx_of(r);
    char *nd = (char *)r->nd;
    int *RL = r->RL, *x = r->x;
    int level = r->level, i = r->i, xl, last = 0;
    long long nodes = r->nodes, updates = r->updates, k;
    const long long budget = r->budget, pause_at = r->pause_at;
    const int base = r->base;
    /* what the loop reads of r at every node, in locals (stores into the links
       cannot change them) */
    const int heuristic = r->heuristic, depth = r->depth, N = r->t->N;
    int *const BOUND = r->BOUND, *const first = r->first, *const deg = r->deg;
    const int *const SLACK = r->SLACK;
    long long *const profile = r->profile;
    int plen = r->plen;
    Best *const bb = r->bb;
    /* the dance: coloured or not; secondary items' LEN kept only for the cache; X3's
       tree kept when the loop has one (TREE: never with the cache) */
    const int how = colored & COLOURS ? (cached ? KEPT_LENS : COLOURS) | (colored & TREE_BOUNDED)
                                      : colored;
    int why;
    /* (counting by caching) the cache, and the signature of what is left */
    Memo *const m = cached ? r->memo : NULL;
    uint64_t s0 = cached ? m->s0 : 0, s1 = cached ? m->s1 : 0, k0, k1;

    switch (r->resume) {
    case RESUME_LEAVE:
        goto leave;
    case RESUME_X5:
        goto x5_commit;
    default:
        break;
    }

enter:
    /* X2 (M2): enter level `level` */
    if (cached && RL[0] == 0) {
        r->solutions++;
        if (__builtin_add_overflow(m->total, (u128)1, &m->total))
            m->overflow = 1;
        if (m->zdd != NULL)
            m->zres[level] = 1;             /* the family of the empty solution */
        goto counted;
    }
    if (cached) {
        /* counting by caching: what is left was met before, with `known` solutions */
        u128 known;
        int32_t node = 0;
        if (multi)
            bounded_key(m, r, &k0, &k1);
        else {
            k0 = s0;
            k1 = s1;
            secondary_key(r, &k0, &k1, colored & COLOURS);
        }
        if (memo_get(m, k0, k1, &known, &node)) {
            if (__builtin_add_overflow(m->total, known, &m->total))
                m->overflow = 1;
            if (m->zdd != NULL)
                m->zres[level] = node;
            goto counted;
        }
        if (m->zdd != NULL)
            m->zres[level] = 0;             /* the chain of this level's options, to come */
        m->lkey[2 * level] = k0;
        m->lkey[2 * level + 1] = k1;
        m->lfrom[level] = m->total;
        m->lset[level] = 1;
    }
    if (RL[0] == 0) {
        r->solutions++;
        if (bb)
            offer(r, level);
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
    /* X3 (M3): choose an item i (a primary item with no option left: a dead end;
       with bounds, one whose branching degree is 0) */
    if (multi) {
        int degree, s;
        if (colored & TREE)
            degree = degree_of(r, i = x3_choose(&c, how), &s);
        else
            i = choose_bounded(r, &degree);
        TREE_CHECK(r, i, multi);
        if (degree <= 0) {
            if (heuristic == H_WEIGHTED)
                r->wt[i]++;             /* (weighted) i is a dead end: it gains weight */
            goto leave;
        }
        deg[level] = degree;
    }
    else {
        if (c.zeros > 0) {
            if (heuristic == H_WEIGHTED)
                ran_dry(RL, nd, r->wt);
            goto leave;
        }
        if (colored & TREE)
            i = x3_choose(&c, how);     /* (kept only for the rule mrv) */
        else
            i = heuristic == H_MRV ? choose_mrv(RL, nd) : choose_item(r);
        TREE_CHECK(r, i, multi);
        deg[level] = LEN_OF(nd, OFF(i));
    }
    if (bb) {
        r->level = level;
        if (hopeless(r))
            goto leave;
    }
    if (level >= depth - 1) {   /* impossible for a valid table */
        why = R_BROKEN;
        goto save;
    }
    /* X4 (M4): cover i (with bounds: one more choice for i, which is covered once
       its bound is used up, and otherwise tweaked option by option) */
    if (multi) {
        if (--BOUND[i] == 0)
            updates += cover(&c, i, how);
        else
            x3_fix(&c, i, how);
        first[level] = AT(nd, OFF(i))->d;
    }
    else {
        updates += cover(&c, i, how);
        if (cached) {
            s0 ^= m->Z[2 * i];
            s1 ^= m->Z[2 * i + 1];
        }
        if (heuristic == H_MRV_RANDOM) {    /* i's options from one drawn at random on */
            first[level] = AT(nd, OFF(i))->d;
            start_at(nd, i, random_first(r, i));
        }
    }
    x[level] = AT(nd, OFF(i))->d;
    goto try_;

counted:
    /* (counting by caching) a solution, or a state met before: stop at the limit */
    if (m->overflow || (r->limit > 0 && m->total >= (u128)r->limit)) {
        r->resume = RESUME_LEAVE;
        why = R_SOLUTION;
        goto save;
    }

leave:
    /* X8 (M9): leave level `level` (counting by caching: store what was found below) */
    if (cached && m->lset[level]) {
        memo_put(m, m->lkey[2 * level], m->lkey[2 * level + 1], m->total - m->lfrom[level],
                 m->zdd != NULL ? m->zres[level] : 0);
        m->lset[level] = 0;
    }
    if (cached && m->zdd != NULL)
        m->last = m->zres[level];
    if (level == base) {
        r->resume = RESUME_ENTER;
        why = R_DONE;
        goto save;
    }
    level--;
    if (cached && m->zdd != NULL)           /* (a ZDD) x_l's node joins the level's chain */
        m->zres[level] = dlx_zdd_make(m->zdd, r->OPT[IDX(x[level])], m->zres[level],
                                      m->zres[level + 1]);
    /* X6 (M7): try again: uncommit x_l, take the next option of its item */
    xl = x[level];
    if (multi && IDX(xl) <= N) {
        /* after the null choice: i is active again, and its level is over (M8) */
        i = IDX(xl);
        reactivate(&c, i, how);
        restore_bounded(&c, i, first[level], how);
        goto leave;
    }
    i = IDX(AT(nd, xl)->t);
    if (multi) {
        for (int q = prev_node(nd, xl); q != xl; q = prev_node(nd, q))
            uncommit_bounded(&c, q, how);
        x[level] = AT(nd, xl)->d;
        goto try_;
    }
    last = prev_node(nd, xl);
    if (cached) {
        s0 ^= m->dsig[2 * level];
        s1 ^= m->dsig[2 * level + 1];
    }
undo:
    /* X6 (also after an early failure in X5): uncommit the other nodes of x_l that
       were committed, right to left, and go on to the next option of i */
    uncommit_option(&c, xl, last, how);
    x[level] = AT(nd, xl)->d;

try_:
    xl = x[level];
    if (multi && (BOUND[i] || SLACK[i])) {
        /* M5: i is not covered: restore it (M8) when it has too few options left
           for its bound; the null choice (xl == i) closes it, keeping what it has */
        if (LEN_OF(nd, OFF(i)) <= BOUND[i] - SLACK[i]) {
            restore_bounded(&c, i, first[level], how);
            goto leave;
        }
    }
    else if (xl == OFF(i)) {
        /* X7 (M8): backtrack: every option of i has been tried */
        if (multi) {
            uncover(&c, i, how);        /* restore_bounded of a covered item */
            BOUND[i]++;
            x3_fix(&c, i, how);
        }
        else {
            if (heuristic == H_MRV_RANDOM)
                start_at(nd, i, first[level]);      /* i's list as it was */
            uncover(&c, i, how);
            if (cached) {
                s0 ^= m->Z[2 * i];
                s1 ^= m->Z[2 * i + 1];
            }
        }
        goto leave;
    }
    /* X5 (M6): try x_l */
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
    xl = x[level];
    profile[level + 1]++;               /* (the levels past plen are 0) */
    if (plen < level + 2)
        plen = level + 2;
    if (multi) {
        if (BOUND[i] || SLACK[i]) {
            if (xl != OFF(i))
                updates += tweak(&c, xl, BOUND[i] != 0, how);   /* xl leaves i's list */
            else if (BOUND[i])
                deactivate(&c, i, how);                     /* the null choice */
        }
        if (xl != OFF(i))
            for (int q = next_node(nd, xl); q != xl; q = next_node(nd, q))
                updates += commit_bounded(&c, q, how);
        if (bb)                         /* (the null choice adds no weight) */
            add_weight(bb, level, xl != OFF(i) ? r->OPT[IDX(xl)] : -1);
        level++;
        goto enter;
    }
    if (cached)
        commit_flip(m, &c, xl, r->N1, &m->dsig[2 * level], &m->dsig[2 * level + 1]);
    k = commit_option(&c, xl, &last, how);
    if (k < 0) {
        /* early failure: an item outside x_l has no option left: to X6 */
        updates += -1 - k;
        if (heuristic == H_WEIGHTED)
            ran_dry(RL, nd, r->wt);
        goto undo;
    }
    updates += k;
    if (cached) {
        s0 ^= m->dsig[2 * level];
        s1 ^= m->dsig[2 * level + 1];
    }
    if (bb)
        add_weight(bb, level, r->OPT[IDX(xl)]);
    level++;
    goto enter;

save:
    r->level = level;
    r->plen = plen;
    r->i = i;
    r->nodes = nodes;
    r->updates = updates;
    r->zeros = c.zeros;
    if (cached) {
        m->s0 = s0;
        m->s1 = s1;
    }
    return why;
}

/* The instantiations of the one loop: Algorithm X (no colours: every commit a
   cover), the same on Knuth's cyclic walks (`colored` then says CYCLIC: see
   Table.cyclic), Algorithm C (colours), and Algorithm M (bounds; with the coloured
   dance, whether or not the problem has colours). */
NOINLINE int
run_core_plain(Run *r)
{
    return run_core_impl(r, 0, 0, 0);
}

NOINLINE int
run_core_cyclic(Run *r)
{
    return run_core_impl(r, CYCLIC, 0, 0);
}

NOINLINE int
run_core_colored(Run *r)
{
    return run_core_impl(r, COLOURS, 0, 0);
}

NOINLINE int
run_core_bounded(Run *r)
{
    return run_core_impl(r, COLOURS, 1, 0);
}

/* And the same four counting by caching (memo.h). */
NOINLINE int
run_core_plain_cached(Run *r)
{
    return run_core_impl(r, 0, 0, 1);
}

NOINLINE int
run_core_cyclic_cached(Run *r)
{
    return run_core_impl(r, CYCLIC, 0, 1);
}

NOINLINE int
run_core_colored_cached(Run *r)
{
    return run_core_impl(r, COLOURS, 0, 1);
}

NOINLINE int
run_core_bounded_cached(Run *r)
{
    return run_core_impl(r, COLOURS, 1, 1);
}

/* And the four keeping X3's tree (tree.h), for big problems (never with the cache). */
NOINLINE int
run_core_plain_tree(Run *r)
{
    return run_core_impl(r, TREE, 0, 0);
}

NOINLINE int
run_core_cyclic_tree(Run *r)
{
    return run_core_impl(r, CYCLIC | TREE, 0, 0);
}

NOINLINE int
run_core_colored_tree(Run *r)
{
    return run_core_impl(r, COLOURS | TREE, 0, 0);
}

NOINLINE int
run_core_bounded_tree(Run *r)
{
    return run_core_impl(r, COLOURS | TREE_BOUNDED, 1, 0);
}

/* Run the loop compiled for r's table (and cache, or tree). */
int
dlx_run_core(Run *r)
{
    if (r->bits != NULL)
        return dlx_bits_run(r);
    const TableObject *t = r->t;
    if (r->tree != NULL) {
        if (t->multi)
            return run_core_bounded_tree(r);
        if (t->colored)
            return run_core_colored_tree(r);
        return t->cyclic ? run_core_cyclic_tree(r) : run_core_plain_tree(r);
    }
    if (r->memo != NULL) {
        if (t->multi)
            return run_core_bounded_cached(r);
        if (t->colored)
            return run_core_colored_cached(r);
        return t->cyclic ? run_core_cyclic_cached(r) : run_core_plain_cached(r);
    }
    if (t->multi)
        return run_core_bounded(r);
    if (t->colored)
        return run_core_colored(r);
    return t->cyclic ? run_core_cyclic(r) : run_core_plain(r);
}

/* ------------------------------------------------------ forced options (X1) */

/* Is the option of node offset f still available: every node of it still in its
   item's list (not hidden by an earlier choice), and every item it covers (a
   node without a colour) still uncovered?  (dlx.search._available) */
static int
available(const Run *r, int f)
{
    const char *nd = (const char *)r->nd;
    int q = f;
    do {
        const Node *n = AT(nd, q);
        if (AT(nd, n->u)->d != q)
            return 0;
        if (r->COL[IDX(q)] == 0) {
            int j = IDX(n->t);
            if (r->RL[r->LL[j]] != j)
                return 0;
        }
        q = next_node(nd, q);
    } while (q != f);
    return 1;
}

/* X1 (M1) for forced options: choose each (its node f, in its first primary item)
   as the search would: cover f's item and commit the others.  The search below them
   counts, as its root, the step that placed the last one: its commit, with early
   failure, as X5 commits a tried option (dlx.search.run does the same).  Returns
   PLACED; CLASH when an option clashes with an earlier one; DEAD when the last one
   fails early (one node, nothing below).  After CLASH or DEAD the links are half
   changed: reset them. */
int
dlx_place_forced(Run *r, const int *forced, int n)
{
    if (r->bits != NULL)
        return dlx_bits_place_forced(r, forced, n);
    Ctx c = ctx_of(r);
    const int colored = dlx_dance(r->t, 1);      /* (the dance of the steps) */
    long long k = 0;
    int last = 0;
    if (r->t->multi) {
        /* Algorithm M: each forced option is taken out of every list and counts once
           against the bounds of its items (dlx.search.run does the same) */
        for (int j = 0; j < n; j++) {
            int f = forced[j];
            if (r->level >= r->depth - 1 || !available(r, f)) {
                r->zeros = c.zeros;
                return CLASH;
            }
            r->x[r->level] = f;
            tweak(&c, f, 1, KEPT_LENS);
            const char *nd = (const char *)r->nd;
            int q = f;
            do {
                commit_bounded(&c, q, KEPT_LENS);
                q = next_node(nd, q);
            } while (q != f);
            if (r->bb)
                add_weight(r->bb, r->level, r->OPT[IDX(f)]);
            r->level++;
        }
        r->zeros = c.zeros;
        r->updates = 0;
        return PLACED;
    }
    for (int j = 0; j < n; j++) {
        int f = forced[j];
        if (r->level > r->N1 || !available(r, f)) {
            r->zeros = c.zeros;
            return CLASH;
        }
        if (j == n - 1 && c.zeros == 0) {
            /* the last one goes in through the item the search would choose here (when
               it has one), so that its commit is the one the plain search makes */
            const char *nd = (const char *)r->nd;
            int h = OFF(choose_item(r));
            for (int q = next_node(nd, f); q != f; q = next_node(nd, q))
                if (AT(nd, q)->t == h) {
                    f = q;
                    break;
                }
        }
        r->x[r->level] = f;
        cover(&c, IDX(AT(r->nd, f)->t), colored);
        if (j < n - 1) {
            const char *nd = (const char *)r->nd;
            for (int q = next_node(nd, f); q != f; q = next_node(nd, q))
                commit(&c, q, colored);
        }
        else if ((k = commit_option(&c, f, &last, colored)) < 0) {
            uncommit_option(&c, f, last, colored);      /* the root is a dead end */
            r->zeros = c.zeros;
            r->updates = -1 - k;
            return DEAD;
        }
        if (r->bb)
            add_weight(r->bb, r->level, r->OPT[IDX(f)]);
        r->level++;
    }
    r->zeros = c.zeros;
    r->updates = k;
    return PLACED;
}
