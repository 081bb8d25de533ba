# SPDX-License-Identifier: GPL-2.0
"""The text around spatch's output: declarations, the helpers and guards
before a fops, #define NAME NULL, includes, and the layout checkpatch
wants (spatch 1.1.1 can't rewrite top-level declarations or keep
alignment)."""

import collections
import re

from .preproc import NULLS, cond_wrap
from .registration import GENERIC_LLSEEK, PROXIED
from .spatch import Refused
from .text import decl_start, match_close, strip_comments, top_includes

KIT_HELPERS = re.compile(r"\b(simple_copy_(to|from)_iter|kstrto\w+_from_iter|"
                         r"[gp]ut_iter|FOPS_(READ|WRITE)_ITER_HELPER)\b")

DEBUGFS_COMMENT = ("/* debugfs_create_file_unsafe(): each method guards "
                   "against removal. */")


def declaration(head, name, it):
    """head NAME_iter(struct kiocb *iocb, struct iov_iter *IT); in 80
    columns, the second line under the first argument if it must wrap."""
    first = "%s%s_iter(" % (head, name)
    args = ["struct kiocb *iocb,", "struct iov_iter *%s);" % it]
    if len((first + " ".join(args)).expandtabs(8)) <= 80:
        return first + " ".join(args)
    col = len(first.expandtabs(8))
    return first + args[0] + "\n" + "\t" * (col // 8) + " " * (col % 8) + \
        args[1]


# An initializer's line: its field, the blanks before and after "=",
# and its value.
FIELD = re.compile(r"^\t\.(\w+)([ \t]*)=([ \t]*)(.*)$")


def layout(line):
    """How an initializer's line lines up: (column, whether tabs reach
    it, "=") where its "=" is at a column (.read\t\t= r), (column, tabs,
    "value") where its "=" is one space after the field and its value at
    a column (.read =\t\tr), None where single spaces are its way (.read
    = r) or it is no initializer's line."""
    m = FIELD.match(line)
    if not m or m.group(2) in ("", " ") and m.group(3) in ("", " "):
        return None
    if m.group(2) not in ("", " "):
        return (len(line[:m.end(2)].expandtabs(8)), "\t" in m.group(2), "=")
    return (len(line[:m.end(3)].expandtabs(8)), "\t" in m.group(3), "value")


def field_line(field, value, col):
    """An initializer's line ".field = value" laid out as layout() col
    says: its "=" at the column ((column, tabs) or (column, tabs, "=")),
    or its "=" after the field and its value at the column ((column,
    tabs, "value")); one space where the column is passed already, or
    if col is None."""
    if not col:
        return "\t.%s = %s" % (field, value)
    col, tabs, where = (tuple(col) + ("=",))[:3]
    head = "\t." + field + (" =" if where == "value" else "")
    width, pad = len(head.expandtabs(8)), ""
    while width < col:
        if tabs:
            pad += "\t"
            width = (width // 8 + 1) * 8
        else:
            pad += " "
            width += 1
    pad = pad if pad and width == col else " "
    return head + pad + (value if where == "value" else "= " + value)


def top_level(line, start, pattern):
    """Where pattern's matches in line end, for those at the level of
    the parenthesis just before start: none inside a nested pair, a
    string or a character constant."""
    ends, depth, quote, i = [], 1, None, start
    while i < len(line) and depth:
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 1:
            m = re.compile(pattern).match(line, i)
            if m:
                ends.append(m.end() - 1)
        i += 1
    return ends


class Rewrite:
    """File's part: its output's text, after the passes."""

    @staticmethod
    def blank_after_locals(out):
        """The locals that file-local.cocci and signature.cocci add come
        first; if no declaration follows them, a blank line must."""
        added = re.compile(r"^\t(size_t \w+ = iov_iter_count\((to|from)\)|"
                           r"struct file \*\w+ = iocb->ki_filp);$")
        decl = re.compile(r"^\t((const|static|unsigned|signed|struct|enum|"
                          r"union|volatile)\s+)*[A-Za-z_]\w*[\s*]+[A-Za-z_]\w*"
                          r"\s*(\[[^]]*\]\s*)*(=|;|,)")
        lines = out.split("\n")
        i = 0
        while i < len(lines) - 1:
            if added.match(lines[i]) and not added.match(lines[i + 1]) and \
                    lines[i + 1].strip() and not decl.match(lines[i + 1]):
                lines.insert(i + 1, "")
            i += 1
        return "\n".join(lines)

    def prototypes(self, out, header=False):
        """A declaration of a converted or wrapped function, for fops that
        come before its definition (or in another file): it must declare
        what the fops now name.  Native: the declaration takes the new
        name and signature.  Wrapped: NAME stays, and NAME_iter is
        declared after it, for the helper.  header: a header's
        declarations, of this file's functions.  (Text, not a semantic
        patch: spatch 1.1.1 can't rewrite top-level declarations.)"""
        todo = [(n, m, "to") for n, m in self.reads.items()] + \
            [(n, m, "from") for n, m in self.writes.items()]
        if not header:
            todo += [(n, self.foreign_mode.get(n), "to" if w == "read" else
                      "from") for n, (w, d) in self.foreign.items()]
        for name, m, it in todo:
            if m == "native":
                # spatch may have renamed it already.
                pat = re.compile(r"^((?:static\s+|extern\s+)?ssize_t\s+)%s"
                                 r"(?:_iter)?\s*\([^;{)]*\)\s*;" % name, re.M)
                out = pat.sub(lambda x: declaration(
                    x.group(1), name, it), out)
            elif m == "wrap" and not header and name not in self.foreign \
                    and self.named_here(name):
                # The helpers' definitions are static, whatever NAME is.
                pat = re.compile(r"^(?:static\s+)?ssize_t\s+%s\s*\([^;{)]*"
                                 r"\)\s*;" % name, re.M)
                out = pat.sub(lambda x: x.group(0) + "\n" + declaration(
                    "static ssize_t ", name, it), out)
        return out

    def before_fops(self, out):
        """What goes before a fops, each before the first fops that needs
        it: the helper of a function that another file defines and
        wraps (this file needs its own: FOPS_READ_ITER_HELPER(fn)), and
        the guards of a fops moved to debugfs_create_file_unsafe()
        (DEBUGFS_ITER_SAFE(fn_iter), ...: debugfs_iter.h).  In a moved
        fops, the guarded methods' names, and .owner if it had none."""
        wraps = self.foreign_wraps()
        emitted, inserts = set(), []
        code = strip_comments(out)
        for m in re.finditer(r"\bstruct\s+(?:file_operations|proc_ops)\s+"
                             r"(?:__\w+\s+)*(\w+)\s*=\s*\{", code):
            ops = m.group(1)
            fields = {f["field"]: f["value"] for f in self.fields
                      if f["ops"] == ops}
            lines = []		# (text, the #if conditions it needs)
            for field, value in sorted(fields.items()):
                if value in wraps and value not in emitted and \
                        field in ("read", "write", "proc_read"):
                    lines.append(("FOPS_%s_ITER_HELPER(%s);" % (
                        wraps[value].upper(), value),
                        self.added_conds(ops, field, value)))
                    emitted.add(value)
            guards = []
            for field in ("read", "write", "poll", "unlocked_ioctl",
                          "llseek") if ops in self.moving else ():
                v = fields.get(field)
                if not v or field == "llseek" and v in GENERIC_LLSEEK:
                    continue
                g = "%s(%s);" % (PROXIED[field], "seq_read_iter"
                                 if v == "seq_read" else v + "_iter"
                                 if field in ("read", "write") else v)
                if g not in emitted:
                    guards.append((g, self.added_conds(ops, field, v)))
                    emitted.add(g)
            if guards and DEBUGFS_COMMENT not in emitted:
                guards.insert(0, (DEBUGFS_COMMENT, ()))
                emitted.add(DEBUGFS_COMMENT)
            if lines + guards:
                # Lines under the same conditions, in one #if block.
                blocks = []
                for text, conds in lines + guards:
                    if blocks and blocks[-1][1] == conds:
                        blocks[-1][0].append(text)
                    else:
                        blocks.append(([text], conds))
                inserts.append((decl_start(out, m.start()), "".join(
                    cond_wrap(c, "".join(t + "\n" for t in ts))
                    for ts, c in blocks) + "\n"))
        for at, text in reversed(inserts):
            out = out[:at] + text + out[at:]
        for ops in self.moving:
            out = self.guard_fields(out, ops)
        return out

    def null_defines(self, out):
        """#define NAME NULL, where a fops' NAME has no method: it now
        defines the name the fops names instead (NAME_iter, or
        NAME_iter_safe), so that the fops has no method there still; the
        old one stays too if anything else still names it."""
        new = collections.defaultdict(set)
        for f in self.fields:
            v = f["value"]
            if f["field"] in ("read", "write", "proc_read") and \
                    v != "seq_read" and (self.reads.get(v) or
                                         self.writes.get(v) or
                                         self.foreign_mode.get(v)):
                new[v].add(v + ("_iter_safe" if f["ops"] in self.moving
                                else "_iter"))
        for v, names in new.items():
            pat = re.compile(r"^([ \t]*#[ \t]*define[ \t]+)%s([ \t]+%s[ \t]*)$"
                             % (re.escape(v), NULLS), re.M)
            code = pat.sub("", strip_comments(out))
            code = re.sub(r"\bssize_t\s+%s\s*\(|_ITER_HELPER\(%s\)" %
                          (v, v), "", code)
            keep = re.search(r"\b%s\b" % re.escape(v), code)
            out = pat.sub(lambda m: "\n".join(
                ([m.group(0)] if keep else []) +
                [m.group(1) + n + m.group(2) for n in sorted(names)]), out)
        return out

    def guard_fields(self, out, ops):
        """A moved fops' guarded methods, and its .owner."""
        fields = {f["field"]: f["value"] for f in self.fields
                  if f["ops"] == ops}
        m = re.search(r"\bstruct\s+file_operations\s+(?:__\w+\s+)*%s\s*=\s*"
                      r"\{" % ops, out)
        start, end = m.end(), match_close(out, m.end() - 1)
        body = out[start:end]
        for field in ("poll", "unlocked_ioctl", "llseek"):
            v = fields.get(field)
            if v and (field != "llseek" or v not in GENERIC_LLSEEK):
                body = re.sub(r"(\.%s\s*=\s*)%s\b" % (field, v),
                              r"\g<1>%s_safe" % v, body)
        body = re.sub(r"(\.read_iter\s*=\s*)seq_read_iter\b",
                      r"\g<1>seq_read_iter_safe", body)
        if "owner" not in fields:
            # Where the other fields put their "=" (as they were: spatch
            # rewrote some).
            was = re.search(r"\bstruct\s+file_operations\s+(?:__\w+\s+)*"
                            r"%s\s*=\s*\{" % ops, self.text)
            was = self.text[was.end():match_close(self.text, was.end() - 1)] \
                if was else ""
            cols = [layout(l) for l in (body + "\n" + was).split("\n")
                    if layout(l)]
            nl = body.find("\n")
            body = body[:nl + 1] + field_line(
                "owner", "THIS_MODULE,", cols[0] if cols else None) + "\n" + \
                body[nl + 1:]
        return out[:start] + body + out[end:]

    @staticmethod
    def spacing(out):
        """checkpatch --strict wants a blank line between a function and
        the helper macro that follows it."""
        return re.sub(r"^\}\n(FOPS_(READ|WRITE)_ITER_HELPER\()", r"}\n\n\1",
                      out, flags=re.M)

    def tidy(self, out):
        """spatch leaves a line of blanks where it rewrites an
        initializer's last field (one without a comma): drop it."""
        for ops in set(self.moving) | {f["ops"] for f in self.fields}:
            m = re.search(r"\bstruct\s+(?:file_operations|proc_ops)\s+"
                          r"(?:__\w+\s+)*%s\s*=\s*\{" % ops, out)
            if not m:
                continue
            start, end = m.end(), match_close(out, m.end() - 1)
            body = re.sub(r"\n[ \t]+(?=\n)", "", out[start:end])
            out = out[:start] + body + out[end:]
        # spatch indents a call it re-wraps with spaces past the tabs
        # (checkpatch's CODE_INDENT): tabs, as far as they reach.
        old = set(self.text.split("\n"))

        def indent(m):
            col = len(m.group(0).expandtabs(8))
            return "\t" * (col // 8) + " " * (col % 8)
        return "\n".join(l if l in old else re.sub(r"^\t*[ ]{8,}", indent, l)
                         for l in out.split("\n"))

    @staticmethod
    def wrap_long(out, old):
        """A condition that a copy's rewrite made longer than 80 columns
        (copy_to_iter(x, n, to) != n): broken after its last comparison
        at the condition's own level (not inside a call's parentheses
        nor a string) that leaves the first line within 80, the rest
        under the condition's first character.  Lines of old stay as
        they were."""
        keep = set(old.split("\n"))
        lines = []
        for line in out.split("\n"):
            m = re.match(r"^(\t*)(?:\} else )?(?:if|while) \(", line)
            if line in keep or not m or len(line.expandtabs(8)) <= 80:
                lines.append(line)
                continue
            cuts = [c for c in top_level(line, m.end(), r" (?:!=|==) ")
                    if len(line[:c].expandtabs(8)) <= 80]
            if not cuts:
                lines.append(line)
                continue
            col = len(line[:m.end()].expandtabs(8))
            lines += [line[:cuts[-1]], "\t" * (col // 8) + " " * (col % 8) +
                      line[cuts[-1]:].lstrip()]
        return "\n".join(lines)

    def includes(self, out):
        """iterkit.h for the helpers, debugfs_iter.h, linux/uio.h."""
        lines = out.split("\n")
        incs = top_includes(lines)
        if not incs:
            raise Refused("no #include lines to add the helpers' after")
        code = strip_comments(out)
        add_q = []
        if KIT_HELPERS.search(code) and '#include "iterkit.h"' not in out:
            add_q.append('#include "iterkit.h"')
        if re.search(r"\bDEBUGFS_\w+_SAFE\b", code) and \
                '#include "debugfs_iter.h"' not in out:
            add_q.append('#include "debugfs_iter.h"')
        if self.mode == "native" and "<linux/uio.h>" not in out and \
                any(v == "native" for t in (self.reads, self.writes)
                    for v in t.values()):
            linux = [i for i in incs if lines[i].startswith("#include <linux/")]
            at = next((i for i in linux if lines[i] > "#include <linux/uio.h>"),
                      (linux[-1] + 1) if linux else incs[0])
            lines.insert(at, "#include <linux/uio.h>")
            incs = top_includes(lines)
        if add_q:
            last = incs[-1]
            if lines[last].startswith("#include <"):
                add_q.insert(0, "")
            lines[last + 1:last + 1] = sorted(add_q, key=lambda s: s != "")
        return "\n".join(lines)

    @staticmethod
    def align(out):
        """spatch writes ".read_iter = fn" with single spaces: lay it out
        as the initializer's other fields are (layout(): its "=" at their
        column, or its value at theirs; single spaces, if that is their
        way)."""
        lines = out.split("\n")
        new = lambda m: m and (m.group(1).endswith("_iter") or
                               m.group(1).endswith("_iter_safe"))
        # How the file's initializers lay their lines out, most often.
        seen = collections.Counter(layout(l) for l in lines if layout(l))
        common = [c for c, _ in seen.most_common(1)]
        for i, l in enumerate(lines):
            m = FIELD.match(l)
            if not new(m) or (m.group(2), m.group(3)) != (" ", " "):
                continue
            cols, single = [], False
            for j in (i - 1, i + 1, i - 2, i + 2):
                if 0 <= j < len(lines):
                    n = FIELD.match(lines[j])
                    if n and layout(lines[j]):
                        cols.append(layout(lines[j]))
                    elif n and not new(n):
                        single = True
            if single and not cols:
                continue
            cols = cols or common
            if not cols:
                continue
            lines[i] = field_line(m.group(1), m.group(4), cols[0])
        return "\n".join(lines)
