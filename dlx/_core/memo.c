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
    if (keys == NULL || vals == NULL || used == NULL) {
        PyMem_Free(keys);
        PyMem_Free(vals);
        PyMem_Free(used);
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
    }
    PyMem_Free(m->keys);
    PyMem_Free(m->vals);
    PyMem_Free(m->used);
    m->keys = keys;
    m->vals = vals;
    m->used = used;
    m->cap = cap;
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
