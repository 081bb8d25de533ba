# SPDX-License-Identifier: GPL-2.0
"""What may be converted natively, and whether a result is whole: the
checks before the passes (a function's uses, its #if conditions, what the
text says of a name spatch didn't find) and after them (a buffer left,
a field not switched, a condition not kept)."""

import os
import re

from .preproc import NULLS, conditions, definitions
from .spatch import Refused, parse_error
from .text import enclosing, function_span, line_of, loop_spans, \
    match_close, norm, parameters, split_top, strip_comments, uses


# The copies whose length a pattern keeps, by the index of the buffer and
# of the length among their arguments (None: sizeof the value).
COPIES = {"copy_to_user": (0, 2), "copy_from_user": (1, 2),
          "put_user": (1, None), "get_user": (1, None)}


def at_most(n, count):
    """Whether expression n (norm()'s form) is never more than count: a
    min() of it, or a conditional that picks count when count is the
    smaller (count > max ? max : count)."""
    m = re.match(r"(min|min_t|umin|min3)\(", n)
    if m and match_close(n, m.end() - 1) == len(n) - 1:
        args = [norm(n[a:b]) for a, b in split_top(n, m.end(), len(n) - 1)]
        if m.group(1) != "min_t":
            return count in args
        # In a signed type, a negative other would be the minimum, and a
        # huge length once copied.
        return count in args[1:] and re.fullmatch(
            r"size_t|u(8|16|32|64|long|int)|unsigned\w*", args[0]) is not None
    m = re.fullmatch(r"([^?:]+)\?([^?:]+):([^?:]+)", n)
    c = m and re.fullmatch(r"([^<>]+)(<=?|>=?)([^<>=][^<>]*)",
                           norm(m.group(1)))
    if not c:
        return False
    a, op, b = (norm(g) for g in c.groups())
    yes, no = norm(m.group(2)), norm(m.group(3))
    if op.startswith("<"):
        a, b = b, a		# a > b: a is the larger when it holds
    # Where the larger is count, the other; else count.
    return (a == count and (yes, no) == (b, count)) or \
        (b == count and (yes, no) == (count, a))


def unbounded(body, at, buf, count, read):
    """Why the copy of buf at offset at of body can't be converted
    natively, or None: its length isn't bounded by count (no test of
    count against it before, and not count itself, nor a value given
    from count).  .read wrote past count, .write read past it; the
    iterator can't, so read(fd, buf, 0) or a short buffer would get
    -EFAULT where it got the copy's length.  The wrapper keeps that."""
    o = enclosing(body, at)
    call = re.search(r"\b(\w+)\s*$", body[:max(o, 0)])
    if o < 0 or body[o] != "(" or not call or call.group(1) not in COPIES:
        return None
    args = split_top(body, o + 1, match_close(body, o))
    which, length = COPIES[call.group(1)]
    if len(args) <= max(which, length or 0) or \
            not args[which][0] <= at < args[which][1]:
        return None
    n = norm(body[slice(*args[length])]) if length else None
    if n == count or n and at_most(n, count):
        return None
    done = body[:call.start()]
    word = r"(?<!\w)%s(?!\w)"
    spaced = lambda e: r"\s*".join(map(re.escape, e))
    other = word % spaced(n) if n else r"[\w().*>-]+"
    cmp = r"\s*(?:<=?|>=?|[!=]=)\s*"
    if re.search(r"%s%s%s|%s%s%s" % (word % re.escape(count), cmp, other,
                                     other, cmp, word % re.escape(count)),
                 done) or (not n and re.search(r"!\s*%s" % (
                     word % re.escape(count)), done)):
        return None		# tested against count
    if n and re.fullmatch(r"\w+", n) and re.search(
            r"%s\s*=(?!=)[^;]*%s" % (word % n, word % re.escape(count)),
            done):
        return None		# given from count
    return ("%s()'s length (%s) is not bounded by %s: natively %s would "
            "get -EFAULT, where .%s %s past %s" % (
                call.group(1), n or "sizeof the value", count,
                "read(fd, buf, 0) or a shorter read" if read else
                "a shorter write", "read" if read else "write",
                "wrote" if read else "read", count))


class ModuleChecks:
    """Module's part: checks across the files of the call."""

    def unfound(self, f, name, want):
        """Why function name, which a fops of f names as its .read or
        .write (want), is not one that find.cocci found: what the text
        says of it, or "could not parse" where the text defines it."""
        bad = parse_error(f.path)
        if bad and re.search(r"\b%s\s*\(" % name, f.code):
            return "spatch can't parse the file (%s)" % bad
        if not re.fullmatch(r"\w+", name):
            return "could not parse %s as a function's name" % name
        defs = [(g, line, kind) for g in self.files + self.headers
                for line, kind in definitions(g.code, name)]
        where = lambda g, line: "%s:%d" % (os.path.basename(g.path), line)
        fns = [(g, line) for g, line, kind in defs if kind == "fn"]
        if fns:
            return ("could not parse %s (%s) as a %s function: (struct file "
                    "*, %schar __user *, size_t, loff_t *)" % (
                        name, where(*fns[0]), want,
                        "const " if want == "write" else ""))
        for g, line, kind in defs:
            return ("%s is #defined %s (%s): %s" % (
                name, "NULL" if kind == "null" else "as a macro",
                where(g, line), "no method to convert" if kind == "null"
                else "the converter doesn't follow macros"))
        return "%s: no definition in %s" % (
            name, "these files" if self.many else "this file")

    @staticmethod
    def conditional(d, name):
        """Why function name, which d defines, can't be converted with its
        preprocessor conditions kept, or None.  One definition, and
        #define NAME NULL in other branches (no method there), is what
        the converter follows."""
        defs = definitions(d.code, name)
        fns = [line for line, kind in defs if kind == "fn"]
        macros = [line for line, kind in defs if kind == "macro"]
        if len(fns) > 1:
            return ("defined %d times (lines %s, under different #if "
                    "conditions): the converter converts one definition "
                    "only" % (len(fns), ", ".join(map(str, fns))))
        if macros:
            return ("also #defined as a macro (line %d): the converter "
                    "doesn't follow macros" % macros[0])
        return None

    def native_check(self, f, name):
        """Why name, which f defines, can't be converted natively."""
        why = f.native_check(name)
        if why:
            return why
        # Named elsewhere in the module than in fops: called directly?
        named, static = 0, f.static(name)
        for g in self.files + self.headers:
            if g is not f and (static or g in self.files and
                               name in g.fns and g.static(name)):
                continue		# names its own, or can't name ours
            code = g.code
            span = function_span(code, name) if g is f else None
            if span:
                code = code[:span[0]] + code[span[1]:]
            code = re.sub(r"\b(extern\s+)?ssize_t\s+%s\s*\([^;{)]*\)\s*;" %
                          name, "", code)
            code = re.sub(r"\.(proc_)?(read|write)\s*=\s*%s\b" % name, "", code)
            # #define NAME NULL: no method where its #if doesn't hold
            code = re.sub(r"^[ \t]*#[ \t]*define[ \t]+%s[ \t]+%s[ \t]*$" %
                          (name, NULLS), "", code, flags=re.M)
            named += len(re.findall(r"\b%s\b" % name, code))
        if named - 1 > 0:	# the definition's own name is one use
            return "named elsewhere than in its fops (called directly?)"
        if not f.static(name):
            if not self.many:
                return "not static: other files may call it by its name"
            if re.search(r"\bEXPORT_SYMBOL\w*\s*\(\s*%s\s*\)" % name, f.code):
                return "exported: other modules may call it by its name"
            for path, text, code in self.local_headers():
                if re.search(r"\b%s\b" % name, code):
                    return ("not static, and declared in %s, which isn't among "
                            "the files given" % os.path.basename(path))
        return None


class FileChecks:
    """File's part: checks of one file's functions and output."""

    def native_check(self, name):
        """Why name can't be converted natively, from the original text
        (the module looks at the other files)."""
        fn = self.fns[name]
        span = function_span(self.code, name)
        if not span:
            return "spatch found it, but its body could not be located"
        body = self.code[span[0]:span[1] + 1]
        for word in ("iocb", "to" if name in self.reads else "from"):
            if re.search(r"\b%s\b" % word, body):
                return "already uses the name '%s'" % word
        if re.search(r"\bppos\s*[!=]=\s*NULL|!\s*ppos\b|\bif\s*\(\s*ppos\s*\)|"
                     r"\bppos\s*(&&|\|\||\?)|(&&|\|\|)\s*ppos\b", body):
            return "tests ppos for NULL (a stream file): ki_pos never is"
        # its buffer's uses: list->buffer, a member, is none of them
        used = uses(body, fn["buf"])
        if len(used) > 1:
            return ("uses its buffer in %d places: only a single access is "
                    "sure to be where the iterator is" % len(used))
        if used:
            at = used[0].start()
            for label in re.finditer(r"^\s*(\w+):(?!:)", body[:at], re.M):
                if label.group(1) not in ("default",) and \
                        re.search(r"\bgoto\s+%s\b" % label.group(1), body[at:]):
                    return ("uses its buffer after label %s:, which a goto "
                            "goes back to" % label.group(1))
        return None

    def bounded_check(self, name):
        """Why native name's copy isn't bounded by its count (unbounded()),
        from the original text; asked last, once no pattern's reason to
        wrap is left, so that those are the ones the report gives."""
        span = function_span(self.code, name)
        if not span:
            return None
        body = self.code[span[0]:span[1] + 1]
        buf = self.fns[name]["buf"]
        use = next(iter(uses(body, buf)), None)
        names = parameters(self.code, span)
        if not use or len(names) != 4:
            return None
        return unbounded(body, use.start(), buf, names[2], name in self.reads)

    def loop_check(self, text):
        """A use of the buffer inside a loop, once chunk-loop.cocci has had
        its go, is at the same offset each time round: wrap.  True if a
        function fell back."""
        code, fell = strip_comments(text), False
        for t in (self.reads, self.writes):
            for name, m in list(t.items()):
                span = function_span(code, name) if m == "native" else None
                if not span:
                    continue
                body = code[span[0]:span[1] + 1]
                buf = self.fns[name]["buf"]
                # chunk-loop.cocci's copies and byte scan's reads: a
                # continue before one would step done or i without it
                # (spatch's paths through the loop can't see that), and
                # an outer loop would run the scan again over an
                # iterator it has used up.
                spans = loop_spans(body)
                for cp in re.finditer(r"\b(copy_from_iter|get_iter)\(",
                                      body):
                    around = [(s, e) for s, e in spans
                              if s <= cp.start() <= e]
                    what = ("a chunk loop" if cp.group(1) == "copy_from_iter"
                            else "a byte scan")
                    why = None
                    if len(around) > 1:
                        why = ("%s inside another loop would read the "
                               "iterator again" % what)
                    elif any(re.search(r"\bcontinue\b", body[s:cp.start()])
                             for s, e in around):
                        why = "%s that may continue before its %s" % (
                            what, "copy" if cp.group(1) == "copy_from_iter"
                            else "get_user()")
                    if why:
                        self.fall_back(name, why)
                        fell = True
                        break
                if fell and t[name] != "native":
                    continue
                for use in uses(body, buf):
                    if any(s <= use.start() <= e for s, e in loop_spans(body)):
                        self.fall_back(name, "uses its buffer in a loop, at "
                                       "an offset no pattern follows")
                        fell = True
                        break
        return fell

    def leftovers(self, out):
        """A native function whose buffer is still used: wrap it, and say
        which use.  True if the passes must run again."""
        code = strip_comments(out)
        again = False
        for t in (self.reads, self.writes):
            for name, m in list(t.items()):
                if m != "native":
                    continue
                span = function_span(code, name + "_iter")
                if not span:
                    self.fall_back(name, "the native passes lost it")
                    again = True
                    continue
                body = code[span[0]:span[1] + 1]
                use = next(iter(uses(body, self.fns[name]["buf"])), None)
                why = None if use else self.bounded_check(name)
                if why:
                    self.fall_back(name, why)
                    again = True
                elif use:
                    ln = line_of(out, span[0] + use.start())
                    src = out.splitlines()[ln - 1].strip()
                    self.fall_back(name, "no pattern rewrote this use of "
                                   "its buffer: %s" % src)
                    again = True
        return again

    def verify(self, out):
        """Never write a file that isn't whole: every field that had to
        switch did, no fops field names a legacy function we converted,
        and each debugfs_create_file() to move did."""
        code = strip_comments(out)
        for t, field in ((self.reads, "read"), (self.writes, "write")):
            names = [n for n in t if t[n] == "native" or self.named_here(n)] \
                + [n for n, (w, d) in self.foreign.items() if w == field]
            for name in names:
                if re.search(r"\.(proc_)?%s\s*=\s*%s\s*[,}]" % (field, name),
                             code):
                    raise Refused("the fops field naming %s did not switch" %
                                  name)
                if not re.search(r"\b%s_iter(_safe)?\b" % name, code):
                    raise Refused("%s_iter is missing from the result" % name)
        calls = r"\bdebugfs_create_file\s*\("
        if len(re.findall(calls, self.code)) - len(re.findall(calls, code)) \
                != len(self.safe_lines):
            raise Refused("a debugfs_create_file() to move to _unsafe did "
                          "not")
        for ops in self.moving:
            m = re.search(r"\b%s\s*=\s*\{" % ops, code)
            body = code[m.end():match_close(code, m.end() - 1)]
            if re.search(r"\.(read|write)\s*=", body):
                raise Refused("%s kept a .read or .write under _unsafe" % ops)
        self.verify_conditions(code)

    def verify_conditions(self, code):
        """The preprocessor's conditions kept: each name a fops now names
        is defined under the #if conditions its old name was (a #define
        NAME NULL by a #define NULL: no method where there was none), and
        each line the tool added that uses a function (a helper, a guard)
        is compiled only where that function is."""
        conds = conditions(code)
        at = lambda line: frozenset(conds[line - 1])
        old_at = lambda line: frozenset(self.conds()[line - 1])
        for f in self.fields:
            v = f["value"]
            if f["field"] not in ("read", "write", "proc_read") or \
                    v == "seq_read" or not (self.reads.get(v) or
                                            self.writes.get(v) or
                                            self.foreign_mode.get(v)):
                continue
            new = v + ("_iter_safe" if f["ops"] in self.moving else "_iter")
            old = [(old_at(line), kind == "null") for line, kind in
                   definitions(self.code, v)]
            if not old:
                continue		# another file defines it
            now = [(at(line), kind == "null") for line, kind in
                   definitions(code, new)]
            field = re.search(r"\.(proc_)?(read|write)_iter\s*=\s*%s\b" % new,
                              code)
            if not field:
                continue		# verify() said so
            fc = at(line_of(code, field.start()))
            match = lambda a, b: a[1] == b[1] and a[0] <= b[0] <= a[0] | fc
            if not all(any(match(o, n) for n in now) for o in old) or \
                    not all(any(match(o, n) for o in old) for n in now):
                raise Refused(
                    "%s is defined under #if conditions the converter "
                    "could not keep for %s (%s: %s; %s: %s)" % (
                        v, new, v, self.show_conds(old), new,
                        self.show_conds(now)))
        for m in re.finditer(r"^(FOPS_(?:READ|WRITE)_ITER_HELPER|"
                             r"DEBUGFS_\w+_SAFE)\((\w+)\);", code, re.M):
            fn = m.group(2)
            defs = [at(line) for line, kind in definitions(code, fn)
                    if kind == "fn"]
            here = at(line_of(code, m.start()))
            if defs and not any(d <= here for d in defs):
                raise Refused("%s(%s) would be compiled where %s is not "
                              "defined (%s)" % (m.group(1), fn, fn,
                                                self.show_conds(
                                                    [(here, False)])))

    @staticmethod
    def show_conds(defs):
        """Definitions' conditions, for a refusal."""
        return ", ".join("%s%s" % ("NULL " if null else "",
                                   " && ".join(sorted(c)) or "always")
                         for c, null in defs) or "nowhere"
