// SPDX-License-Identifier: GPL-2.0
/// debugfs files whose fops get .read_iter or .write_iter.
/// debugfs_create_file() puts a proxy in front of a file's fops that
/// brackets each call with debugfs_file_get()/debugfs_file_put(), so that
/// debugfs_remove() waits for calls in flight; but it proxies .read and
/// .write only (up to 7.3 at least): behind it, a .read_iter file fails
/// with -EINVAL.  So such a file is created with
/// debugfs_create_file_unsafe(), which leaves the fops as they are, and
/// each handler brackets itself (debugfs_iter.h):
///   DEBUGFS_ITER_SAFE(NAME_iter);      after the handler NAME (and after
///                                      wrap.cocci's helper, which comes
///                                      before it), defines NAME_iter_safe
///                                      (fops.cocci uses it)
///   debugfs_create_file(..., &fops) -> debugfs_create_file_unsafe(...)
///
// Confidence: High for a call that names the fops (&fops).  A call whose
// fops argument is anything else (f->fops) is switched only when
// scripts/convert found that every fops the file defines is converted,
// and it says so in its report: fops from another file would lose the
// proxy's protection.
// Options: run by scripts/convert before signature.cocci and wrap.cocci,
// with SAFE_OPS (the fops), SAFE_READ, SAFE_WRITE (their handlers), and
// -D indirect for the case above

virtual indirect

@initialize:python@
@@
import os
safe = set(os.environ.get("SAFE_OPS", "").split())
handlers = set(os.environ.get("SAFE_READ", "").split()) | \
	set(os.environ.get("SAFE_WRITE", "").split())

@r@
identifier func, fl, buf, count, ppos;
type T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}

@script:python r2@
func << r.func;
func_iter;
@@
if func not in handlers:
    cocci.include_match(False)
else:
    coccinelle.func_iter = cocci.make_ident(func + "_iter")

@@
identifier r.func, r.fl, r.buf, r.count, r.ppos, r2.func_iter;
type r.T;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}
+DEBUGFS_ITER_SAFE(func_iter);

@c@
identifier ops;
expression list args;
@@
debugfs_create_file(args, &ops)

@script:python@
ops << c.ops;
@@
if ops not in safe:
    cocci.include_match(False)

@@
identifier c.ops;
expression list c.args;
@@
- debugfs_create_file(args, &ops)
+ debugfs_create_file_unsafe(args, &ops)

@depends on indirect@
expression list args;
expression fops, E;
@@
(
  debugfs_create_file(args, &E)
|
- debugfs_create_file(args, fops)
+ debugfs_create_file_unsafe(args, fops)
)
