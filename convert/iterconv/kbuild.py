# SPDX-License-Identifier: GPL-2.0
"""A kernel tree as its Makefiles and git see it: a Makefile's module
lists, the config symbols that Kbuild needs on to build an object, and
the files that name a word anywhere in the tree."""

import os
import re
import subprocess


def git_env(**extra):
    """The environment for git: none of the user's GIT_* (GIT_DIR,
    GIT_INDEX_FILE, GIT_CONFIG_PARAMETERS...), which would point it at
    another repository or change what it writes; extra added."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(extra)
    return env


# Kbuild's lists that end in -y or -objs and name no module.
NOT_MODULES = ("obj", "lib", "ccflags", "subdir-ccflags", "asflags",
               "ldflags", "always", "extra", "hostprogs", "userprogs",
               "subdir")


def read_makefile(path):
    """A Makefile's text, continuations joined; "" where there is none."""
    try:
        with open(path, errors="replace") as f:
            return f.read().replace("\\\n", " ")
    except OSError:
        return ""


def module_lists(makefile):
    """A Makefile's module lists, NAME-y, NAME-objs or NAME-$(CONFIG_X):
    [(NAME, [objects, as written: x.o, sub/y.o])], continuations joined;
    [] where there is no Makefile."""
    text = read_makefile(makefile)
    return [(n, re.findall(r"\S+\.o\b", objs)) for n, objs in re.findall(
        r"^\s*([\w-]+)-(?:y|objs|\$\(\w+\))\s*[:+]?=(.*)$", text, re.M)
        if n not in NOT_MODULES]


# A list's assignment: its name, its condition (y, m, objs or
# $(CONFIG_X)) and what it lists.
LIST = re.compile(r"^[ \t]*([\w-]+)-(y|m|objs|\$\((CONFIG_\w+)\))[ \t]*"
                  r"[:+]?=(.*)$", re.M)
# The lists of the top directory that name its subdirectories: obj-
# (Kbuild, since 6.1), core-, drivers-, net-, libs- (the Makefile, before).
TOP_LISTS = ("obj", "core", "drivers", "net", "libs")


def needs(text, target, top=False):
    """The config symbols that a Makefile's text needs on for target (an
    object, x.o, or a directory, x/), through a composite module's list
    to its own line: [symbols], or None where no list names it.  The
    first list that names it counts; ifdef blocks are not followed."""
    for m in LIST.finditer(text):
        name, cond, config, objs = m.groups()
        if target not in objs.split():
            continue
        syms = [config] if config else []
        if name == "obj" or top and name in TOP_LISTS:
            return syms
        if name in NOT_MODULES:
            continue
        rest = needs(text, name + ".o")	# a composite module's own line
        if rest is not None:
            return syms + rest
    return None


def enabled_by(tree, rel):
    """The config symbols Kbuild needs on to build rel's object (rel a
    .c file of tree), from its directory's Makefile up to the top's
    Kbuild and Makefile: [CONFIG_...], in that order, or None where some
    Makefile on the way doesn't name it."""
    d, target = os.path.split(rel)
    target = os.path.splitext(target)[0] + ".o"
    out = []
    while True:
        text = "\n".join(read_makefile(os.path.join(tree, d, n))
                         for n in ("Kbuild", "Makefile"))
        syms = needs(text, target, top=not d)
        if syms is None:
            return None
        out += [s for s in syms if s not in out]
        if not d:
            return out
        d, target = os.path.dirname(d), os.path.basename(d) + "/"


def config(tree):
    """tree's .config: {CONFIG_X: "y", "m" or a value}, the symbols it
    sets; {} where it has none."""
    try:
        with open(os.path.join(tree, ".config"), errors="replace") as f:
            return dict(re.findall(r"^(CONFIG_\w+)=(.*)$", f.read(), re.M))
    except OSError:
        return {}


def grep(tree, words):
    """The C files (.c, .h) of tree that name any of words as a whole
    word, in comments too: [paths relative to tree], sorted.  git grep
    where tree is a git tree (its tracked files), else grep -r."""
    pattern = "|".join(re.escape(w) for w in words)
    if os.path.exists(os.path.join(tree, ".git")):
        cmd = ["git", "-C", tree, "grep", "-l", "-w", "-E", "-e", pattern,
               "--", "*.c", "*.h"]
    else:
        cmd = ["grep", "-r", "-l", "-w", "-E", "--include=*.c",
               "--include=*.h", "-e", pattern, "."]
    p = subprocess.run(cmd, cwd=tree, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=git_env())
    if p.returncode > 1:
        raise OSError("%s: %s" % (" ".join(cmd[:3]), p.stderr.strip()))
    return sorted(os.path.normpath(line) for line in p.stdout.splitlines())
