# SPDX-License-Identifier: GPL-2.0
"""One .c file's conversion: the module's decisions for it, then the
passes (convert/*.cocci), then the text around them (rewrite), the checks
(checks) and the report (report)."""

import os
import re
import shutil
import tempfile

from .checks import FileChecks
from .preproc import definitions, conditions
from .report import Report
from .rewrite import Rewrite
from .spatch import Refused, find, spatch
from .text import function_span, line_of, strip_comments

# The buffer's patterns, in the order they run (chunk-loop first: the
# checks after it look for uses of the buffer inside loops).
BUFFER_PASSES = ["chunk-loop", "copy-to-user", "copy-from-user",
                 "get-put-user", "simple-buffer", "kstrto-from-user"]


# A fops initializer with a legacy field, as text (spatch may not parse it).
FOPS_LEGACY = re.compile(r"struct\s+(file_operations|proc_ops)\s+\w+\s*=\s*"
                         r"\{[^;]*?\.(proc_)?(read|write)\s*=", re.S)


class File(Rewrite, FileChecks, Report):
    """One .c file's conversion: the module's decisions for it, then the
    passes."""

    def __init__(self, path, mode, module=None):
        self.path, self.mode, self.module = path, mode, module
        with open(path) as f:
            self.text = f.read()
        self.code = strip_comments(self.text)
        self.refusal, self.out = None, None
        self.build = []			# the report's lines of its compile
        self.fns, self.fields = {}, []
        self.foreign_mode = {}
        self.reset()

    def reset(self):
        """Before each plan: what the module decides for this file."""
        self.notes = {}			# function -> (what, why)
        self.untouched = None		# why there is nothing to convert
        self.author = []		# decisions left to the author
        self.reads, self.writes = {}, {}	# function -> native/wrap
        self.foreign = {}		# function another file defines ->
        #				  (read/write, that file)
        self.seq_ops = []		# .read = seq_read -> seq_read_iter
        self.moving = {}		# fops -> Fops, to _unsafe
        self.safe_lines = set()		# debugfs_create_file() calls, by line
        self.wiring = []		# (fops, the report's line)

    def find(self):
        """What find.cocci says of the file; refusals that don't depend
        on other files."""
        self.fns, self.fields = find(self.path)
        legacy = [f for f in self.fields if f["field"] in
                  ("read", "write", "proc_read", "proc_write")]
        self.nothing = self.unparsed = None
        if not legacy:
            if FOPS_LEGACY.search(self.code):
                self.unparsed = ("spatch could not parse the fops or "
                                 "functions that name .read/.write")
                if not self.module.many:
                    raise Refused(self.unparsed)
            elif any(f["field"] in ("read_iter", "write_iter",
                                    "proc_read_iter") for f in self.fields):
                self.nothing = "already .read_iter/.write_iter"
            else:
                self.nothing = ("no file_operations or proc_ops with .read "
                                "or .write")

    def static(self, name):
        """Whether function name's definition here is static."""
        span = function_span(self.code, name)
        at = self.code.rfind(name, 0, span[0]) if span else -1
        if at < 0:
            return True
        return bool(re.search(r"\bstatic\b", self.code[max(
            0, self.code.rfind(";", 0, at), self.code.rfind("}", 0, at)):at]))

    def fall_back(self, name, reason):
        table = self.reads if name in self.reads else self.writes
        table[name] = "wrap"
        self.notes[name] = ("wrapped", reason)

    def foreign_wraps(self):
        """The functions other files define that this file's fops name,
        and that are wrapped: this file needs its own helper for each."""
        return {name: want for name, (want, d) in self.foreign.items()
                if self.foreign_mode.get(name) == "wrap"}

    def named_here(self, name):
        """Whether a fops of this file names function name."""
        return any(f["value"] == name for f in self.fields)

    def env(self):
        names = lambda t, m: " ".join(n for n, v in t.items() if v == m)
        # A wrapped function gets its helper where a fops names it: other
        # files' fops get one of their own (foreign_wraps()).
        wraps = lambda t: " ".join(n for n, v in t.items() if v == "wrap" and
                                   self.named_here(n))
        return {
            "NATIVE_READ": names(self.reads, "native"),
            "NATIVE_WRITE": names(self.writes, "native"),
            "WRAP_READ": wraps(self.reads),
            "WRAP_WRITE": wraps(self.writes),
            "ITER_READ": " ".join(list(self.reads) + [
                n for n, (w, d) in self.foreign.items() if w == "read"]),
            "ITER_WRITE": " ".join(list(self.writes) + [
                n for n, (w, d) in self.foreign.items() if w == "write"]),
            "SAFE_OPS": " ".join(sorted(self.moving)),
            "SEQ_OPS": " ".join(self.seq_ops),
            "SAFE_LINES": " ".join(str(n) for n in sorted(self.safe_lines)),
        }

    def run(self):
        """Every pass, on a copy; fall back and start again as needed."""
        if not (self.reads or self.writes or self.foreign or self.seq_ops or
                self.moving):
            why = sorted({n[1] for n in self.notes.values()} or
                         {w[len("left legacy: "):] for o, w in self.wiring
                          if w.startswith("left legacy: ")})
            for f in self.fields:	# functions another file left
                d = self.module.defined(self, f["value"])
                if d and d is not self and f["value"] in d.notes:
                    why.append("%s (%s)" % (d.notes[f["value"]][1],
                                            os.path.basename(d.path)))
            if not why and self.unparsed:
                raise Refused(self.unparsed)
            if not why and self.nothing:
                self.untouched = self.nothing	# not a refusal
                return self.text
            if not why:
                raise Refused("nothing to convert")
            why = sorted(set(why))
            raise Refused(why[0] if len(why) == 1 else
                          "nothing it can convert: " + "; ".join(why))
        for name, (want, d) in self.foreign.items():
            self.foreign_mode[name] = (d.reads if want == "read" else
                                       d.writes).get(name)
        while True:
            with tempfile.TemporaryDirectory() as tmp:
                cur = os.path.join(tmp, "0.c")
                shutil.copyfile(self.path, cur)
                env = self.env()
                done = {}		# function -> patterns that changed it
                # debugfs first: it finds its calls by their lines.
                passes = ["debugfs"] if self.safe_lines else []
                if self.mode == "native":
                    passes += BUFFER_PASSES + ["file-local", "signature"]
                passes += ["wrap", "fops"]
                for i, p in enumerate(passes):
                    nxt = os.path.join(tmp, "%d.c" % (i + 1))
                    with open(cur) as f:
                        before = f.read()
                    spatch(p, cur, nxt, env)
                    with open(nxt) as f:
                        after = f.read()
                    if p in BUFFER_PASSES:
                        self.changed_by(p, before, after, done)
                    if p == "chunk-loop" and self.loop_check(after):
                        break		# a fallback: start again
                    cur = nxt
                else:
                    with open(cur) as f:
                        out = f.read()
                    if not self.leftovers(out):
                        break
        for name, pats in done.items():
            if self.mode == "native" and \
                    (self.reads.get(name) or self.writes.get(name)) == "native":
                self.notes[name] = ("native", ", ".join(pats) if pats else
                                    "no use of the buffer")
        for t in (self.reads, self.writes):
            for name, m in t.items():
                if m == "native" and name not in self.notes:
                    self.notes[name] = ("native", "no use of the buffer")
        out = self.blank_after_locals(out)
        out = self.prototypes(out)
        out = self.before_fops(out)
        out = self.null_defines(out)
        out = self.spacing(out)
        out = self.includes(out)
        out = self.tidy(out)
        out = self.align(out)
        out = self.wrap_long(out, self.text)
        self.verify(out)
        self.decisions()
        return out

    def changed_by(self, p, before, after, done):
        for t in (self.reads, self.writes):
            for name, m in t.items():
                if m != "native":
                    continue
                done.setdefault(name, [])
                a = function_span(strip_comments(before), name)
                b = function_span(strip_comments(after), name)
                if a and b and before[a[0]:a[1]] != after[b[0]:b[1]]:
                    done[name].append(p)

    def conds(self):
        """conditions() of the original text, by line."""
        if not hasattr(self, "_conds"):
            self._conds = conditions(self.code)
        return self._conds

    def added_conds(self, ops, field, value):
        """The #if conditions a line the tool adds before fops ops for
        its .field = value needs, beyond those the fops is under: those
        of value's definition (in whichever file), and of the field's
        own line."""
        d = self.foreign[value][1] if value in self.foreign else self
        defs = [line for line, kind in definitions(d.code, value)
                if kind == "fn"]
        need = list(d.conds()[defs[0] - 1]) if defs else []
        at = [f["line"] for f in self.fields
              if f["ops"] == ops and f["field"] == field]
        if at:
            need += self.conds()[at[0] - 1]
        m = re.search(r"\bstruct\s+(?:file_operations|proc_ops)\s+"
                      r"(?:__\w+\s+)*%s\s*=\s*\{" % re.escape(ops), self.code)
        have = self.conds()[line_of(self.code, m.start()) - 1] if m else ()
        out = []
        for a in need:
            if a not in have and a not in out:
                out.append(a)
        return tuple(out)
