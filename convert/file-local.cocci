// SPDX-License-Identifier: GPL-2.0
/// The step of a native conversion before signature.cocci: a read or write
/// function that uses its struct file parameter gets a local of the same
/// name, from the kiocb that signature.cocci then puts in its place:
///   struct file *file = iocb->ki_filp;
/// It goes first among the locals, since their initializers may use it.
///
// Confidence: High: the local is the parameter's value for the whole call.
// Options: run by scripts/convert with NATIVE_READ and NATIVE_WRITE

@initialize:python@
@@
import os
reads = set(os.environ.get("NATIVE_READ", "").split())
writes = set(os.environ.get("NATIVE_WRITE", "").split())

@usesfile exists@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
... when any
fl
... when any
}

@script:python@
func << usesfile.func;
@@
if func not in reads and func not in writes:
    cocci.include_match(False)

@@
identifier usesfile.func, usesfile.fl, usesfile.buf, usesfile.count, usesfile.ppos;
type usesfile.T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
+ struct file *fl = iocb->ki_filp;
...
}

