/* dlx._core's counting cache (memo.h says what it keeps): making, growing and
 * freeing it, and the signature of a search's starting state.
 */

#include "memo.h"

#define FIRST_SLOTS 1024

/* A cache for searches of r's table, at most `limit` entries; NULL on no memory. */
Memo *
dlx_memo_new(const Run *r, size_t limit)
{
    const TableObject *t = r->t;
    size_t items = (size_t)t->N + 2, levels = (size_t)r->depth + 1;
    Memo *m = (Memo *)PyMem_Calloc(1, sizeof(Memo));
    if (m == NULL)
        return NULL;
    m->limit = limit;
    m->cap = FIRST_SLOTS;
    m->keys = (uint64_t *)PyMem_Malloc(2 * m->cap * sizeof(uint64_t));
    m->vals = (u128 *)PyMem_Malloc(m->cap * sizeof(u128));
    m->used = (unsigned char *)PyMem_Calloc(m->cap, 1);
    m->Z = (uint64_t *)PyMem_Malloc(2 * items * sizeof(uint64_t));
    m->lkey = (uint64_t *)PyMem_Malloc(2 * levels * sizeof(uint64_t));
    m->lfrom = (u128 *)PyMem_Malloc(levels * sizeof(u128));
    m->lset = (unsigned char *)PyMem_Calloc(levels, 1);
    m->dsig = (uint64_t *)PyMem_Calloc(2 * levels, sizeof(uint64_t));
    m->stamp = (int *)PyMem_Calloc((size_t)t->n_options + 1, sizeof(int));
    if (m->keys == NULL || m->vals == NULL || m->used == NULL || m->Z == NULL
        || m->lkey == NULL || m->lfrom == NULL || m->lset == NULL || m->dsig == NULL
        || m->stamp == NULL) {
        dlx_memo_free(m);
        return NULL;
    }
    for (size_t i = 0; i < items; i++) {
        m->Z[2 * i] = mix64(2 * i + 0x9b05688c2b3e6c1fULL);
        m->Z[2 * i + 1] = mix64(2 * i + 1 + 0x1f83d9abfb41bd6bULL);
    }
    return m;
}

void
dlx_memo_free(Memo *m)
{
    if (m == NULL)
        return;
    if (m->zdd != NULL) {
        PyMem_Free(m->zdd->var);
        PyMem_Free(m->zdd->lo);
        PyMem_Free(m->zdd->hi);
        PyMem_Free(m->zdd->slots);
        PyMem_Free(m->zdd);
    }
    PyMem_Free(m->znode);
    PyMem_Free(m->zres);
    PyMem_Free(m->keys);
    PyMem_Free(m->vals);
    PyMem_Free(m->used);
    PyMem_Free(m->Z);
    PyMem_Free(m->lkey);
    PyMem_Free(m->lfrom);
    PyMem_Free(m->lset);
    PyMem_Free(m->dsig);
    PyMem_Free(m->stamp);
    PyMem_Free(m);
}

/* Double the table (the entries rehashed); left as it was when there is no memory. */
void
dlx_memo_grow(Memo *m)
{
    size_t cap = 2 * m->cap;
    uint64_t *keys = (uint64_t *)PyMem_Malloc(2 * cap * sizeof(uint64_t));
    u128 *vals = (u128 *)PyMem_Malloc(cap * sizeof(u128));
    unsigned char *used = (unsigned char *)PyMem_Calloc(cap, 1);
    int32_t *znode = m->zdd == NULL ? NULL : (int32_t *)PyMem_Malloc(cap * sizeof(int32_t));
    if (keys == NULL || vals == NULL || used == NULL || (m->zdd != NULL && znode == NULL)) {
        PyMem_Free(keys);
        PyMem_Free(vals);
        PyMem_Free(used);
        PyMem_Free(znode);
        return;
    }
    for (size_t s = 0; s < m->cap; s++) {
        if (!m->used[s])
            continue;
        size_t t = (size_t)m->keys[2 * s] & (cap - 1);
        while (used[t])
            t = (t + 1) & (cap - 1);
        used[t] = 1;
        keys[2 * t] = m->keys[2 * s];
        keys[2 * t + 1] = m->keys[2 * s + 1];
        vals[t] = m->vals[s];
        if (znode != NULL)
            znode[t] = m->znode[s];
    }
    PyMem_Free(m->keys);
    PyMem_Free(m->vals);
    PyMem_Free(m->used);
    PyMem_Free(m->znode);
    m->keys = keys;
    m->vals = vals;
    m->used = used;
    m->znode = znode;
    m->cap = cap;
}

/* ------------------------------------------------------------------ the ZDD */

int
dlx_memo_want_zdd(Memo *m, const Run *r)
{
    Zdd *z = (Zdd *)PyMem_Calloc(1, sizeof(Zdd));
    if (z == NULL)
        return -1;
    m->zdd = z;
    z->cap = 1024;
    z->slot_cap = 2048;
    z->var = (int32_t *)PyMem_Malloc(z->cap * sizeof(int32_t));
    z->lo = (int32_t *)PyMem_Malloc(z->cap * sizeof(int32_t));
    z->hi = (int32_t *)PyMem_Malloc(z->cap * sizeof(int32_t));
    z->slots = (int32_t *)PyMem_Calloc(z->slot_cap, sizeof(int32_t));
    m->znode = (int32_t *)PyMem_Malloc(m->cap * sizeof(int32_t));
    m->zres = (int32_t *)PyMem_Calloc((size_t)r->depth + 2, sizeof(int32_t));
    if (z->var == NULL || z->lo == NULL || z->hi == NULL || z->slots == NULL
        || m->znode == NULL || m->zres == NULL)
        return -1;
    for (int k = 0; k < 2; k++)             /* the sinks, as dlx.zdd lays them out */
        z->var[k] = -1, z->lo[k] = k, z->hi[k] = k;
    z->count = 2;
    return 0;
}

static size_t
triple_hash(int32_t var, int32_t lo, int32_t hi)
{
    return (size_t)mix64(((uint64_t)(uint32_t)var << 32) ^ (uint32_t)lo ^ ((uint64_t)hi << 17));
}

/* Double the unique table (or fail quietly: z->failed). */
static int
zdd_grow_slots(Zdd *z)
{
    size_t cap = 2 * z->slot_cap;
    int32_t *slots = (int32_t *)PyMem_Calloc(cap, sizeof(int32_t));
    if (slots == NULL)
        return -1;
    for (size_t id = 2; id < z->count; id++) {
        size_t s = triple_hash(z->var[id], z->lo[id], z->hi[id]) & (cap - 1);
        while (slots[s])
            s = (s + 1) & (cap - 1);
        slots[s] = (int32_t)id + 1;
    }
    PyMem_Free(z->slots);
    z->slots = slots;
    z->slot_cap = cap;
    return 0;
}

int32_t
dlx_zdd_make(Zdd *z, int32_t var, int32_t lo, int32_t hi)
{
    if (hi == 0 || z->failed)
        return hi == 0 ? lo : 0;
    size_t mask = z->slot_cap - 1, s = triple_hash(var, lo, hi) & mask;
    for (; z->slots[s]; s = (s + 1) & mask) {
        int32_t id = z->slots[s] - 1;
        if (z->var[id] == var && z->lo[id] == lo && z->hi[id] == hi)
            return id;
    }
    if (z->count >= (size_t)INT32_MAX - 1) {
        z->failed = 1;
        return 0;
    }
    if (z->count == z->cap) {
        size_t cap = 2 * z->cap;
        int32_t *v = (int32_t *)PyMem_Realloc(z->var, cap * sizeof(int32_t));
        if (v != NULL)
            z->var = v;
        int32_t *l = v == NULL ? NULL : (int32_t *)PyMem_Realloc(z->lo, cap * sizeof(int32_t));
        if (l != NULL)
            z->lo = l;
        int32_t *h = l == NULL ? NULL : (int32_t *)PyMem_Realloc(z->hi, cap * sizeof(int32_t));
        if (h == NULL) {
            z->failed = 1;
            return 0;
        }
        z->hi = h;
        z->cap = cap;
    }
    int32_t id = (int32_t)z->count++;
    z->var[id] = var;
    z->lo[id] = lo;
    z->hi[id] = hi;
    z->slots[s] = id + 1;
    if (2 * z->count > z->slot_cap && zdd_grow_slots(z) < 0)
        z->failed = 1;
    return id;
}

/* The signature of the state run r stands in (Algorithm C): the primary items in the
   item list (the secondary ones are read off the links for each key). */
void
dlx_memo_start(Memo *m, const Run *r)
{
    const int *RL = r->RL;
    uint64_t a = 0, b = 0;
    for (int j = RL[0]; j != 0; j = RL[j]) {
        a ^= m->Z[2 * j];
        b ^= m->Z[2 * j + 1];
    }
    m->s0 = a;
    m->s1 = b;
    m->total = 0;
}
