// SPDX-License-Identifier: GPL-2.0
/// A write function that reads its buffer a chunk at a time:
///   for (done = 0; done < count; done += n) {
///           ...
///           if (copy_from_user(dst, buf + done, n))
///                   return / goto / break;
///           ...
///   }
/// becomes
///           if (copy_from_iter(dst, n, from) != n)
/// The iterator moves by itself, by exactly n bytes when the copy is
/// whole; a short copy leaves the loop.  So at each copy the iterator is
/// where buf + done was: nothing else in the loop may touch the buffer, or
/// change done or n between the copy and the increment; and no continue may
/// come before the copy (it would step done without one: spatch's paths
/// can't see that, so scripts/convert checks it and wraps the function).
///
// Confidence: High for this shape; any other loop over the buffer is left
// alone, and scripts/convert wraps the function.
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

@@
identifier fn.func, fn.fl, fn.buf, fn.count, fn.ppos;
type fn.T;
identifier done, n, l;
expression dst, E;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
<...
for (done = 0; done < count; done += n) {
	... when != buf
	    when != continue;
	    when != done = E
	    when != done += E
	    when != done -= E
	    when != done++
	    when != done--
(
-	if (copy_from_user(dst, buf + done, n))
+	if (copy_from_iter(dst, n, from) != n)
		return ...;
|
-	if (copy_from_user(dst, buf + done, n))
+	if (copy_from_iter(dst, n, from) != n)
		goto l;
|
-	if (copy_from_user(dst, buf + done, n))
+	if (copy_from_iter(dst, n, from) != n)
		break;
|
-	if (copy_from_user(dst, buf + done, n)) {
+	if (copy_from_iter(dst, n, from) != n) {
		...
		return ...;
	}
|
-	if (copy_from_user(dst, buf + done, n)) {
+	if (copy_from_iter(dst, n, from) != n) {
		...
		goto l;
	}
|
-	if (copy_from_user(dst, buf + done, n)) {
+	if (copy_from_iter(dst, n, from) != n) {
		...
		break;
	}
)
	... when != buf
	    when != continue;
	    when != done = E
	    when != done += E
	    when != done -= E
	    when != done++
	    when != done--
	    when != n = E
	    when != n += E
	    when != n -= E
}
...>
}
