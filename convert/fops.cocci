// SPDX-License-Identifier: GPL-2.0
/// The fields of struct file_operations and struct proc_ops that name a
/// converted or wrapped function switch to the iterator ones:
///   .read = NAME       ->  .read_iter = NAME_iter
///   .write = NAME      ->  .write_iter = NAME_iter
///   .proc_read = NAME  ->  .proc_read_iter = NAME_iter
///   .read = seq_read   ->  .read_iter = seq_read_iter   (and .proc_read)
/// NAME_iter is what signature.cocci or wrap.cocci made of NAME.  In a
/// fops that moves from debugfs_create_file() to _unsafe (debugfs.cocci),
/// the handler is NAME_iter_safe instead (DEBUGFS_ITER_SAFE(): scripts/convert
/// puts it before the fops, with the other methods' guards).  There is no .proc_write_iter
/// (up to 7.3 at least): .proc_write stays.  seq_read() is
/// seq_read_iter() run on a user buffer: the same code, since 5.10.
///
// Confidence: High.  Only one of .read/.read_iter (.write/.write_iter) is
// ever set: the old field is replaced, not kept.
// Options: run by scripts/convert with ITER_READ, ITER_WRITE (the
// functions to switch), SEQ_OPS (the seq_read fops to switch) and SAFE_OPS
// (fops moving to debugfs_create_file_unsafe)

@initialize:python@
@@
import os
reads = set(os.environ.get("ITER_READ", "").split())
writes = set(os.environ.get("ITER_WRITE", "").split())
safe = set(os.environ.get("SAFE_OPS", "").split())
seq = set(os.environ.get("SEQ_OPS", "").split())
def suffix(ops):
    return "_iter_safe" if ops in safe else "_iter"

@r@
identifier ops, func;
@@
(
struct file_operations ops = { ..., .read = func, ... };
|
struct proc_ops ops = { ..., .proc_read = func, ... };
)

@script:python r2@
ops << r.ops;
func << r.func;
func_iter;
@@
if func not in reads:
    cocci.include_match(False)
else:
    coccinelle.func_iter = cocci.make_ident(func + suffix(ops))

@@
identifier r.ops, r.func, r2.func_iter;
@@
(
struct file_operations ops = {
	...,
-	.read = func,
+	.read_iter = func_iter,
	...
};
|
struct proc_ops ops = {
	...,
-	.proc_read = func,
+	.proc_read_iter = func_iter,
	...
};
)

@w@
identifier ops, func;
@@
struct file_operations ops = { ..., .write = func, ... };

@script:python w2@
ops << w.ops;
func << w.func;
func_iter;
@@
if func not in writes:
    cocci.include_match(False)
else:
    coccinelle.func_iter = cocci.make_ident(func + suffix(ops))

@@
identifier w.ops, w.func, w2.func_iter;
@@
struct file_operations ops = {
	...,
-	.write = func,
+	.write_iter = func_iter,
	...
};

@sq@
identifier ops;
symbol seq_read;
@@
(
struct file_operations ops = { ..., .read = seq_read, ... };
|
struct proc_ops ops = { ..., .proc_read = seq_read, ... };
)

@script:python@
ops << sq.ops;
@@
if ops not in seq:
    cocci.include_match(False)

@@
identifier sq.ops;
@@
(
struct file_operations ops = {
	...,
-	.read = seq_read,
+	.read_iter = seq_read_iter,
	...
};
|
struct proc_ops ops = {
	...,
-	.proc_read = seq_read,
+	.proc_read_iter = seq_read_iter,
	...
};
)
