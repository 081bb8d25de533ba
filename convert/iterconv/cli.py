# SPDX-License-Identifier: GPL-2.0
"""scripts/convert [--native|--wrap] [--in-place] [--tree TREE|--no-tree]
                FILE.c... [FILE.h...]
   scripts/convert --upstream --tree TREE --out DIR FILE.c...
   scripts/convert --help

Convert a legacy driver's .read/.write (and procfs' .proc_read) to
.read_iter/.write_iter, with the semantic patches in convert/ run by
spatch (Coccinelle).  Without --in-place it prints a patch on stdout; with
it, it rewrites each FILE.  Either way it prints a report on stderr: for
each function that a struct file_operations or struct proc_ops names, what
was done and why; for each fops it would change, how its files are
created; then what is left for the author to decide.

  --native   (the default) each function takes the iterator signature and
             its buffer's users are rewritten by pattern (convert/*.cocci
             say which); a function with a use of its buffer that no
             pattern rewrote, or that anything but its fops names, is
             wrapped instead, whole: never half converted.
  --wrap     the series' mechanical step for every function:
             FOPS_READ_ITER_HELPER(fn) / FOPS_WRITE_ITER_HELPER(fn) after it
             (iterkit.h), and the fops switched to fn_iter.
  --in-place rewrite each FILE, instead of printing a patch.
  --tree T   compile each output as its original is compiled: the files
             of the call as one out-of-tree module against the kernel
             tree T (configured and built, or a headers directory), W=1,
             the originals first.  The report says "build: builds", or
             "build: not checked" where the original doesn't build
             there; an output that doesn't build where its original did
             is refused, with the compiler's errors.  The default is the
             kit's debug kernel's tree, if it is built (scripts/kernel
             cached debug).
  --no-tree  compile nothing.

  --upstream --tree TREE --out DIR
             the outputs (native, or wrapped) as a git format-patch
             series against TREE, whose files FILE are, in DIR: the core
             patches the outputs need and TREE lacks (a static of a name
             one adds renamed first; another clash refuses it), then one
             patch per module (series.py says more); no kit header in
             any.  Each patch is checked with checkpatch --strict and
             compiled at its place in the series, in a copy of TREE under
             build/upstream/ when TREE is a built kernel tree.  "series:
             ..." lines say what was written and checked; a failed check
             exits 1.
  --out DIR  upstream mode's directory for the series.
  --help, -h this text, on stdout.

The files of one call are one module: a function and every fops that
names it change together, in whichever file, or none of them does (a
function that isn't static is converted natively only when every file
declaring it is given, headers too: their declarations change with it).

A fops changes only in ways that how its files are created takes: it
follows the fops to where it is handed on (a call, a struct miscdevice,
a table of the module's and the call that takes its member, through the
module's macros and functions).  Misc and character devices, procfs,
anonymous inodes, a USB class driver, an inode's i_fop, and
debugfs_create_file_unsafe() take the fops as they are.
debugfs_create_file()'s proxy calls .read/.write/.llseek/.poll/
.unlocked_ioctl only, each bracketed against removal: such a fops moves to
debugfs_create_file_unsafe() with each of those methods guarded
(debugfs_iter.h) and .owner added if missing, all the fops of a call
together, or stays legacy (debugfs_create_file_size() and _aux() have no
_unsafe form; a method the proxy never called would be unprotected).  A
fops whose registration can't be told stays legacy, with its functions;
the report says why ("fops NAME: checked: ..." or "fops NAME: left
legacy: ...").

Neither mode adds FMODE_NOWAIT, IOCB_NOWAIT handling or .splice_read: the
report lists them as the author's decisions.  A file that does not parse,
or could not be converted whole, is refused: one line saying why, and the
file left untouched.  A file with no fops with .read/.write (a module's
file of helpers, one already converted) has nothing to convert: not a
refusal.  The last report line of each file is "convert: FILE: native N,
wrapped N, left alone N", "convert: FILE: nothing to convert (WHY)" or
"convert: FILE: refused: REASON" ("convert: FILE.h: declarations changed
N" for a header).  Warnings are the module's: a function is judged in the
file that defines it, for every fops that names it.  Exit status: 0, or 1
if a file was refused, 2 for bad usage.
"""

import os
import shutil
import sys

from .build import default_tree
from .module import Header, Module
from . import series
from .report import diff


# The options, and how many arguments each takes: the docstring
# describes each.
OPTIONS = {"--native": 0, "--wrap": 0, "--in-place": 0, "--tree": 1,
           "--no-tree": 0, "--upstream": 0, "--out": 1, "--help": 0,
           "-h": 0}


def usage(why):
    """The usage lines, after why, on stderr: status 2."""
    print("convert: %s\n%s\n(scripts/convert --help says more)" % (
        why, __doc__.split("\n\n")[0]), file=sys.stderr)
    return 2


def main(argv):
    mode, in_place, files, tree = "native", False, [], ""
    upstream, outdir = False, None
    args = list(argv)
    while args:
        a = args.pop(0)
        if not a.startswith("-"):
            files.append(a)
            continue
        if a not in OPTIONS:
            return usage("no option %s" % a)
        if len(args) < OPTIONS[a]:
            return usage("%s takes an argument" % a)
        if a in ("--help", "-h"):
            sys.stdout.write(__doc__)
            return 0
        if a in ("--native", "--wrap"):
            mode = a[2:]
        elif a == "--in-place":
            in_place = True
        elif a == "--tree":
            tree = args.pop(0)
        elif a == "--upstream":
            upstream = True
        elif a == "--out":
            outdir = args.pop(0)
        elif a == "--no-tree":
            tree = None
    if not files:
        return usage("no FILE")
    if upstream and not (tree and outdir and not in_place):
        return usage("--upstream takes --tree TREE and --out DIR, and "
                     "not --in-place")
    if tree == "":
        tree = default_tree()
    if not shutil.which("spatch"):
        print("convert: no spatch: run scripts/setup (Debian's coccinelle)",
              file=sys.stderr)
        return 2
    status = 0
    missing = [p for p in files if not os.path.isfile(p)]
    module = Module([p for p in files if p not in missing], mode,
                    tree if not upstream or os.path.isfile(
                        os.path.join(tree, "Module.symvers")) else None)
    module.proxy_iter = upstream
    module.convert()
    done = {f.path: f for f in module.files + module.headers}
    for path in files:
        f = done.get(path)
        if not f or f.refusal:
            for line in getattr(f, "build", []):
                print("  " + line, file=sys.stderr)
            print("convert: %s: refused: %s" % (
                path, f.refusal if f else "no such file"), file=sys.stderr)
            status = 1
            continue
        if isinstance(f, Header):
            n = sum(1 for a, b in zip(f.text.split(";"), f.out.split(";"))
                    if a != b)
            print("convert: %s: declarations changed %d" % (path, n),
                  file=sys.stderr)
        elif f.untouched:
            print("convert: %s: nothing to convert (%s)" % (path, f.untouched),
                  file=sys.stderr)
            continue
        else:
            for line in f.report():
                print(line, file=sys.stderr)
        if upstream:
            continue
        if in_place:
            with open(path, "w") as fh:
                fh.write(f.out)
        else:
            sys.stdout.write(diff(path, f.text, f.out))
    if upstream:
        status |= series.run(module, tree, outdir, lambda line: print(
            line, file=sys.stderr))
    return status
