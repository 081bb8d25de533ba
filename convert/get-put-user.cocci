// SPDX-License-Identifier: GPL-2.0
/// put_user() into a read function's buffer and get_user() from a write
/// function's, tested for failure, become put_iter() and get_iter():
///   if (put_user(v, (T __user *)buf))  ->  if (put_iter(v, to))
///   if (get_user(v, (T __user *)buf))  ->  if (get_iter(v, from))
/// (also without the cast, and with != 0, == 0 or !).  get_user() and
/// put_user() move sizeof(*pointer) bytes, get_iter() and put_iter()
/// sizeof(v): the rule takes only a v of type T, the pointer's own type.
/// They return 0 or -EFAULT where get_iter()/put_iter() return 0 or 1:
/// only the test for failure is rewritten; a use of the value (returned,
/// assigned) is left alone and scripts/convert wraps the function.
///
// Confidence: High.  The helpers come from the series (iterkit.h here).
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

@put@
identifier fn_r.func, fn_r.fl, fn_r.buf, fn_r.count, fn_r.ppos;
type fn_r.T;
type V;
V v;
statement S1, S2;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
<...
(
- if (put_user(v, (V *)buf))
+ if (put_iter(v, to))
  S1 else S2
|
- if (put_user(v, (V *)buf))
+ if (put_iter(v, to))
  S1
|
- if (put_user(v, (V *)buf) != 0)
+ if (put_iter(v, to))
  S1
|
- if (!put_user(v, (V *)buf))
+ if (!put_iter(v, to))
  S1
|
- if (put_user(v, (V *)buf) == 0)
+ if (!put_iter(v, to))
  S1
)
...>
}

// Without a cast the pointer is the buffer's own, char: v must be a char.
@put_char@
identifier fn_r.func, fn_r.fl, fn_r.buf, fn_r.count, fn_r.ppos;
type fn_r.T;
char v;
statement S1;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
<...
- if (put_user(v, buf))
+ if (put_iter(v, to))
  S1
...>
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

@get@
identifier fn_w.func, fn_w.fl, fn_w.buf, fn_w.count, fn_w.ppos;
type fn_w.T;
type V;
V v;
statement S1, S2;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
<...
(
- if (get_user(v, (V *)buf))
+ if (get_iter(v, from))
  S1 else S2
|
- if (get_user(v, (V *)buf))
+ if (get_iter(v, from))
  S1
|
- if (get_user(v, (V *)buf) != 0)
+ if (get_iter(v, from))
  S1
|
- if (!get_user(v, (V *)buf))
+ if (!get_iter(v, from))
  S1
|
- if (get_user(v, (V *)buf) == 0)
+ if (!get_iter(v, from))
  S1
)
...>
}


@get_char@
identifier fn_w.func, fn_w.fl, fn_w.buf, fn_w.count, fn_w.ppos;
type fn_w.T;
char v;
statement S1;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
<...
- if (get_user(v, buf))
+ if (get_iter(v, from))
  S1
...>
}
