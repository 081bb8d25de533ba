# SPDX-License-Identifier: GPL-2.0
"""A core patch's new global names against the whole tree, before it
adds them: where else each is named (kbuild.grep), and what to do there.
A .c file's static function or variable of the same name is renamed, in
a patch of its own before the core patch (net/core/datagram.c has a
static simple_copy_to_iter(), and reaches include/linux/fs.h); anything
else (a global of that name, a header's static inline, a macro, a member
call that a new function-like macro would take) is a clash the tool
can't settle, and the core patch is refused with the reason.  A member
or a local of the same name is no clash for a function, nor anything
but a call for a function-like macro."""

import os
import re

from .kbuild import grep
from .text import enclosing, line_of, member, strip_comments, uses


class Clash(Exception):
    """A name a core patch would add is the tree's already, in a way no
    rename in one file settles: str() says where."""


def compiled_with(code, start):
    """code[:start] with the lines blanked that are not compiled along
    with code[start]: another branch's than its own in an #if block that
    holds it, and an #elif's or #else's in one closed before it (a
    function opened in each branch of an #if is one opening, as the
    compiler sees it)."""
    lines = code[:start].split("\n")
    tags, stack, blocks = [], [], 0	# stack: [block, branch]
    for line in lines:
        d = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b", line)
        if d and d.group(1).startswith("if"):
            stack.append([blocks, 0])
            blocks += 1
        elif d and d.group(1) == "endif" and stack:
            stack.pop()
        elif d and stack:
            stack[-1][1] += 1
        tags.append(None if d else tuple(map(tuple, stack)))
    here = dict(map(tuple, stack))
    return "\n".join(
        line if tag is not None and all(here.get(b, 0) == k for b, k in tag)
        else re.sub(r"[^\n]", " ", line) for line, tag in zip(lines, tags))


def file_scope(code, start):
    """Whether code[start] (comment-stripped) is outside every brace."""
    seen = compiled_with(code, start)
    return seen.count("{") == seen.count("}")


def static_at(code, start):
    """Whether the word at code[start] (comment-stripped) is declared
    there, at file scope, by a declaration that says static."""
    if not file_scope(code, start):
        return False
    seen = compiled_with(code, start)
    begin = max(seen.rfind(";"), seen.rfind("}"), seen.rfind("#"))
    if begin >= 0 and seen[begin] == "#":
        begin = code.find("\n", begin)
    head = seen[begin + 1:start]
    return re.search(r"\bstatic\b", head) is not None and \
        re.search(r"[=(),]", head) is None


def new_name(rel, name):
    """The name rel's static name gets: the file's, then name
    (datagram_simple_copy_to_iter)."""
    stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(rel))[0])
    return "%s_%s" % (stem, name)


def clashing(code, name, macro):
    """The offsets in code (comment-stripped) where name would clash
    with a global of that name: for a function-like macro, wherever it
    is called (ops->name(...) too: the preprocessor takes it); else at
    file scope, where the tree's own globals are declared (a member of
    the same name, or a local, is another name)."""
    out = []
    for m in re.finditer(r"\b%s\b" % re.escape(name), code):
        if macro:
            line = code[code.rfind("\n", 0, m.start()) + 1:m.start()]
            if re.match(r"\s*\(", code[m.end():]) or \
                    re.fullmatch(r"\s*#\s*define\s+", line):
                out.append(m.start())
        elif file_scope(code, m.start()) and not member(code, m.start()):
            out.append(m.start())
    return out


def scan(tree, names, macros=(), skip=(), users=None):
    """Where tree names any of names (a core patch's new globals; macros
    those of them that are function-like macros) outside the files in
    skip (the core patch's own): {rel: {name: new name}}, the .c files
    whose static of that name is to be renamed.  Raises Clash where a
    name is named otherwise.  users, a list, gets each .c file that uses
    one of names (a member of the same name is another name, but not for
    a macro), whose object a core patch is to build."""
    renames = {}
    for rel in grep(tree, names):
        if rel in skip:
            continue
        with open(os.path.join(tree, rel), errors="replace") as f:
            code = strip_comments(f.read())
        if users is not None and rel.endswith(".c") and any(
                clashing(code, n, True) if n in macros else uses(code, n)
                for n in names):
            users.append(rel)
        for name in names:
            at = clashing(code, name, name in macros)
            if not at:
                continue
            # A rename settles a clash only where it changes every hit:
            # a member's call that a new macro takes is left as it is.
            left = [a for a in at if not renamed(code, code, a)]
            if rel.endswith(".c") and not left and \
                    any(static_at(code, a) for a in at):
                renames.setdefault(rel, {})[name] = new_name(rel, name)
                continue
            raise Clash("%s is the tree's already, at %s:%d, and not as a "
                        ".c file's static that a rename there settles" % (
                            name, rel, line_of(code, (left or at)[0])))
    new = sorted({n for r in renames.values() for n in r.values()})
    taken = grep(tree, new) if new else []
    if taken:
        raise Clash("a static's new name (%s) is the tree's already, in %s"
                    % (", ".join(new), taken[0]))
    return renames


def open_parens(line):
    """The columns (tabs at 8) just after each "(" that line leaves open,
    outermost first, comments and strings aside."""
    code, opened = strip_comments(line), []
    for i, ch in enumerate(code):
        if ch == "(":
            opened.append(len(line[:i + 1].expandtabs(8)))
        elif ch == ")" and opened:
            opened.pop()
    return opened


def in_aggregate(code, start):
    """Whether code[start] (comment-stripped) is inside a struct's or a
    union's body: a member's declaration."""
    i = enclosing(code, start)
    while i >= 0 and code[i] != "{":
        i = enclosing(code, i)
    return i >= 0 and re.search(r"\b(struct|union)(\s+\w+)?\s*$",
                                code[:i]) is not None


def literals(text):
    """The spans of text's string and character literals (a quote in a
    comment starts none)."""
    return [m.span() for m in re.finditer(
        r'/\*.*?\*/|//[^\n]*|"(\\.|[^"\\\n])*"|\'(\\.|[^\'\\\n])*\'',
        text, re.S) if m.group(0)[0] in "\"'"]


def renamed(text, code, start):
    """Whether rename() changes the name at text[start] (code: text
    comment-stripped): not a member's (x->name, .name, or a struct's or
    union's declaration of one), nor a string's, nor an #include's."""
    if member(code, start) or in_aggregate(code, start):
        return False
    if any(a <= start < b for a, b in literals(text)):
        return False
    line = code[code.rfind("\n", 0, start) + 1:start]
    return re.match(r"\s*#\s*include\b", line) is None


def rename(text, names):
    """text with each of names (old: new) renamed wherever it names the
    file's own (comments too): not where renamed() says no.  Where a
    renamed line leaves a parenthesis open that the rename moved (a
    declaration's), the lines that go on inside it are lined up under it
    again, as checkpatch --strict wants them."""
    new = text
    for old, name in names.items():
        code = strip_comments(new)
        new = re.sub(r"\b%s\b" % re.escape(old), lambda m: name if
                     renamed(new, code, m.start()) else m.group(0), new)
    was, lines, out, i = text.split("\n"), new.split("\n"), [], 0
    while i < len(lines):
        out.append(lines[i])
        opened = open_parens(lines[i])
        i += 1
        if lines[i - 1] == was[i - 1] or opened == open_parens(was[i - 1]):
            continue
        depth, col = len(opened), opened[-1] if opened else 0
        while depth > 0 and i < len(lines):
            line = lines[i]
            if depth == len(opened):
                line = "\t" * (col // 8) + " " * (col % 8) + line.lstrip()
            out.append(line)
            code = strip_comments(line)
            depth += code.count("(") - code.count(")")
            i += 1
    return "\n".join(out)
