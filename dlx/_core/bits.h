/* dlx._core's second representation, for small problems: bitsets (bits.c).
 *
 * The links move nodes in and out of lists; for a small, dense problem most of a
 * node's time goes into those moves and their undoing.  Here the same search
 * (Algorithm X with the same choices, in the same order, counting the same
 * nodes and the same link updates) keeps, for each level, the set of live
 * options as a bitset and the number of live options of each primary item:
 *
 *   cover(i)    the options of i still live are ANDed out of the live set (a few
 *               words), and each takes one from the count of its primary items;
 *               the updates are those the links would make (1 + the other nodes
 *               of each option hidden)
 *   X3          minimum remaining values over the counts (a covered item counts
 *               COVERED, more than any); the first minimum, as choose_mrv
 *   X5          the level's state is copied to the next level and the option is
 *               committed there, so that X6 and X7 undo nothing: the state of
 *               the level below is still as it was
 *
 * It serves problems without colours or bounds, counted or listed under the
 * rules mrv and first (not cached, not branch and bound), with forced options,
 * budgets, check points and batches; anything else runs on the links.  A Table
 * builds its bitsets when it is small enough (dlx_bits_build); a Run uses them
 * when it is attached (dlx_bits_attach), which "auto" does when they pay.
 */

#ifndef DLX_BITS_H
#define DLX_BITS_H

#include <stdint.h>

typedef uint64_t word;

/* Limits of the representation: option sets of at most this many options (and so
   counts below 0x7FFF, the count of a covered item), and tables of at most
   BITS_MAX_BYTES of bitsets. */
#define BITS_MAX_OPTIONS 16384
#define BITS_MAX_BYTES (4 << 20)

/* The static bitsets of a table (built once, read by every search of it). */
typedef struct Bits {
    int W;                  /* words of one option set */
    int W4;                 /* W rounded up to a multiple of 4 (a state's live words) */
    int NP;                 /* counts kept: N1 + 1 rounded up to a multiple of 16 */
    int n_options;
    word *opts;             /* item j's options at opts + j * W (j = 1..N) */
    int *lo, *hi;           /* item j's options lie in words [lo[j], hi[j]); hi[j] < 0:
                               fewer options than that, listed instead: */
    int *istart, *ilist;    /* item j's options ilist[istart[j] .. istart[j+1]) */
    int *ofirst;            /* option o's nodes: ofirst[o] .. ofirst[o] + olen[o] - 1 */
    int *olen;
    int *pstart, *prim;     /* option o's primary items: prim[pstart[o] .. pstart[o+1]) */
    void *cnt0;             /* NP counts at the start (item 0 and padding COVERED) */
    int narrow;             /* counts in bytes: no item has 255 options or more */
    int zeros0, active0;    /* primary items with no option, and all of them */
    size_t stride;          /* bytes of one level's state (see bits.c) */
    int pays;               /* whether "auto" uses them (size and density) */
} Bits;

#endif /* DLX_BITS_H */
