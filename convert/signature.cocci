// SPDX-License-Identifier: GPL-2.0
/// The last step of a native conversion, once the buffer's users are
/// rewritten: a legacy read or write function takes the signature of
/// .read_iter or .write_iter and its new name, NAME_iter:
///   ssize_t NAME(struct file *file, char __user *buf, size_t count,
///                loff_t *ppos)
///     -> ssize_t NAME_iter(struct kiocb *iocb, struct iov_iter *to)
/// (from, for a write), and what the old parameters were comes from the
/// kiocb and the iterator:
///   file   -> struct file *file = iocb->ki_filp;   (file-local.cocci)
///   count  -> size_t count = iov_iter_count(to);   (a local, if used)
///   *ppos  -> iocb->ki_pos
///   ppos   -> &iocb->ki_pos
/// count is the iterator's count on entry, as the parameter was; a local
/// keeps any code that changes it working.  The file_operations fields are
/// switched by fops.cocci.
///
// Confidence: High, given scripts/convert's checks: it takes a function
// only when nothing but its fops names it, no use of the buffer is left,
// ppos is never tested for NULL (a stream file's .read gets NULL; ki_pos
// is always there), and no local is named iocb, to or from.
// Options: run by scripts/convert with NATIVE_READ and NATIVE_WRITE

@initialize:python@
@@
import os
reads = set(os.environ.get("NATIVE_READ", "").split())
writes = set(os.environ.get("NATIVE_WRITE", "").split())

// Each step starts with a rule of its own: a script that drops every
// match (none of its functions in this file) would leave the steps after
// it nothing to inherit.

// count, read or write: a local from the iterator (to, or from).
@count_r exists@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
... when any
count
... when any
}

@script:python@
func << count_r.func;
@@
if func not in reads:
    cocci.include_match(False)

@@
identifier count_r.func, count_r.fl, count_r.buf, count_r.count, count_r.ppos;
type count_r.T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
+ size_t count = iov_iter_count(to);
...
}

@count_w exists@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
... when any
count
... when any
}

@script:python@
func << count_w.func;
@@
if func not in writes:
    cocci.include_match(False)

@@
identifier count_w.func, count_w.fl, count_w.buf, count_w.count, count_w.ppos;
type count_w.T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
+ size_t count = iov_iter_count(from);
...
}

// The position.
@pos@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}

@script:python@
func << pos.func;
@@
if func not in reads and func not in writes:
    cocci.include_match(False)

@@
identifier pos.func, pos.fl, pos.buf, pos.count, pos.ppos;
type pos.T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
<...
(
- *ppos
+ iocb->ki_pos
|
- ppos
+ &iocb->ki_pos
)
...>
}

// The signature and the name.
@sig_r@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}

@script:python@
func << sig_r.func;
@@
if func not in reads:
    cocci.include_match(False)

@@
identifier sig_r.func, sig_r.fl, sig_r.buf, sig_r.count, sig_r.ppos;
type sig_r.T;
fresh identifier func_iter = func ## "_iter";
@@
ssize_t
- func(struct file *fl, T buf, size_t count, loff_t *ppos)
+ func_iter(struct kiocb *iocb, struct iov_iter *to)
{
...
}

@sig_w@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}

@script:python@
func << sig_w.func;
@@
if func not in writes:
    cocci.include_match(False)

@@
identifier sig_w.func, sig_w.fl, sig_w.buf, sig_w.count, sig_w.ppos;
type sig_w.T;
fresh identifier func_iter = func ## "_iter";
@@
ssize_t
- func(struct file *fl, T buf, size_t count, loff_t *ppos)
+ func_iter(struct kiocb *iocb, struct iov_iter *from)
{
...
}
