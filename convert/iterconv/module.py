# SPDX-License-Identifier: GPL-2.0
"""The module: the files of one call, planned together: a function and
every fops that names it change together, in whichever file, or none of
them does."""

import collections
import os
import re

from .build import compile_module, verdict
from .checks import ModuleChecks
from .file import File
from .registration import Fops, ModuleRegistration, Wiring
from .spatch import Refused
from .text import strip_comments


class Header:
    """A header given with the files: declarations follow the functions."""

    def __init__(self, path):
        self.path = path
        with open(path) as f:
            self.text = f.read()
        self.code = strip_comments(self.text)
        self.refusal = None


class Module(ModuleRegistration, ModuleChecks):
    """The files of one call, converted together: a function and every
    fops that names it change together, in whichever file, or none of
    them does.  A file given alone is a module of one file."""

    def __init__(self, paths, mode, tree=None):
        self.paths, self.mode = paths, mode
        self.tree = tree		# compile the outputs against it
        # debugfs' full proxy passes .read_iter/.write_iter on (upstream
        # mode's core patch): no move to debugfs_create_file_unsafe()
        self.proxy_iter = False
        self.built = None		# the originals' compile
        self.many = len(paths) > 1
        self.files, self.headers = [], []
        for p in paths:
            if p.endswith(".h"):
                self.headers.append(Header(p))
            else:
                self.files.append(File(p, mode, self))

    def local_headers(self):
        """(path, text, code) of the headers the files include by
        "name.h" and that the call doesn't give: read, never changed."""
        if hasattr(self, "_local"):
            return self._local
        given = {os.path.realpath(h.path) for h in self.headers}
        seen, out = set(given), []
        for f in self.files:
            for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', f.text, re.M):
                p = os.path.realpath(os.path.join(os.path.dirname(f.path),
                                                  m.group(1)))
                if p not in seen and os.path.isfile(p):
                    seen.add(p)
                    with open(p, errors="replace") as fh:
                        text = fh.read()
                    out.append((p, text, strip_comments(text)))
        self._local = out
        return out

    def convert(self):
        """Plan, then run each file's passes.  A file refused on the way
        is left as it was, and the plan made again without it; a
        function that fell back to the wrapper in its own file's run,
        while another file's fops took it as native, is planned as
        wrapped, and every file run again.  With a tree, the outputs
        are compiled: a file the converter broke is refused, and the
        rest converted again without it."""
        self.forced = {}		# (file, function) -> why it wraps
        for f in self.files:
            try:
                f.find()
            except Refused as e:
                f.refusal = str(e)
        while True:
            self.passes()
            for h in self.headers:
                h.out = self.declarations(h)
            if not self.tree or not self.compile():
                break

    def passes(self):
        """Plan, and run each file's passes, until every file agrees."""
        while True:
            self.plan()
            again = False
            for f in self.files:
                if f.refusal:
                    continue
                try:
                    f.out = f.run()
                except Refused as e:
                    f.refusal = str(e)
                    again = True
                    break
            if not again:
                for f in self.files:
                    for name, (want, d) in f.foreign.items():
                        mode = (d.reads if want == "read" else
                                d.writes).get(name)
                        if mode != f.foreign_mode.get(name) and \
                                not d.refusal:
                            self.forced[(d, name)] = d.notes[name][1]
                            again = True
            if not again:
                break

    def compile(self):
        """Each output compiled as its original (build.py), the originals
        once: a file that compiled and doesn't now is refused.  True if
        one was."""
        live = [f for f in self.files if not f.refusal and not f.untouched]
        if not live:
            return False
        if self.built is None:
            self.built = compile_module(self.tree, [
                (g.path, g.text) for g in self.files + self.headers])
        new = self.built if isinstance(self.built, str) else \
            compile_module(self.tree, [
                (g.path, g.out if g in live else g.text)
                for g in self.files] + [(h.path, h.out)
                                        for h in self.headers])
        broke = False
        for f in live:
            if isinstance(new, str):
                f.build = ["build: not checked: " + new]
                continue
            f.build, bad = verdict(self.built[f.path], new[f.path])
            if bad:
                f.refusal = "the output does not build, where the " \
                    "original does"
                broke = True
        return broke

    def defined(self, f, name):
        """The file that defines function name as fops in f see it."""
        if name in f.fns:
            return f
        others = [g for g in self.files if g is not f and name in g.fns
                  and not g.static(name)]
        return others[0] if len(others) == 1 else None

    def plan(self):
        live = [f for f in self.files if not f.refusal]
        for f in self.files:
            f.reset()
        self.fops = {}
        for f in live:
            for fl in f.fields:
                o = self.fops.setdefault((f, fl["ops"]), Fops(f, fl["ops"]))
                o.fields[fl["field"]] = fl["value"]
                o.lines[fl["field"]] = fl["line"]
        for o in self.fops.values():
            o.static()
        # What each legacy field names.
        self.users = collections.defaultdict(list)	# (file, fn) -> fields
        self.left = {}			# (file, fn) -> why it stays
        stays = collections.defaultdict(dict)	# fops -> field -> why
        for o in self.fops.values():
            for field, name in o.fields.items():
                if field not in ("read", "write", "proc_read", "proc_write"):
                    continue
                f = o.file
                if field == "proc_write":
                    d = self.defined(f, name) or f
                    self.leave(d, name, "a .proc_write: procfs has no "
                               ".proc_write_iter (up to 7.3)")
                    continue
                if name == "seq_read":
                    o.seq = True
                    continue
                d = self.defined(f, name)
                want = "read" if field in ("read", "proc_read") else "write"
                if not d or d.fns[name]["kind"] != want:
                    self.leave(d or f, name, self.unfound(f, name, want))
                    stays[o][field] = "not converted"
                    continue
                why = self.conditional(d, name)
                if why:
                    self.leave(d, name, why)
                    stays[o][field] = "not converted"
                    continue
                if re.search(r"\b%s_iter\b" % name, d.code):
                    self.leave(d, name, "%s_iter already exists in this file"
                               % name)
                    stays[o][field] = "not converted"
                    continue
                # A second .read_iter would override the first (mem.c's
                # zero_fops): the legacy one is the author's to remove.
                it = field + "_iter"
                if it in o.fields:
                    self.leave(d, name, "%s already sets .%s = %s: remove "
                               "its .%s by hand" % (o.name, it, o.fields[it],
                                                    field))
                    stays[o][field] = "not converted"
                    continue
                if d.refusal or f.refusal:
                    self.leave(d, name, "%s is refused" % os.path.basename(
                        (d if d.refusal else f).path))
                    stays[o][field] = "not converted"
                    continue
                self.users[(d, name)].append((o, field))
        # How each fops that would change is registered.
        wiring = Wiring([(f.path, f.text, f.code) for f in self.files] +
                        [(h.path, h.text, h.code) for h in self.headers] +
                        self.local_headers(), self.many)
        touched = {o for us in self.users.values() for o, _ in us} | \
            {o for o in self.fops.values() if o.seq}
        for o in touched:
            self.register(o, wiring)
        # Until nothing changes: a fops that stays keeps its functions
        # legacy, for every fops that names them; a group of fops that
        # share a debugfs_create_file() moves to _unsafe together, or
        # none of them does.
        while True:
            changed = False
            for key, us in self.users.items():
                if key in self.left:
                    continue
                for o, field in us:
                    if o.keep:
                        self.leave(key[0], key[1], "%s stays legacy: %s" %
                                   (o.name, o.keep))
                        changed = True
                        break
            for key, us in self.users.items():
                if key in self.left:
                    for o, field in us:
                        stays[o].setdefault(field, "not converted")
            for group in self.groups(touched):
                fault = (self.proxy_fault if self.proxy_iter else
                         self.unmovable)(group, stays)
                for o in group:
                    if not isinstance(o, Fops):
                        continue
                    if fault and not o.keep:
                        culprit, why = fault
                        if culprit not in (None, o):
                            why = "shares a debugfs_create_file() with " \
                                "%s: %s" % (culprit.name, why)
                        o.keep, o.move, changed = why, False, True
                    elif not fault and not self.proxy_iter:
                        o.move = True
            if not changed:
                break
        # The functions, and what each file does.
        for (d, name), us in self.users.items():
            if (d, name) in self.left:
                continue
            table = d.reads if us[0][1] in ("read", "proc_read") else d.writes
            table[name] = "native" if self.mode == "native" else "wrap"
            if self.mode == "wrap":
                d.notes[name] = ("wrapped", "--wrap")
        for (d, name), why in self.left.items():
            d.notes[name] = ("left alone", why)
        for f in live:
            for name in list(f.reads) + list(f.writes):
                if self.mode == "native":
                    why = self.forced.get((f, name)) or \
                        self.native_check(f, name)
                    if why:
                        f.fall_back(name, why)
        for o in self.fops.values():
            if o.keep or (o not in touched and not o.move):
                continue
            f = o.file
            for field, name in o.fields.items():
                d = self.defined(f, name)
                if d and d is not f and (d, name) in self.users and \
                        (d, name) not in self.left:
                    want = "read" if field in ("read", "proc_read") else \
                        "write"
                    f.foreign[name] = (want, d)
            if o.seq:
                f.seq_ops.append(o.name)
            if o.move:
                f.moving[o.name] = o
                for s in o.sites or []:
                    if s.kind == "debugfs":
                        self.file_of(s.path).safe_lines.add(s.line)
        for o in touched:
            o.file.wiring.append((o.name, self.describe(o)))

    def leave(self, f, name, why):
        self.left.setdefault((f, name), why)

    def file_of(self, path):
        return next(f for f in self.files if f.path == path)

    def declarations(self, h):
        """A header's declarations of the functions converted natively."""
        out = h.text
        for f in self.files:
            if f.refusal:
                continue
            out = f.prototypes(out, header=True)
        return out
