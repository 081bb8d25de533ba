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
/// change done or n between the copy and the increment; no continue may
/// come before the copy (it would step done without one); and the loop may
/// not sit inside another (its second time round would find the iterator
/// used up).  spatch's paths can't see those two: scripts/convert checks
/// them and wraps the function.
///
/// And the byte scan, a chunk of one (the watchdogs' search for the magic
/// 'V'):
///   for (i = 0; i != count; i++) {
///           ...
///           if (get_user(c, buf + i))
///                   return / goto / break;
///           ...
///   }
/// with c a char, becomes
///           if (get_iter(c, from))
/// get_iter() reads sizeof(c), one byte, and moves the iterator by it:
/// at each read the iterator is where buf + i was, if the read is reached
/// on every path through the loop (no continue before it, as above), a
/// failed read leaves the loop (the iterator stays where it was, i would
/// step on), and nothing else in the loop touches the buffer or i.
///
// Confidence: High for these shapes; any other loop over the buffer is
// left alone, and scripts/convert wraps the function.
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

// The byte scan: i steps by one from 0 to the count, and the read is
// reached on every path through the loop's body before anything else
// touches the buffer or i (a read under a condition is on some paths
// only: no match); a failed read returns, or jumps out of the loop.
@@
identifier fn.func, fn.fl, fn.buf, fn.count, fn.ppos;
type fn.T;
identifier i, l;
char c;
expression E;
@@
ssize_t func(struct file *fl, T buf, size_t count, loff_t *ppos)
{
<...
for (i = 0; \(i != count\|i < count\); \(i++\|++i\)) {
	... when != buf
	    when != i = E
	    when != i += E
	    when != i -= E
	    when != i++
	    when != i--
	    when != ++i
	    when != --i
(
-	if (get_user(c, buf + i))
+	if (get_iter(c, from))
		return ...;
|
-	if (get_user(c, buf + i))
+	if (get_iter(c, from))
		goto l;
|
-	if (get_user(c, buf + i))
+	if (get_iter(c, from))
		break;
|
-	if (get_user(c, buf + i)) {
+	if (get_iter(c, from)) {
		...
		return ...;
	}
|
-	if (get_user(c, buf + i)) {
+	if (get_iter(c, from)) {
		...
		goto l;
	}
|
-	if (get_user(c, buf + i)) {
+	if (get_iter(c, from)) {
		...
		break;
	}
)
	... when != buf
	    when != i = E
	    when != i += E
	    when != i -= E
	    when != i++
	    when != i--
	    when != ++i
	    when != --i
}
...>
}
