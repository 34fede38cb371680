/* Debug checks shared by the library corpus.
 *
 * Every public function that takes one of the corpus structures states what
 * it expects on entry with EXPECT_INPUT / EXPECT_VALID, and mutating
 * functions state what they leave behind with ENSURE_RESULT / ENSURE_VALID.
 * Normally (and when cairn analyses the files) the checks expand to nothing
 * and their arguments are not even compiled.  Built with
 * -DCORPUS_CHECK_INVARIANTS, a failed check prints one line on stdout:
 *
 *     INVALID INPUT <function>     the caller broke the function's contract
 *     INVALID RESULT <function>    the function broke the structure
 *
 * Each function has at most one entry check (before any ENSURE_*), so one
 * call prints at most one INVALID INPUT line, and the result is only checked
 * when the input was valid. */
#ifndef CORPUS_CHECK_H
#define CORPUS_CHECK_H

#ifdef CORPUS_CHECK_INVARIANTS
#include <stdio.h>
#define CORPUS_REPORT_(what) \
    do { printf("%s %s\n", (what), __func__); fflush(stdout); } while (0)
/* Declares `corpus_input_ok_` (so at most once per function, at the level
 * of its body): the result is only checked when the input was valid, as a
 * function may legitimately free or reshape parts of an invalid input in a
 * way the predicate could not walk safely afterwards. */
#define EXPECT_INPUT(cond) \
    const int corpus_input_ok_ = (cond); \
    if (!corpus_input_ok_) CORPUS_REPORT_("INVALID INPUT"); \
    (void)corpus_input_ok_
#define ENSURE_RESULT(cond) \
    do { if (corpus_input_ok_ && !(cond)) CORPUS_REPORT_("INVALID RESULT"); } while (0)
#else
#define EXPECT_INPUT(cond) ((void)0)
#define ENSURE_RESULT(cond) ((void)0)
#endif

/* The structure `x` satisfies the invariant predicate `pred`. */
#define EXPECT_VALID(pred, x) EXPECT_INPUT((pred)(x))
#define ENSURE_VALID(pred, x) ENSURE_RESULT((pred)(x))

#endif /* CORPUS_CHECK_H */
