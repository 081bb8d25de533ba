// SPDX-License-Identifier: GPL-2.0
/// simple_read_from_buffer() and simple_write_to_buffer() on the whole of
/// a read or write function's buffer become the series' iterator helpers:
///   simple_read_from_buffer(buf, count, pos, src, avail)
///     -> simple_copy_to_iter(src, pos, avail, to)
///   simple_write_to_buffer(dst, avail, pos, buf, count)
///     -> simple_copy_from_iter(dst, pos, avail, from)
/// Both keep the contract of the old ones (return value, position), with
/// the iterator's own count in place of count; so count must be the
/// function's count parameter, unchanged before the call.  The position
/// (ppos, or &pos of a local) is rewritten with the others by
/// signature.cocci.
///
// Confidence: High.  The helpers are iterkit.h's, written from the old
// ones' contract (see its comments).
// Options: run by scripts/convert with NATIVE_READ and NATIVE_WRITE

@initialize:python@
@@
import os
reads = set(os.environ.get("NATIVE_READ", "").split())
writes = set(os.environ.get("NATIVE_WRITE", "").split())

@fn_r@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}

@script:python@
func << fn_r.func;
@@
if func not in reads:
    cocci.include_match(False)

@exists@
identifier fn_r.func, fn_r.fl, fn_r.buf, fn_r.count, fn_r.ppos;
type fn_r.T;
expression pos, src, avail, E;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
... when != count = E
    when != count += E
    when != count -= E
    when != count++
    when != count--
- simple_read_from_buffer(buf, count, pos, src, avail)
+ simple_copy_to_iter(src, pos, avail, to)
... when any
}

@fn_w@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}

@script:python@
func << fn_w.func;
@@
if func not in writes:
    cocci.include_match(False)

@exists@
identifier fn_w.func, fn_w.fl, fn_w.buf, fn_w.count, fn_w.ppos;
type fn_w.T;
expression pos, dst, avail, E;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
... when != count = E
    when != count += E
    when != count -= E
    when != count++
    when != count--
- simple_write_to_buffer(dst, avail, pos, buf, count)
+ simple_copy_from_iter(dst, pos, avail, from)
... when any
}
