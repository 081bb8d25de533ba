# SPDX-License-Identifier: GPL-2.0
"""The report: per function what was done and what callers see
differently, the author's decisions, and the patch."""

import os
import re
import subprocess
import tempfile

from .text import enclosing, function_span, split_top


class Report:
    """File's part: its report."""

    def decisions(self):
        """What the author decides, per fops with a converted function."""
        conv = lambda n: self.reads.get(n) or self.writes.get(n) or (
            self.foreign_mode.get(n) if n in self.foreign else None)
        seen = set()
        for f in self.fields:
            name = f["value"]
            if f["ops"] in seen or not conv(name):
                continue
            seen.add(f["ops"])
            fields = {g["field"] for g in self.fields if g["ops"] == f["ops"]}
            natives = [g["value"] for g in self.fields if g["ops"] == f["ops"]
                       and conv(g["value"]) == "native"]
            proc = any(x.startswith("proc_") for x in fields)
            blocks = [n for n in natives if self.tests_nonblock(n)]
            if natives:
                self.author.append(
                    "%s: no FMODE_NOWAIT (RWF_NOWAIT gets EOPNOTSUPP): set "
                    "it in open() once %s honour%s IOCB_NOWAIT" % (
                        f["ops"], ", ".join(n + "_iter" for n in natives),
                        "" if len(natives) > 1 else "s"))
            for n in blocks:
                d = self.foreign[n][1] if n in self.foreign else self
                fl = d.fns[n].get("file", "file") if n in d.fns else "file"
                self.author.append(
                    "%s_iter tests O_NONBLOCK: IOCB_NOWAIT should count too, "
                    "(%s->f_flags & O_NONBLOCK) || (iocb->ki_flags & "
                    "IOCB_NOWAIT)%s" % (n, fl, (
                        "; it matters now: %s has .poll, and from 6.12 "
                        "io_uring passes IOCB_NOWAIT to a pollable file "
                        "without FMODE_NOWAIT, where blocking blocks the "
                        "submitter" % f["ops"]) if "poll" in fields else ""))
            if natives and not proc and "read" in fields and \
                    "splice_read" not in fields:
                self.author.append(
                    "%s: no .splice_read: copy_splice_read would give splice() "
                    "and sendfile(), and the read_iter kernel memory to fill" %
                    f["ops"])

    def tests_nonblock(self, name):
        """Whether function name tests O_NONBLOCK, in whichever file of
        the module defines it (a fops may name another file's)."""
        d = self.foreign[name][1] if name in self.foreign else self
        span = function_span(d.code, name)
        return bool(span and re.search(r"\bO_NONBLOCK\b",
                                       d.code[span[0]:span[1]]))

    def callers(self, name):
        """What callers of function name see differently once it is
        converted (native) or wrapped, and what the author decides: a
        line, or None."""
        mode = self.reads.get(name) or self.writes.get(name)
        what, _ = self.notes.get(name, ("", ""))
        if what not in ("native", "wrapped"):
            return None
        if mode == "wrap":
            rw = "read" if name in self.reads else "write"
            return ("%s_iter: one call per segment as before; io_uring's "
                    "%s_FIXED now gets -EINVAL (.%s served it)" %
                    (name, rw.upper(), rw))
        span = function_span(self.code, name)
        head = self.code[:span[0]] if span else ""
        o = enclosing(self.code, len(head.rstrip()) - 1) if span else -1
        args = split_top(self.code, o + 1, len(head.rstrip()) - 1) \
            if o >= 0 else []
        count = re.findall(r"\w+", self.code[args[2][0]:args[2][1]])[-1] \
            if len(args) == 4 else "count"
        body = self.code[span[0]:span[1]] if span else ""
        call = "readv()" if name in self.reads else "writev()"
        line = "%s_iter: one call per %s, not per segment" % (name, call)
        limit = re.search(r"\bif\s*\(\s*%s\s*>=?\s*([^()]*(?:\([^()]*\)"
                          r"[^()]*)*)\)\s*return\s+(-E\w+)" % count, body)
        clamp = re.search(r"\bmin(?:_t)?\s*\(([^;]*\b%s\b[^;]*)\)\s*;" %
                          count, body)
        if limit:
            line += (": %s > %s gives %s for the total, where each segment "
                     "under it was %s (a partial %s): decide which one "
                     "callers should get" % (count, limit.group(1).strip(),
                                     limit.group(2), "read" if call ==
                                     "readv()" else "written",
                                     call[:-3]))
        elif clamp:
            line += (": min(%s) now bounds the total, where it bounded each "
                     "segment: decide which one callers should get" %
                     re.sub(r"\s+", " ", clamp.group(1).strip()))
        return line

    def report(self):
        """The report's lines for this file, and the counts."""
        counts = {"native": 0, "wrapped": 0, "left alone": 0}
        lines = []
        for name in sorted(self.notes, key=lambda n: self.fns.get(
                n, {"start": 0})["start"]):
            what, why = self.notes[name]
            counts[what] += 1
            lines.append("  %s: %s (%s)" % (name, what, why))
        for ops in self.seq_ops:
            lines.append("  %s: seq_read -> seq_read_iter" % ops)
        for ops, how in sorted(self.wiring):
            lines.append("  fops %s: %s" % (ops, how))
        for name in sorted(self.notes, key=lambda n: self.fns.get(
                n, {"start": 0})["start"]):
            c = self.callers(name)
            if c:
                lines.append("  for callers: %s" % c)
        for a in self.author:
            lines.append("  for the author: %s" % a)
        lines += ["  " + b for b in self.build]
        lines.append("convert: %s: native %d, wrapped %d, left alone %d" %
                     (self.path, counts["native"], counts["wrapped"],
                      counts["left alone"]))
        return lines


def diff(path, old, new):
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        with open(a, "w") as f:
            f.write(old)
        with open(b, "w") as f:
            f.write(new)
        p = subprocess.run(["diff", "-u", "--label", "a/" + path, "--label",
                            "b/" + path, a, b], stdout=subprocess.PIPE,
                           text=True)
        return p.stdout
