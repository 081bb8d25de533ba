# SPDX-License-Identifier: GPL-2.0
"""Running spatch (Coccinelle) on a file: the semantic patches in
convert/, what find.cocci finds, where the parser fails."""

import atexit
import os
import re
import shutil
import subprocess
import tempfile

COCCI = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Refused(Exception):
    """The file is left alone; the message says why, in one line."""


def builtin_macros():
    """spatch's own macro file, with __user defined away, as spatch 1.1
    (Debian 12) has it: 1.3 (Debian 13) keeps __user as an attribute, and
    a cast (int __user *)buf no longer matches a pattern's (V *)buf.  None
    where spatch has no standard.h to start from."""
    if not hasattr(builtin_macros, "path"):
        builtin_macros.path = None
        std = os.path.join(os.path.dirname(os.path.realpath(
            shutil.which("spatch") or "/usr/bin/spatch")),
            "../lib/coccinelle/standard.h")
        if os.path.exists(std):
            with open(std) as f:
                text = re.sub(r"^#define\s+__user\b.*$", "#define __user",
                              f.read(), flags=re.M)
            fd, builtin_macros.path = tempfile.mkstemp(suffix=".h")
            with os.fdopen(fd, "w") as f:
                f.write(text)
            atexit.register(os.unlink, builtin_macros.path)
    return builtin_macros.path


def spatch(cocci, src, dst, env=None, defines=()):
    """Run convert/COCCI.cocci on src, writing the result to dst."""
    cmd = ["spatch", "--very-quiet", "--no-show-diff", "--no-includes",
           "--timeout", "120", "--sp-file",
           os.path.join(COCCI, cocci + ".cocci"), src, "-o", dst]
    if builtin_macros():
        cmd += ["--macro-file-builtins", builtin_macros()]
    for d in defines:
        cmd += ["-D", d]
    full = dict(os.environ)
    full.update(env or {})
    p = subprocess.run(cmd, env=full, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if "TIMEOUT" in p.stderr.upper() and "timeout" in p.stderr.lower():
        raise Refused("spatch timed out (120 s) on %s.cocci" % cocci)
    if p.returncode != 0 and "no modified files" not in p.stderr:
        raise Refused("spatch failed on %s.cocci: %s" %
                      (cocci, (p.stderr.strip().splitlines() or ["?"])[-1]))
    if not os.path.exists(dst):
        shutil.copyfile(src, dst)
    return p.stdout


def find(path):
    """What convert/find.cocci reports: functions, fops fields."""
    with tempfile.TemporaryDirectory() as tmp:
        out = spatch("find", path, os.path.join(tmp, "out.c"))
    fns, fields = {}, []
    for line in out.splitlines():
        w = line.split()
        if w[:1] == ["FN"]:
            fns[w[1]] = dict(start=int(w[2]), buf=w[3], kind=w[4], file=w[5])
        elif w[:1] == ["FIELD"]:
            fields.append(dict(ops=w[1], field=w[2], value=w[3], line=int(w[4])))
    return fns, fields


def parse_error(path):
    """Where spatch's parser fails in path ("parse error at line N"), or
    None; cached, since every unfound function asks."""
    if path not in parse_error.cache:
        cmd = ["spatch", "--parse-c", path]
        if builtin_macros():
            cmd += ["--macro-file-builtins", builtin_macros()]
        p = subprocess.run(cmd, text=True, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        m = re.search(r"parse error\s*\n\s*= File \"[^\"]*\", line (\d+)",
                      p.stdout)
        parse_error.cache[path] = m and "parse error at line " + m.group(1)
    return parse_error.cache[path]


parse_error.cache = {}
