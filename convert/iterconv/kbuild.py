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


def alternatives(text, target, top=False):
    """The ways a Makefile's text builds target (an object, x.o, or a
    directory, x/): [[config symbols that must all be on]], one for each
    list that names it (Kbuild takes it if any of them is on), through a
    composite module's list to its own line; None where no list names
    it.  ifdef blocks are not followed."""
    out = []
    for m in LIST.finditer(text):
        name, cond, config, objs = m.groups()
        if target not in objs.split():
            continue
        syms = [config] if config else []
        if name == "obj" or top and name in TOP_LISTS:
            ways = [syms]
        elif name in NOT_MODULES:
            continue
        else:	# a composite module's own line
            ways = [syms + [s for s in rest if s not in syms] for rest in
                    alternatives(text, name + ".o") or []]
        out += [w for w in ways if w not in out]
    return out or None


def enabled_by(tree, rel):
    """The ways Kbuild builds rel's object (rel a .c file of tree), from
    its directory's Makefile up to the top's Kbuild and Makefile: [[the
    CONFIG_... that must all be on, in that order]], any one of which
    will do ([[]]: always), or None where some Makefile on the way
    doesn't name it."""
    d, target = os.path.split(rel)
    target = os.path.splitext(target)[0] + ".o"
    out = [[]]
    while True:
        text = "\n".join(read_makefile(os.path.join(tree, d, n))
                         for n in ("Kbuild", "Makefile"))
        ways = alternatives(text, target, top=not d)
        if ways is None:
            return None
        if [] in ways:
            ways = [[]]		# always, whatever the others need
        new = []
        for have in out:
            for w in ways:
                way = have + [s for s in w if s not in have]
                if way not in new:
                    new.append(way)
        out = new
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
    word, in comments too, tools/ aside (user space's): [paths relative
    to tree], sorted.  git grep where tree is a git tree, its untracked
    and ignored files too (Debian's source ignores /*: made a git tree
    with git init && git add ., it tracks nothing), else grep -r."""
    pattern = "|".join(re.escape(w) for w in words)
    if os.path.exists(os.path.join(tree, ".git")):
        cmd = ["git", "-C", tree, "grep", "--untracked",
               "--no-exclude-standard", "-l", "-w", "-E", "-e", pattern,
               "--", "*.c", "*.h"]
    else:
        cmd = ["grep", "-r", "-l", "-w", "-E", "--include=*.c",
               "--include=*.h", "-e", pattern, "."]
    p = subprocess.run(cmd, cwd=tree, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=git_env())
    if p.returncode > 1:
        raise OSError("%s: %s" % (" ".join(cmd[:3]), p.stderr.strip()))
    return sorted(r for r in map(os.path.normpath, p.stdout.splitlines())
                  if not r.startswith("tools/"))
