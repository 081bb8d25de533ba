# SPDX-License-Identifier: GPL-2.0
"""How each fops reaches the VFS: where the files of a module hand it
on (a call, a struct's member, an assignment), through the module's own
macros and functions; and whether a fops can take .read_iter/.write_iter
there, or move from debugfs_create_file() to its _unsafe form."""

import collections
import os
import re

from .text import before, enclosing, function_span, line_of, match_close, \
    match_open, norm, postfix_start, split_top


# they make of it.  Only debugfs' full proxy stands between the VFS and a
# fops: it calls .read/.write/.llseek/.poll/.unlocked_ioctl/.release and
# nothing else, bracketing all but .release with debugfs_file_get()/put().
REGISTRARS = {
    "debugfs_create_file": (4, "debugfs"),
    "debugfs_create_file_unsafe": (4, "debugfs_unsafe"),
    "debugfs_create_file_size": (4, "debugfs_fixed"),
    "debugfs_create_file_aux": (5, "debugfs_fixed"),
    "debugfs_create_file_aux_num": (5, "debugfs_fixed"),
    "debugfs_create_file_full": (5, "debugfs_fixed"),
    "proc_create": (3, "proc"),
    "proc_create_data": (3, "proc"),
    "cdev_init": (1, "cdev"),
    "register_chrdev": (2, "cdev"),
    "__register_chrdev": (4, "cdev"),
    "anon_inode_getfile": (1, "file"),
    "anon_inode_getfile_fmode": (1, "file"),
    "anon_inode_getfd": (1, "file"),
    "anon_inode_create_getfile": (1, "file"),
    "replace_fops": (1, "file"),
    "securityfs_create_file": (4, "securityfs"),
}
# Members of kernel structures that hand a fops to the VFS as it is.
MEMBER_KINDS = {("miscdevice", "fops"): "misc",
                ("usb_class_driver", "fops"): "usb",
                ("cdev", "ops"): "cdev",
                ("tree_descr", "ops"): "inode",
                ("pid_entry", "fop"): "inode"}
# The kernel's structures' members in order, for positional initializers.
KERNEL_STRUCTS = {"miscdevice": [("int", "minor"), ("char", "name"),
                                 ("file_operations", "fops")],
                  "tree_descr": [("char", "name"), ("file_operations", "ops"),
                                 ("int", "mode")]}
# Assignments to these members, whatever the object.
ASSIGN_KINDS = {"i_fop": "inode", "f_op": "file"}
# What each kind is, for the report.
KIND_NAMES = {
    "misc": "misc device", "cdev": "character device", "proc": "procfs",
    "usb": "USB class device", "inode": "inode's i_fop", "file": "file's f_op",
    "securityfs": "securityfs",
    "debugfs_unsafe": "debugfs_create_file_unsafe()",
    "debugfs": "debugfs_create_file() (full proxy)",
    "debugfs_fixed": "debugfs full proxy",
}
# Kinds whose files the VFS calls through the fops as they are.
DIRECT = {"misc", "cdev", "proc", "usb", "inode", "file", "securityfs",
          "debugfs_unsafe"}
ATTRS = re.compile(r"\b(__\w+|const|static|volatile)\b")

# A fops given to debugfs_create_file() may move to
# debugfs_create_file_unsafe() only if each of its methods can be
# bracketed as the full proxy bracketed it (debugfs_iter.h's macros):
PROXIED = {"read": "DEBUGFS_ITER_SAFE", "write": "DEBUGFS_ITER_SAFE",
           "poll": "DEBUGFS_POLL_SAFE", "unlocked_ioctl": "DEBUGFS_IOCTL_SAFE",
           "llseek": "DEBUGFS_LLSEEK_SAFE"}
# or needs no bracket: debugfs brackets .open of an _unsafe file too, the
# full proxy called .release unbracketed, and .owner is added if missing.
UNBRACKETED = {"owner", "open", "release"}
# llseeks that run none of the driver's code, so need no bracket.
GENERIC_LLSEEK = {"default_llseek", "noop_llseek", "no_llseek",
                  "generic_file_llseek", "no_seek_end_llseek"}


class Unknown(Exception):
    """How a fops is registered can't be told; the message says why."""


class Site:
    """One place that hands a fops on: a call, a member, an assignment."""

    def __init__(self, kind, what, path, line, key=None, reach=None,
                 movable=True):
        self.kind, self.what, self.path, self.line = kind, what, path, line
        self.key = key or (path, line, what)
        self.reach = reach	# the fops names that reach it; None: just one
        self.movable = movable	# a debugfs call the converter can rewrite
        self.via = []		# the macros, functions, tables on the way

    def where(self):
        return "%s:%d" % (os.path.basename(self.path), self.line)


class Wiring:
    """Where the files of a module (the files given, and the local headers
    they include) hand each fops on, read from their text: calls (a fops
    given to debugfs_create_file(), cdev_init(), ...), initializers (a
    struct miscdevice's .fops; a table whose member a call hands on),
    assignments (inode->i_fop), through the module's own function-like
    macros and functions."""

    def __init__(self, texts, module):
        self.texts = texts	# [(path, text, code)]
        self.module = module	# several files given: they are the module
        self.macros, self.structs = {}, {}
        for path, text, code in texts:
            for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)"
                                 r"((?:[^\n]*\\\n)*[^\n]*)", code, re.M):
                params = [p.strip() for p in m.group(2).split(",")
                          if p.strip()]
                self.macros[m.group(1)] = (params,
                                           m.group(3).replace("\\\n", " "))
            for m in re.finditer(r"\bstruct\s+(\w+)\s*\{", code):
                body = code[m.end():match_close(code, m.end() - 1)]
                self.structs.setdefault(m.group(1), self.members(body))

    @staticmethod
    def members(body):
        """[(type, name)] of a struct's body, in order."""
        out = []
        for s, e in split_top(body.replace(";", ","), 0, len(body)):
            decl = body[s:e].strip()
            if not decl:
                continue
            fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", decl)
            name = fp.group(1) if fp else (re.findall(
                r"(\w+)\s*(?:\[[^\]]*\]\s*)*(?::\s*\w+)?$", decl) or [""])[0]
            t = re.search(r"\bstruct\s+(\w+)", decl)
            out.append((t.group(1) if t else decl.split()[0], name))
        return out

    def member_type(self, struct, member):
        """The struct type of struct's member (any struct's, if struct is
        None and only one kind has a member of that name), or None."""
        if struct:
            for t, n in self.structs.get(struct, KERNEL_STRUCTS.get(
                    struct, [])):
                if n == member:
                    return t
            return None
        types = {t for s in self.structs.values() for t, n in s
                 if n == member}
        for path, text, code in self.texts:	# variables too
            types |= set(re.findall(r"\bstruct\s+(\w+)\s*\**\s*%s\s*[;=\[,)]"
                                    % member, code))
        return types.pop() if len(types) == 1 else None

    def is_initializer(self, code, o):
        b = before(code, o)
        if self.cast_type(code, o):
            return True
        if b.endswith("="):
            return not b.endswith(("==", "!=", "<=", ">="))
        if b.endswith((",", "{")):
            e = enclosing(code, o)
            return e >= 0 and code[e] == "{" and self.is_initializer(code, e)
        return False

    def declared_type(self, code, o):
        """The struct type a declaration "... = {" at o gives, with
        whether it is an array; None if it isn't a declaration."""
        d = ATTRS.sub(lambda m: " " * len(m.group(0)),
                      code[:code[:o].rstrip().rfind("=")]).rstrip()
        m = re.search(r"\bstruct\s+(\w+)\s*\**\s*\w+\s*((?:\[[^\]]*\]\s*)*)$",
                      d)
        if m:
            return m.group(1), bool(m.group(2))
        m = re.search(r"\}\s*\w+\s*((?:\[[^\]]*\]\s*)*)$", d)
        if m:
            k = match_open(code, m.start())
            tag = k >= 0 and re.search(r"\bstruct\s+(\w+)\s*$", code[:k])
            if tag:
                return tag.group(1), bool(m.group(1))
        return None

    @staticmethod
    def cast_type(code, o):
        """The struct of a compound literal (struct T){...} opened at o."""
        m = re.search(r"\(\s*struct\s+(\w+)\s*\)\s*$", code[:o])
        return m and m.group(1)

    def brace_type(self, code, o):
        """(struct type, is an array) of the initializer opened at o."""
        if self.cast_type(code, o):
            return self.cast_type(code, o), False
        b = before(code, o)
        if b.endswith("="):
            d = b[:-1].rstrip()
            mem = re.search(r"\.\s*(\w+)$", d)
            e = enclosing(code, o)
            if mem and e >= 0:
                outer = self.brace_type(code, e)
                return (self.member_type(outer and outer[0], mem.group(1)),
                        False)
            idx = re.search(r"\[[^\]]*\]$", d)
            if idx and before(d, idx.start()).endswith((",", "{")) and \
                    e >= 0 and code[e] == "{":
                outer = self.brace_type(code, e)	# [INDEX] = {...}
                return (outer[0], False) if outer else None
            return self.declared_type(code, o)
        if b.endswith((",", "{")):
            e = enclosing(code, o)
            outer = self.brace_type(code, e) if e >= 0 else None
            if not outer or not outer[0]:
                return None
            if outer[1]:
                return outer[0], False
            k = len(split_top(code, e + 1, o)) - 1	# positional
            ms = self.structs.get(outer[0], KERNEL_STRUCTS.get(outer[0], []))
            return (ms[k][0], False) if k < len(ms) else None
        return None

    def sites(self, name, only=None):
        """Where fops name is handed on: [Site]; Unknown if anything
        else is done with it.  only: the one file that can name it (it
        is static there)."""
        out = []
        for path, text, code in self.texts:
            if only and path != only:
                continue
            for m in re.finditer(r"\b%s\b" % re.escape(name), code):
                p = m.start()
                if re.search(r"\bstruct\s+(file_operations|proc_ops)\s+"
                             r"(__\w+\s+)*$", code[:p]) and \
                        re.match(r"\s*(__\w+\s*)*(=|;|\[)", code[m.end():]):
                    continue		# its definition or a declaration
                d = next((d for d in re.finditer(
                    r"^[ \t]*#[ \t]*define[ \t]+(\w+)(?:[^\n]*\\\n)*[^\n]*",
                    code, re.M) if d.start() <= p < d.end()), None)
                if d:
                    out += self.defined_in(name, d.group(1))
                    continue
                out += self.classify(path, code, p, m.end(),
                                     line_of(code, p), 0)
        return out

    def classify(self, path, code, s, e, line, depth):
        """[Site] for the expression code[s:e] (a fops, or a value that
        holds one) where it stands."""
        here = "%s:%d" % (os.path.basename(path), line)
        expr = norm(code[s:e])
        if depth > 4:
            raise Unknown("followed too far (%s)" % here)
        if re.search(r"([!=]=|!)\s*&?\s*$", code[:s]) or \
                re.match(r"\s*[!=]=", code[e:]):
            return []			# compared with: not handed on
        o = enclosing(code, s)
        if o >= 0 and code[o] == "(" and re.search(
                r"\b(if|while)\s*$", code[:o]) and \
                norm(code[o + 1:match_close(code, o)]) == expr:
            return []			# tested
        if o < 0:
            raise Unknown("named outside a function or initializer (%s)" % here)
        if code[o] == "(":
            callee = re.search(r"(\w+)\s*$", code[:o])
            # the call's line: where its name is
            cline = line - code.count("\n", callee.start(), s) if callee \
                else line
            callee = callee and callee.group(1)
            close = match_close(code, o)
            args = split_top(code, o + 1, close)
            idx = next(i for i, (a, b) in enumerate(args) if a <= s < b + 1)
            if norm(code[args[idx][0]:args[idx][1]]) != expr:
                raise Unknown("in an expression the converter can't follow "
                              "(%s)" % here)
            if callee and callee.startswith("EXPORT_SYMBOL"):
                raise Unknown("exported (%s): other modules may register it"
                              % here)
            if callee in REGISTRARS:
                at, kind = REGISTRARS[callee]
                if idx != at:
                    raise Unknown("%s() gets it as argument %d (%s)" %
                                  (callee, idx + 1, here))
                return [Site(kind, callee + "()", path, cline,
                             key=(path, o))]
            if callee in self.macros:
                return self.expand(path, code, callee, o, close, args, idx,
                                   line, depth)
            fn = callee and self.function(callee)
            if fn:
                return self.through(fn, callee, idx, here, depth)
            raise Unknown("handed to %s() (%s)" % (callee or "(...)", here))
        if code[o] == "{" and self.is_initializer(code, o):
            t = self.brace_type(code, o)
            seg = split_top(code, o + 1, match_close(code, o))
            k = next(i for i, (a, b) in enumerate(seg) if a <= s < b + 1)
            item = code[seg[k][0]:seg[k][1]]
            d = re.match(r"\s*\.\s*(\w+)\s*=", item)
            struct = t and t[0]
            if t and t[1]:
                raise Unknown("in the array at %s" % here)
            if d:
                mem = d.group(1)
            else:
                ms = self.structs.get(struct, KERNEL_STRUCTS.get(struct, []))
                mem = ms[k][1] if k < len(ms) else None
            if norm(item[d.end() if d else 0:]) != expr:
                raise Unknown("in an expression the converter can't follow "
                              "(%s)" % here)
            if (struct, mem) in MEMBER_KINDS:
                return [Site(MEMBER_KINDS[(struct, mem)], "struct %s .%s" %
                             (struct, mem), path, line)]
            if not struct or not mem:
                raise Unknown("in an initializer the converter can't "
                              "follow (%s)" % here)
            return self.table(struct, mem, here, depth)
        # A statement: an assignment, or a return.
        st = max(code.rfind(";", 0, s), code.rfind("{", 0, s),
                 code.rfind("}", 0, s)) + 1
        stmt = code[st:s]
        m = re.match(r"\s*(.*?)\s*(?<![=!<>])=\s*&?\s*$", stmt, re.S)
        if not m or not re.match(r"\s*[;,]", code[e:]):
            raise Unknown("%s (%s)" % ("returned" if re.match(
                r"\s*return\b", stmt) else "in an expression the converter "
                "can't follow", here))
        lhs = re.sub(r"\s+", "", m.group(1))
        mem = re.search(r"(\w+)(?:\.|->)(\w+)$", lhs)
        if mem and mem.group(2) in ASSIGN_KINDS:
            return [Site(ASSIGN_KINDS[mem.group(2)], "->" + mem.group(2),
                         path, line)]
        if mem and (self.member_type(None, mem.group(1)), mem.group(2)) in \
                MEMBER_KINDS:
            struct = self.member_type(None, mem.group(1))
            return [Site(MEMBER_KINDS[(struct, mem.group(2))], "struct %s .%s"
                         % (struct, mem.group(2)), path, line)]
        raise Unknown("assigned to %s (%s)" % (lhs, here))

    def function(self, name):
        """(path, code, parameter names, body span) of a function the
        module defines, or None."""
        for path, text, code in self.texts:
            span = function_span(code, name)
            if span:
                head = code[:span[0]]
                close = head.rstrip()
                o = enclosing(code, len(close) - 1)
                params = [re.findall(r"(\w+)\s*(?:\[[^\]]*\]\s*)*$",
                                     code[a:b].strip()) for a, b in
                          split_top(code, o + 1, len(close) - 1)]
                return path, code, [p[0] if p else "" for p in params], span
        return None

    def through(self, fn, callee, idx, here, depth):
        """The sites of parameter idx of function callee, inside it."""
        path, code, params, (a, b) = fn
        if idx >= len(params) or not params[idx]:
            raise Unknown("handed to %s() (%s)" % (callee, here))
        out = []
        for m in re.finditer(r"\b%s\b" % params[idx], code[a:b]):
            out += self.classify(path, code, a + m.start(), a + m.end(),
                                 line_of(code, a + m.start()), depth + 1)
        if not out:
            raise Unknown("handed to %s(), which doesn't hand it on (%s)" %
                          (callee, here))
        # Whatever reaches the parameter reaches those sites.
        reach = self.arguments(callee, idx)
        for site in out:
            site.via.append("in %s()" % callee)
            site.reach = reach if site.reach is None else \
                (site.reach | reach if reach is not None and
                 site.reach is not None else None)
        return out

    def arguments(self, callee, idx):
        """The fops names given to callee() as argument idx; None if one
        isn't a plain name."""
        names = set()
        for path, text, code in self.texts:
            for m in re.finditer(r"\b%s\s*\(" % callee, code):
                close = match_close(code, m.end() - 1)
                args = split_top(code, m.end(), close)
                if re.match(r"[^;]*\{", code[close + 1:close + 40]) and \
                        re.match(r"\s*\{", code[close + 1:]):
                    continue		# the definition
                if idx >= len(args):
                    return None
                a = norm(code[args[idx][0]:args[idx][1]])
                if not re.fullmatch(r"\w+", a):
                    return None
                names.add(a)
        return names

    def expansion(self, code, name, o, close, args):
        """code with macro name's invocation at o expanded: the new text,
        where the expansion starts and ends in it, and where each
        argument went (argument index -> [(start, end)])."""
        params, body = self.macros[name]
        vals = [code[a:b].strip() for a, b in args]
        start = re.search(r"\w+\s*$", code[:o]).start()
        out, spans, pos = "", {}, 0
        body = re.sub(r"#\s*(\w+)", lambda m: '""' if m.group(1) in params
                      else m.group(0), body)
        for m in re.finditer(r"\b\w+\b", body):
            out += body[pos:m.start()]
            pos = m.end()
            if m.group(0) in params:
                k = params.index(m.group(0))
                v = vals[k] if k < len(vals) else ""
                spans.setdefault(k, []).append(
                    (start + len(out), start + len(out) + len(v)))
                out += v
            else:
                out += m.group(0)
        out += body[pos:]
        # ## pastes: no argument of ours is next to one (it would not be
        # a fops name any more), so only what follows moves.
        if "##" in out:
            raise Unknown("macro %s() pastes tokens" % name)
        return code[:start] + out + code[close + 1:], start, start + len(out), \
            spans

    def in_macro(self, path, code, where, found, line, depth):
        """The sites of an expression at spans found of code, from where
        (a macro's invocation), marked as spatch can't rewrite them."""
        sites = []
        for a, b in found:
            for site in self.classify(path, code, a, b, line, depth + 1):
                site.via.append("in %s()" % where)
                site.movable = False	# spatch can't rewrite a macro
                sites.append(site)
        return sites

    def expand(self, path, code, name, o, close, args, idx, line, depth):
        """The sites of argument idx of macro name, in its expansion."""
        params = self.macros[name][0]
        if idx >= len(params) or params[idx] == "...":
            raise Unknown("in macro %s()'s variable arguments" % name)
        virtual, _, _, spans = self.expansion(code, name, o, close, args)
        sites = self.in_macro(path, virtual, name, spans.get(idx, []), line,
                              depth)
        if not sites:
            raise Unknown("macro %s() drops it (%s:%d)" %
                          (name, os.path.basename(path), line))
        return sites

    def defined_in(self, fops, name):
        """The sites of a fops named in the body of macro name: in each
        of its invocations."""
        if name not in self.macros:
            raise Unknown("named in macro %s" % name)
        sites = []
        for path, text, code in self.texts:
            for m in re.finditer(r"\b%s\s*\(" % name, code):
                if re.match(r"[ \t]*#", code[code.rfind("\n", 0, m.start())
                                              + 1:]):
                    continue
                o = m.end() - 1
                close = match_close(code, o)
                virtual, a, b, _ = self.expansion(code, name, o, close,
                                                  split_top(code, o + 1, close))
                found = [(a + x.start(), a + x.end()) for x in re.finditer(
                    r"\b%s\b" % fops, virtual[a:b])]
                sites += self.in_macro(path, virtual, name, found,
                                       line_of(code, m.start()), 1)
        if not sites:
            raise Unknown("named in macro %s(), which nothing invokes" % name)
        return sites

    def var_type(self, code, at, name):
        """The struct type of variable (or parameter) name, as declared
        before at in code or anywhere in the module; None if unknown."""
        pat = re.compile(r"\bstruct\s+(\w+)\s*(?:const\s*)?\**\s*(?:const\s+)?"
                         r"%s\s*[;,=)\[]|\}\s*%s\s*\[" % (name, name))
        found = [m for m in pat.finditer(code[:at])] or \
            [m for path, text, c in self.texts for m in pat.finditer(c)]
        if not found:
            return None
        m = found[-1]
        if m.group(1):
            return m.group(1)
        t = self.declared_type(code, code.find("{", m.end())) \
            if code.find("{", m.end()) >= 0 else None
        return t and t[0]

    def table(self, struct, mem, here, depth):
        """A fops put in member mem of a struct of the module's: the
        sites of each use of that member (of a struct of that type, or of
        one the converter can't tell), each reached by every value any
        initializer of that struct puts there."""
        reach, sites = self.entries(struct, mem), []
        for path, text, code in self.texts:
            for m in re.finditer(r"(\.|->)\s*%s\b" % mem, code):
                end = m.end()
                if re.match(r"\s*(=[^=]|->|\.)", code[end:]):
                    continue		# an initializer's, a store, a use
                if re.search(r"\bstruct\s+\w+\s*\{[^}]*$", code[:m.start()]):
                    continue
                s = postfix_start(code, m.start())
                obj = re.match(r"\w+", code[s:])
                if obj and "." not in code[s:m.start()].replace(
                        "->", ".") and self.var_type(code, s, obj.group(0)) \
                        not in (None, struct):
                    continue		# another struct's member
                for site in self.classify(path, code, s, end,
                                          line_of(code, s), depth + 1):
                    site.via.append("via %s.%s" % (struct, mem))
                    site.reach = reach
                    sites.append(site)
        if not sites:
            raise Unknown("put in struct %s .%s, which these files don't "
                          "hand on (%s)" % (struct, mem, here))
        return sites

    def entries(self, struct, mem):
        """The fops names that initializers of struct put in member mem;
        None if one isn't a plain name."""
        names = set()
        for path, text, code in self.texts:
            for m in re.finditer(r"\{", code):
                o = m.start()
                if not self.is_initializer(code, o):
                    continue
                t = self.brace_type(code, o)
                if not t or t[1] or t[0] != struct:
                    continue
                ms = self.structs.get(t[0], KERNEL_STRUCTS.get(t[0], []))
                for k, (a, b) in enumerate(split_top(code, o + 1,
                                                     match_close(code, o))):
                    item = code[a:b]
                    d = re.match(r"\s*\.\s*(\w+)\s*=", item)
                    if (d.group(1) if d else
                            (ms[k][1] if k < len(ms) else None)) != mem:
                        continue
                    v = norm(item[d.end() if d else 0:])
                    if v in ("NULL", ""):
                        continue
                    if not re.fullmatch(r"\w+", v):
                        return None
                    names.add(v)
        return names


class Fops:
    """One struct file_operations or struct proc_ops initializer."""

    def __init__(self, f, name):
        self.file, self.name = f, name
        self.fields, self.lines = {}, {}
        self.struct = "file_operations"
        self.sites, self.unknown = None, None
        self.keep = None		# why it stays as it is, all of it
        self.move = False		# to debugfs_create_file_unsafe()
        self.seq = False		# .read = seq_read to switch

    def static(self):
        m = re.search(r"([^;{}]*)\bstruct\s+(file_operations|proc_ops)\s+"
                      r"(?:__\w+\s+)*%s\s*(?:__\w+\s*)*=" % self.name,
                      self.file.code)
        if m:
            self.struct = m.group(2)
        return bool(m and re.search(r"\bstatic\b", m.group(1)))


class ModuleRegistration:
    """Module's part: how each fops it would change is registered."""

    def register(self, o, wiring):
        """o.sites, or o.keep: how o's files are created, and whether
        they can take .read_iter/.write_iter."""
        where = "%s:%d" % (os.path.basename(o.file.path),
                           min(o.lines.values()))
        if o.struct == "proc_ops":	# procfs' alone, whoever registers it
            try:
                o.sites = [s for s in wiring.sites(o.name, o.file.path if
                                                   o.static() else None)
                           if s.kind == "proc"]
            except Unknown:
                o.sites = None
            o.sites = o.sites or [Site("proc", "struct proc_ops", o.file.path,
                                       min(o.lines.values()))]
            return
        if not o.static() and not self.many:
            o.keep = ("not static: other files may register it (give them "
                      "in the same call)")
            return
        try:
            # A static fops: no other file can name it.
            o.sites = wiring.sites(o.name, o.file.path if o.static()
                                   else None)
        except Unknown as e:
            o.keep = "how its files are created can't be told: %s" % e
            return
        if not o.sites:
            o.keep = "registered nowhere in %s (%s)" % (
                "these files" if self.many else "this file", where)
            return
        kinds = {s.kind for s in o.sites}
        fixed = [s for s in o.sites if s.kind == "debugfs_fixed"]
        if self.proxy_iter:	# debugfs' full proxy passes them on
            return
        if fixed:
            o.keep = ("%s (%s): debugfs' full proxy passes .read/.write "
                      "only, and has no _unsafe form" % (fixed[0].what,
                                                         fixed[0].where()))
        elif "debugfs" in kinds and kinds - {"debugfs"}:
            o.keep = ("given to debugfs_create_file() and registered "
                      "otherwise too: its methods can't bracket themselves "
                      "for one and not the other")
        elif "debugfs" in kinds:
            bad = [s for s in o.sites if not s.movable]
            if bad:
                o.keep = ("%s (%s): debugfs' full proxy passes .read/.write "
                          "only, and the converter can't rewrite a call in "
                          "a macro" % (bad[0].what, " ".join(
                              [bad[0].where()] + bad[0].via)))

    def groups(self, touched):
        """The fops given to debugfs_create_file(), in groups that share
        a call: [set of Fops, or of names where one isn't ours]."""
        parent = {}

        def root(x):
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x
        calls = collections.defaultdict(set)
        for o in touched:
            proxied = {"debugfs", "debugfs_fixed"} if self.proxy_iter \
                else {"debugfs"}
            if o.keep or not o.sites or \
                    not proxied & {s.kind for s in o.sites}:
                continue
            for s in o.sites:
                for name in (s.reach if s.reach is not None else
                             {o.name}) | {o.name}:
                    calls[s.key].add(self.fops_named(o.file, name) or name)
        for members in calls.values():
            members = list(members)
            for m in members[1:]:
                parent[root(m)] = root(members[0])
            root(members[0])
        out = collections.defaultdict(set)
        for x in parent:
            out[root(x)].add(x)
        return list(out.values())

    def fops_named(self, f, name):
        o = self.fops.get((f, name))
        if o:
            return o
        others = [o for (g, n), o in self.fops.items() if n == name and
                  not o.static()]
        return others[0] if len(others) == 1 else None

    @staticmethod
    def group_fault(group):
        """Why a group of fops reaching one debugfs_create_file() can't
        change at all, or None: (the fops at fault, or None for all, and
        why).  One of the group isn't a fops these files define, or stays
        legacy for a reason of its own."""
        for o in group:
            if not isinstance(o, Fops):
                return None, ("%s reaches the same debugfs_create_file(), and "
                              "isn't a fops these files define" % o)
            if o.keep:
                return o, o.keep
        return None

    def unmovable(self, group, stays):
        """Why a group of fops can't move to debugfs_create_file_unsafe(),
        or None: (the fops at fault, or None for all, and why)."""
        fault = self.group_fault(group)
        if fault:
            return fault
        for o in sorted(group, key=lambda o: o.name):
            for field, value in sorted(o.fields.items()):
                if field not in PROXIED and field not in UNBRACKETED:
                    return o, ("its .%s, which debugfs' proxy never called, "
                               "would be called unprotected under _unsafe" %
                               field)
                if field in ("poll", "unlocked_ioctl", "llseek") and \
                        not re.fullmatch(r"\w+", value):
                    return o, "its .%s is no function's name" % field
                if field in stays.get(o, {}):
                    return o, ("its .%s stays legacy, and "
                               "debugfs_create_file() must stay for it" % field)
        if not any(f in ("read", "write") and v != "seq_read"
                   for o in group for f, v in o.fields.items()):
            return None, ("only seq_read to convert, and "
                          "debugfs_create_file() proxies .read only")
        return None

    def proxy_fault(self, group, stays):
        """With debugfs' full proxy taught .read_iter/.write_iter (upstream
        mode's core patch): why a group of fops must stay legacy, or None.
        The proxy passes on .read/.write or .read_iter/.write_iter, never
        a mix."""
        fault = self.group_fault(group)
        if fault:
            return fault
        for o in group:
            for field in ("read", "write"):
                if field in o.fields and field in stays.get(o, {}):
                    return o, ("its .%s stays legacy, and debugfs' full "
                               "proxy passes on .read/.write or .read_iter/"
                               ".write_iter, never both" % field)
        return None

    def describe(self, o):
        """The report's line for fops o: how its files are created, and
        what was done about it."""
        if o.keep:
            return "left legacy: " + o.keep
        kinds = collections.OrderedDict()
        for s in sorted(o.sites or [], key=lambda s: (s.path, s.line)):
            kinds.setdefault(KIND_NAMES[s.kind] if s.kind != "debugfs" else
                             "debugfs_create_file()", []).append(
                " ".join([s.where()] + s.via))
        line = "checked: " + "; ".join("%s (%s)" % (k, ", ".join(w))
                                       for k, w in kinds.items())
        if not o.sites:		# moves with a group it shares a call with
            line = "checked: debugfs_create_file(), with the fops it " \
                "shares a call with"
        if self.proxy_iter and any(s.kind.startswith("debugfs") and
                                   s.kind != "debugfs_unsafe"
                                   for s in o.sites or []):
            line += ": through the full proxy's read_iter/write_iter"
        if o.move:
            guarded = [{"read": "read_iter", "write": "write_iter"}.get(f, f)
                       for f in ("read", "write", "poll", "unlocked_ioctl",
                                 "llseek") if o.fields.get(f) and
                       (f != "llseek" or o.fields[f] not in GENERIC_LLSEEK)]
            line += ": moved to debugfs_create_file_unsafe(), guarded: " + \
                ", ".join(guarded)
            if "owner" not in o.fields:
                line += "; .owner added (an open file must pin the module)"
        return line
