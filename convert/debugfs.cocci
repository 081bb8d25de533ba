// SPDX-License-Identifier: GPL-2.0
/// debugfs files whose fops move to .read_iter/.write_iter.
/// debugfs_create_file() puts a proxy in front of a file's fops that
/// brackets each call with debugfs_file_get()/debugfs_file_put(), so that
/// debugfs_remove() waits for calls in flight; but it proxies .read,
/// .write, .llseek, .poll and .unlocked_ioctl only (up to 7.3 at least):
/// behind it, a .read_iter file fails with -EINVAL.  So such a file is
/// created with debugfs_create_file_unsafe(), which leaves the fops as
/// they are, and each method guards itself (debugfs_iter.h: scripts/convert
/// puts DEBUGFS_ITER_SAFE(fn) and its kin before the fops):
///   debugfs_create_file(...) -> debugfs_create_file_unsafe(...)
///
// Confidence: High, given scripts/convert's checks: it picks a call only
// when every fops that can reach it (one, or a table's) has each of its
// methods guarded and an .owner, and when those fops reach no other kind
// of registration.
// Options: run by scripts/convert first, on the file as it came, with
// SAFE_LINES: the lines of the calls to change

@initialize:python@
@@
import os
lines = {int(n) for n in os.environ.get("SAFE_LINES", "").split()}

@c@
expression list args;
position p;
@@
debugfs_create_file@p(args)

@script:python@
p << c.p;
@@
if int(p[0].line) not in lines:
    cocci.include_match(False)

@@
expression list c.args;
position c.p;
@@
- debugfs_create_file@p(args)
+ debugfs_create_file_unsafe(args)
