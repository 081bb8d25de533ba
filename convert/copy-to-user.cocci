// SPDX-License-Identifier: GPL-2.0
/// copy_to_user() on a read function's buffer becomes copy_to_iter(), in
/// the contexts where the meaning of the result is known:
///   if (copy_to_user(buf, src, n))   ->  if (copy_to_iter(src, n, to) != n)
///   if (!copy_to_user(buf, src, n))  ->  if (copy_to_iter(src, n, to) == n)
///   copy_to_user(...) != 0, == 0, ? : in a condition: the same
///   x -= copy_to_user(buf, src, x)  ->  x = copy_to_iter(src, x, to)
///   y -= copy_to_user(buf, src, n)  ->  y -= n - copy_to_iter(src, n, to)
///   y = copy_to_user(buf, src, n)   ->  y = n - copy_to_iter(src, n, to)
///   return copy_to_user(buf, src, n) -> return n - copy_to_iter(src, n, to)
/// copy_to_user() returns the bytes NOT copied, copy_to_iter() the bytes
/// copied: "-=" kept as it was would subtract what was done (the trap).
/// Any other use of the call is left as it is, and scripts/convert then
/// finds the buffer still in use and wraps the function instead.
///
// Confidence: High.  n appears twice in the result, so it must be a plain
// value (names, fields, constants, sizeof, arithmetic on those, no call):
// otherwise the call is left alone.  buf must be the buffer itself, not
// buf + offset: an iterator moves by itself.  scripts/convert also refuses
// a function with two accesses to the buffer on one path.
// Options: run by scripts/convert with NATIVE_READ="function ..."

@initialize:python@
@@
import os, re
natives = set(os.environ.get("NATIVE_READ", "").split())
def plain(e):
    return re.fullmatch(r"[\w\s.>*+\-()]*", e) is not None and \
        re.search(r"\w\s*\(", re.sub(r"\bsizeof\s*\(", "", e)) is None

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
expression src, x;
expression n : script:python() { plain(n) };
expression y;
statement S1, S2;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
<...
(
- if (copy_to_user(buf, src, n))
+ if (copy_to_iter(src, n, to) != n)
  S1 else S2
|
- if (copy_to_user(buf, src, n))
+ if (copy_to_iter(src, n, to) != n)
  S1
|
- if (copy_to_user(buf, src, n) != 0)
+ if (copy_to_iter(src, n, to) != n)
  S1 else S2
|
- if (copy_to_user(buf, src, n) != 0)
+ if (copy_to_iter(src, n, to) != n)
  S1
|
- if (!copy_to_user(buf, src, n))
+ if (copy_to_iter(src, n, to) == n)
  S1 else S2
|
- if (!copy_to_user(buf, src, n))
+ if (copy_to_iter(src, n, to) == n)
  S1
|
- if (copy_to_user(buf, src, n) == 0)
+ if (copy_to_iter(src, n, to) == n)
  S1 else S2
|
- if (copy_to_user(buf, src, n) == 0)
+ if (copy_to_iter(src, n, to) == n)
  S1
|
- copy_to_user(buf, src, n) ? x : y
+ copy_to_iter(src, n, to) != n ? x : y
|
- n -= copy_to_user(buf, src, n);
+ n = copy_to_iter(src, n, to);
|
- y -= copy_to_user(buf, src, n);
+ y -= n - copy_to_iter(src, n, to);
|
- y = copy_to_user(buf, src, n);
+ y = n - copy_to_iter(src, n, to);
|
- return copy_to_user(buf, src, n);
+ return n - copy_to_iter(src, n, to);
)
...>
}
