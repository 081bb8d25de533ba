// SPDX-License-Identifier: GPL-2.0
/// Find what scripts/convert needs to know, and change nothing: the
/// legacy .read and .write functions defined in the file, and every
/// struct file_operations and struct proc_ops initializer and its fields.
/// (How each fops is registered, scripts/convert reads from the text: it
/// follows macros, tables and functions.)
///
// Confidence: High (it only reports)
// Options: none; scripts/convert runs it first, on every file
// Output: one line per finding, read by scripts/convert:
//   FN name line buffer_name kind(read|write) file_parameter_name
//   FIELD struct_type ops_name field value line

@fn@
identifier func, fl, buf, count, ppos;
type T;
position p1;
@@
ssize_t func@p1(struct file *fl, T buf, size_t count, loff_t *ppos)
{
...
}

@script:python@
func << fn.func;
fl << fn.fl;
buf << fn.buf;
T << fn.T;
p1 << fn.p1;
@@
# A write's buffer points to const, however it is spelled: const char
# __user *, char const __user *, const __user char *, __user const char *.
kind = "write" if "const" in T.split("*")[0].split() else "read"
print("FN %s %s %s %s %s" % (func, p1[0].line, buf, kind, fl))

@ops@
identifier opsname, fld;
expression value;
position p;
@@
(
struct file_operations opsname = { ..., .fld = value@p, ... };
|
struct proc_ops opsname = { ..., .fld = value@p, ... };
)

@script:python@
opsname << ops.opsname;
fld << ops.fld;
value << ops.value;
p << ops.p;
@@
print("FIELD %s %s %s %s" % (opsname, fld, value.replace(" ", ""), p[0].line))
