// SPDX-License-Identifier: GPL-2.0
/// Find what scripts/convert needs to know, and change nothing: the
/// legacy .read and .write functions defined in the file, every
/// struct file_operations and struct proc_ops initializer and its fields,
/// and the calls that create debugfs files.
///
// Confidence: High (it only reports)
// Options: none; scripts/convert runs it first, on every file
// Output: one line per finding, read by scripts/convert:
//   FN name line buffer_name kind(read|write) file_parameter_name
//   FIELD struct_type ops_name field value line
//   DEBUGFS creator line fops_argument

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
kind = "write" if T.replace(" ", "").startswith("constchar") else "read"
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

@dbg@
// A set, not a regex: spatch 1.1 (Debian 12) reads =~ as PCRE, 1.3
// (Debian 13) as OCaml's Str, where ( and | are plain characters.
identifier creator = {debugfs_create_file, debugfs_create_file_size,
		      debugfs_create_file_aux, debugfs_create_file_aux_num};
expression list args;
expression fops;
position p;
@@
creator@p(args, fops)

@script:python@
creator << dbg.creator;
fops << dbg.fops;
p << dbg.p;
@@
print("DEBUGFS %s %s %s" % (creator, p[0].line, fops.replace(" ", "")))

