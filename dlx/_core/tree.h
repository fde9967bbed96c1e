/* dlx._core's X3 in time that follows the work: a tournament tree over the primary
 * items (tree.h), for big problems.
 *
 * The scan of X3 (dance.h's choose_mrv, choose_bounded_by) walks the active list at
 * every node: on a problem of a million items whose search does a few link updates
 * per node, the scan is nearly all of the time (nodes x items).  Here each primary
 * item has a key, and a tournament tree (a binary heap of minima, in an array)
 * keeps the least key at its root, so that X3 reads the root and every change of a
 * key costs O(log items) at most (usually a step or two: a change stops going up
 * where it no longer changes a minimum).  The keys make the tree choose exactly
 * the item the scan chooses, because the active list always holds the uncovered
 * primary items in the order of their numbers (table.c checks that a table's list
 * is 1..N1; covering, deactivating and their undoing keep the order), so the
 * position of an item in the list is its number:
 *
 *   without bounds  (max(LEN, 1), i): the scan stops at the first item of at most
 *                   one option, else takes the first of fewest options;
 *   under bounds    (d, s, -LEN, i) for the branching degree d = LEN + s - BOUND + 1,
 *                   s = min(SLACK, BOUND) (dance.h's degree_of), and (0, 0, 0, i)
 *                   for d <= 0: Algorithm M's rule, ties to the smaller s, then the
 *                   longer list, then the first; and the first dead end, where the
 *                   scan stops.
 *
 * An item out of the active list (covered, or closed by Algorithm M's null choice)
 * has the key OUT, more than any.  Keys without bounds are 64 bits (LEN and the
 * item number, 32 each), under bounds 128 (the four fields, 32 each).
 *
 * The tree of one search: T[1] is the root, T[k]'s children are T[2k] and T[2k+1],
 * and item i's leaf is T[P + i], where P (a power of two) is more than N1 (item 0
 * and the leaves past N1 hold OUT).  T[0] holds 0, less than any key, so that a
 * key going down stops there without a test.  After the keys come the items whose
 * LEN (or BOUND) changed since the last X3, each once: the steps of the dance only
 * mark them (dance.h's x3_len), and X3 first gives each its key (x3_flush), so an
 * item whose LEN goes down and back up between two choices (an option committed,
 * then uncommitted) costs no move at all.  Covering an item and the null choice
 * take it out of the tree at once (x3_out), and uncovering puts it back (x3_in).
 * dance.h calls these when the loop keeps a tree (its TREE flag); loop.c builds
 * the tree (dlx_tree_build) once the forced options are placed, from the state
 * the search starts from.
 */

#ifndef DLX_TREE_H
#define DLX_TREE_H

#include <stdint.h>

typedef unsigned __int128 wkey;          /* a key under bounds */

#define OUT64 (~(uint64_t)0)
#define OUT128 (~(wkey)0)

/* The key of an uncovered primary item i with len options, without bounds. */
ALWAYS_INLINE uint64_t
tree_key(int len, int i)
{
    return (uint64_t)(len > 1 ? len : 1) << 32 | (uint32_t)i;
}

/* The key of an uncovered primary item i under bounds: len options, b = BOUND[i]
   more times it may be covered, slack = SLACK[i]. */
ALWAYS_INLINE wkey
tree_key_bounded(int len, int b, int slack, int i)
{
    int s = slack < b ? slack : b;
    int d = len + s - b + 1;
    if (d <= 0)
        return (wkey)(uint32_t)i;
    uint64_t hi = (uint64_t)(uint32_t)d << 32 | (uint32_t)s;
    uint64_t lo = (uint64_t)(0x80000000u - (uint32_t)len) << 32 | (uint32_t)i;
    return (wkey)hi << 64 | lo;
}

/* Leaf l (holding old) takes key; the minima above it follow: a key going down
   replaces the minima it beats, a key going up (the leaf was the minimum of a
   subtree) makes each such subtree take the least of its two children again. */
#define TREE_MOVE(name, type)                                                  \
    ALWAYS_INLINE void                                                         \
    name(type *T, int l, type old, type key)                                   \
    {                                                                          \
        if (key == old)                                                        \
            return;                                                            \
        T[l] = key;                                                            \
        if (key < old) {                                                       \
            for (l >>= 1; T[l] > key; l >>= 1)                                 \
                T[l] = key;                                                    \
            return;                                                            \
        }                                                                      \
        for (; l > 1 && T[l >> 1] == old; l >>= 1)                             \
            T[l >> 1] = T[l] < T[l ^ 1] ? T[l] : T[l ^ 1];                     \
    }
TREE_MOVE(tree_move, uint64_t)
TREE_MOVE(tree_move_bounded, wkey)
#undef TREE_MOVE

#endif /* DLX_TREE_H */
