# SPDX-License-Identifier: GPL-2.0
"""Each output compiled as its original is (--tree): the files of the
call as one out-of-tree module against a kernel tree, W=1, the originals
first, so that what the tree can't build is told apart from what the
converter broke.  A file compiles if make writes its object; link and
modpost (a module of a driver's files is rarely whole) don't count."""

import os
import re
import subprocess
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
COMMON = os.path.join(TOP, "common")	# iterkit.h, debugfs_iter.h
MODULE = "iterconv_build"


def default_tree():
    """The debug kernel's tree, if the kit has one built; else None."""
    p = subprocess.run([os.path.join(TOP, "scripts", "kernel"), "cached",
                        "debug"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    m = re.search(r"^kdir=(.+)$", p.stdout, re.M)
    return m.group(1) if p.returncode == 0 and m else None


def diagnostics(log, tmp, names):
    """The compiler's errors and warnings in log for each file, its path
    in tmp replaced by the path it was given as: {path: [(kind, line)]}."""
    out = {path: [] for path in names.values()}
    pat = re.compile(r"^(?:%s/)?([^/:\s]+):(\d+):(?:\d+:)? (?:fatal )?"
                     r"(error|warning): (.*)$" % re.escape(tmp))
    for line in log.splitlines():
        m = pat.match(line)
        if m and m.group(1) in names:
            path = names[m.group(1)]
            out[path].append((m.group(3), "%s:%s: %s: %s" % (
                path, m.group(2), m.group(3), m.group(4))))
    return out


def compile_module(tree, files):
    """files: [(path as given, text)], .c and .h.  Compile the .c files
    as one module against tree: {path of a .c: (compiled, [(kind,
    line)])}, or a string saying why nothing could be."""
    names = {}
    for path, _ in files:
        base = os.path.basename(path)
        if base in names:
            return "two files named %s" % base
        names[base] = path
    cs = [b for b in names if b.endswith(".c")]
    if "%s.c" % MODULE in cs:
        return "a file named %s.c" % MODULE
    dirs = []
    for path, _ in files:
        d = os.path.dirname(os.path.abspath(path))
        if d not in dirs:
            dirs.append(d)
    with tempfile.TemporaryDirectory() as tmp:
        for path, text in files:
            with open(os.path.join(tmp, os.path.basename(path)), "w") as f:
                f.write(text)
        with open(os.path.join(tmp, "Kbuild"), "w") as f:
            f.write("obj-m := %s.o\n%s-y := %s\nccflags-y := %s\n" % (
                MODULE, MODULE, " ".join(b[:-2] + ".o" for b in cs),
                " ".join("-I" + d for d in dirs + [COMMON])))
        if not os.path.exists(os.path.join(tree, "Makefile")):
            return "%s has no Makefile" % tree
        # kbuild unexports LC_ALL: plain quotes in messages need these.
        p = subprocess.run(["make", "-k", "-C", tree, "M=" + tmp, "W=1",
                            "modules"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           env=dict(os.environ, LANG="C", LC_CTYPE="C",
                                    LC_MESSAGES="C"))
        found = diagnostics(p.stdout, tmp, names)
        return {names[b]: (os.path.exists(os.path.join(tmp, b[:-2] + ".o")),
                           found[names[b]]) for b in cs}


def verdict(old, new):
    """What the report says of one file, from its original's and its
    output's compile: (report lines, whether the converter broke it)."""
    if not old[0]:
        errors = [line for kind, line in old[1] if kind == "error"]
        return (["build: not checked: the original does not build against "
                 "this tree%s" % (": " + errors[0] if errors else "")],
                False)
    if not new[0]:
        errors = [line for kind, line in new[1] if kind == "error"]
        return (["build: does not build, where the original does:"] +
                ["build:   " + e for e in errors or ["(no error shown)"]],
                True)
    had = {re.sub(r"^[^:]*:\d+: ", "", line) for kind, line in old[1]}
    warn = [line for kind, line in new[1] if kind == "warning" and
            re.sub(r"^[^:]*:\d+: ", "", line) not in had]
    return (["build: builds (W=1)" + (", with warnings the original "
                                      "hasn't:" if warn else "")] +
            ["build:   " + w for w in warn], False)
