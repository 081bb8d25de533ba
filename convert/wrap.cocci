// SPDX-License-Identifier: GPL-2.0
/// The series' mechanical step, for a read or write function that is not
/// converted natively: the function stays as it is, and a helper that runs
/// it from .read_iter or .write_iter is defined right after it:
///   ssize_t NAME(struct file *, char __user *, size_t, loff_t *) { ... }
///   FOPS_READ_ITER_HELPER(NAME);      (FOPS_WRITE_ITER_HELPER for a write)
/// which defines NAME_iter(); fops.cocci points the fops at it.  The helper
/// (iterkit.h, as in the series) calls NAME once per segment of the
/// iterator, as the VFS called .read for readv(), and refuses iterators
/// that are not user memory (kernel_read(), splice), which .read could not
/// take either.
///
// Confidence: High: NAME keeps its code, callers and behaviour, but for
// what iterkit.h's vfs_read_iter() says (io_uring's registered buffers).
// Options: run by scripts/convert with WRAP_READ and WRAP_WRITE

@initialize:python@
@@
import os
reads = set(os.environ.get("WRAP_READ", "").split())
writes = set(os.environ.get("WRAP_WRITE", "").split())

@r@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}

@script:python@
func << r.func;
@@
if func not in reads:
    cocci.include_match(False)

@@
identifier r.func, r.fl, r.buf, r.count, r.ppos;
type r.T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}
+FOPS_READ_ITER_HELPER(func);

@w@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}

@script:python@
func << w.func;
@@
if func not in writes:
    cocci.include_match(False)

@@
identifier w.func, w.fl, w.buf, w.count, w.ppos;
type w.T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}
+FOPS_WRITE_ITER_HELPER(func);
