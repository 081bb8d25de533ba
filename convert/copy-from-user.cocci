// SPDX-License-Identifier: GPL-2.0
/// copy_from_user() from a write function's buffer, tested for failure,
/// becomes copy_from_iter_full():
///   if (copy_from_user(dst, buf, n))   ->  if (!copy_from_iter_full(dst, n, from))
///   if (!copy_from_user(dst, buf, n))  ->  if (copy_from_iter_full(dst, n, from))
///   != 0, == 0 and ? : in a condition: the same
/// copy_from_user() returns the bytes NOT copied (0 when all were), and
/// copy_from_iter_full() true when all were: the test is turned round.
/// Only the failure test is rewritten.  Where the count of bytes not
/// copied is used as a number (assigned, subtracted, returned), the call
/// is left as it is and scripts/convert wraps the function: on a short
/// copy copy_from_user() zeroes the rest of dst and copy_from_iter() does
/// not, so code that goes on with the partial data would see other bytes.
///
// Confidence: High.  buf must be the buffer itself (buf + offset: see
// chunk-loop.cocci).  On failure copy_from_iter_full() puts the iterator
// back; the function fails anyway.
// Options: run by scripts/convert with NATIVE_WRITE="function ..."

@initialize:python@
@@
import os
natives = set(os.environ.get("NATIVE_WRITE", "").split())

@fn@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}

@script:python@
func << fn.func;
@@
if func not in natives:
    cocci.include_match(False)

@@
identifier fn.func, fn.fl, fn.buf, fn.count, fn.ppos;
type fn.T;
expression dst, n, x, y;
statement S1, S2;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
<...
(
- if (copy_from_user(dst, buf, n))
+ if (!copy_from_iter_full(dst, n, from))
  S1 else S2
|
- if (copy_from_user(dst, buf, n))
+ if (!copy_from_iter_full(dst, n, from))
  S1
|
- if (copy_from_user(dst, buf, n) != 0)
+ if (!copy_from_iter_full(dst, n, from))
  S1 else S2
|
- if (copy_from_user(dst, buf, n) != 0)
+ if (!copy_from_iter_full(dst, n, from))
  S1
|
- if (!copy_from_user(dst, buf, n))
+ if (copy_from_iter_full(dst, n, from))
  S1 else S2
|
- if (!copy_from_user(dst, buf, n))
+ if (copy_from_iter_full(dst, n, from))
  S1
|
- if (copy_from_user(dst, buf, n) == 0)
+ if (copy_from_iter_full(dst, n, from))
  S1 else S2
|
- if (copy_from_user(dst, buf, n) == 0)
+ if (copy_from_iter_full(dst, n, from))
  S1
|
- copy_from_user(dst, buf, n) ? x : y
+ !copy_from_iter_full(dst, n, from) ? x : y
)
...>
}
