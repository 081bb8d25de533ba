// SPDX-License-Identifier: GPL-2.0
/// kstrto<type>_from_user() on a write function's buffer becomes the
/// series' kstrto<type>_from_iter(), with the same count, base, result and
/// return values (0, -EFAULT, -EINVAL, -ERANGE):
///   kstrtou32_from_user(buf, n, base, &val)
///     -> kstrtou32_from_iter(from, n, base, &val)
///
// Confidence: High.  The _from_iter() versions are iterkit.h's, written
// from the contract of lib/kstrtox.c's _from_user() ones.
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

@k@
identifier fn.func, fn.fl, fn.buf, fn.count, fn.ppos;
type fn.T;
// A set, not a regex (find.cocci says why).
identifier from_user = {kstrtoull_from_user, kstrtoll_from_user,
			kstrtoul_from_user, kstrtol_from_user,
			kstrtouint_from_user, kstrtoint_from_user,
			kstrtou64_from_user, kstrtos64_from_user,
			kstrtou32_from_user, kstrtos32_from_user,
			kstrtou16_from_user, kstrtos16_from_user,
			kstrtou8_from_user, kstrtos8_from_user,
			kstrtobool_from_user};
position p;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
<...
 from_user@p(buf, ...)
...>
}

@script:python r@
from_user << k.from_user;
from_iter;
@@
coccinelle.from_iter = cocci.make_ident(from_user[:-len("user")] + "iter")

@@
identifier k.from_user, r.from_iter;
identifier fn.buf;
position k.p;
@@
- from_user@p(buf,
+ from_iter(from,
  ...)
