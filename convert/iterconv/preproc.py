# SPDX-License-Identifier: GPL-2.0
"""The preprocessor: under which #if conditions each line is compiled,
and where a name is defined (a function, #define NAME NULL, a macro)."""

import re

from .text import enclosing, line_of, match_close


def cond_atoms(expr):
    """An #if expression as the atoms of its top-level && (a tuple):
    "defined X && (Y > 1)" -> ("defined(X)", "Y > 1")."""
    e = re.sub(r"\bdefined\s*(?:\(\s*(\w+)\s*\)|(\w+))",
               lambda m: "defined(%s)" % (m.group(1) or m.group(2)), expr)
    e = re.sub(r"\s+", " ", e).strip()
    while e.startswith("(") and match_close(e, 0) == len(e) - 1:
        e = e[1:-1].strip()
    out, depth, s = [], 0, 0
    for i, c in enumerate(e):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif e.startswith("&&", i) and depth == 0:
            out.append(e[s:i])
            s = i + 2
    out.append(e[s:])
    if len(out) == 1:
        return (e,)
    return tuple(a for part in out for a in cond_atoms(part))


def cond_not(atoms):
    """The atom that negates the conjunction of atoms."""
    if len(atoms) == 1:
        a = atoms[0]
        if re.fullmatch(r"!\s*(defined\(\w+\)|\w+)", a):
            return a[1:].strip()
        if re.fullmatch(r"defined\(\w+\)|\w+", a):
            return "!" + a
    return "!(%s)" % " && ".join(atoms)


def conditions(code):
    """For each line of code (comments stripped), the conditions it is
    compiled under: the tuple of the atoms that must all hold (the
    enclosing #if/#ifdef/#ifndef, and for an #elif or #else branch, the
    negation of those before it).  A directive's own line has the
    conditions of the lines around it."""
    lines = code.split("\n")
    out, stack = [], []	# stack: [negated earlier branches, this one]

    def now():
        atoms = []
        for prev, cur in stack:
            for a in prev + list(cur):
                if a not in atoms:
                    atoms.append(a)
        return tuple(atoms)
    i = 0
    while i < len(lines):
        line = lines[i]
        n = 1
        while line.endswith("\\") and i + n < len(lines):
            line = line[:-1] + " " + lines[i + n]
            n += 1
        out += [now()] * n
        d = re.match(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)", line)
        if d:
            kw, rest = d.group(1), d.group(2).strip()
            if kw == "ifdef":
                stack.append(([], ("defined(%s)" % rest.split()[0],)))
            elif kw == "ifndef":
                stack.append(([], ("!defined(%s)" % rest.split()[0],)))
            elif kw == "if":
                stack.append(([], cond_atoms(rest)))
            elif stack and kw == "elif":
                prev, cur = stack[-1]
                stack[-1] = (prev + [cond_not(cur)], cond_atoms(rest))
            elif stack and kw == "else":
                prev, cur = stack[-1]
                stack[-1] = (prev + [cond_not(cur)], ())
            elif stack and kw == "endif":
                stack.pop()
        i += n
    return out


def cond_open(atoms):
    """The directive that opens a block compiled under atoms."""
    if len(atoms) == 1:
        m = re.fullmatch(r"(!?)defined\((\w+)\)", atoms[0])
        if m:
            return "#if%sdef %s" % ("n" if m.group(1) else "", m.group(2))
    return "#if " + " && ".join("(%s)" % a if re.search(r"\|\||\?", a)
                                else a for a in atoms)


def cond_wrap(atoms, text):
    """text (whole lines, ending in a newline) under the conditions
    atoms."""
    if not atoms:
        return text
    return "%s\n%s#endif\n" % (cond_open(atoms), text)


NULLS = r"(?:NULL|0|\(\s*\(\s*void\s*\*\s*\)\s*0\s*\))"


def definitions(code, name):
    """Where code defines name, as [(line, kind)]: kind "fn" for a
    function's definition (or a kit macro that defines one:
    FOPS_*_ITER_HELPER(F) defines F_iter, DEBUGFS_*_SAFE(F) F_safe),
    "null" for a #define of it as NULL, "macro" for any other #define."""
    out = []
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+%s\b(?!\()([^\n]*)$" %
                         re.escape(name), code, re.M):
        kind = "null" if re.fullmatch(r"\s*%s\s*" % NULLS, m.group(1)) \
            else "macro"
        out.append((line_of(code, m.start()), kind))
    for m in re.finditer(r"\b%s\s*\(" % re.escape(name), code):
        if enclosing(code, m.start()) >= 0:
            continue
        close = match_close(code, m.end() - 1)
        if re.match(r"\s*\{", code[close + 1:]) and not re.match(
                r"[ \t]*#", code[code.rfind("\n", 0, m.start()) + 1:]):
            out.append((line_of(code, m.start()), "fn"))
    kit = r"^(?:FOPS_(?:READ|WRITE)_ITER_HELPER\((\w+)\)|" \
        r"DEBUGFS_\w+_SAFE\((\w+)\));"
    for m in re.finditer(kit, code, re.M):
        if (m.group(1) and m.group(1) + "_iter" == name) or \
                (m.group(2) and m.group(2) + "_safe" == name):
            out.append((line_of(code, m.start()), "fn"))
    return sorted(out)
