# SPDX-License-Identifier: GPL-2.0
"""common/iterkit.h as the source of upstream mode's core patches: what
the RFC's helpers do is written once, there, and series.py's templates
take it from there.  A template holds what is the tree's own (a kernel-doc
comment, a signature, EXPORT_SYMBOL()) and, on lines of their own,

  @body NAME@     the body, "{" to "}", of iterkit.h's function NAME
  @define NAME@   iterkit.h's "#define NAME ...", with its continued lines

each with iterkit.h's kit_ prefixes taken off the names it uses
(kit_vfs_rw_iter() is the tree's vfs_rw_iter()).  What comes out may not
name the kit: a kit_ name left, iterkit.h or compat.h is an error."""

import os
import re

from .build import COMMON
from .text import function_span, strip_comments

HEADER = os.path.join(COMMON, "iterkit.h")
MARK = re.compile(r"^@(body|define) (\w+)@$", re.M)
KIT = re.compile(r"\bkit_\w+|\bKIT_\w+|\b(?:iterkit|compat)\.h\b")


def unkit(text):
    """text with the kit_ prefix off every name: the tree's names."""
    return re.sub(r"\bkit_(\w+)", r"\1", text)


def body(header, name):
    """The body of function name's definition in header's text, "{" to
    "}"."""
    span = function_span(strip_comments(header), name)
    if not span:
        raise LookupError("%s: no function %s()" % (HEADER, name))
    return header[span[0]:span[1] + 1]


def define(header, name):
    """#define name ... in header's text, with its continued lines."""
    m = re.search(r"^#define[ \t]+%s\b(?:[^\n]*\\\n)*[^\n]*" %
                  re.escape(name), header, re.M)
    if not m:
        raise LookupError("%s: no #define %s" % (HEADER, name))
    return m.group(0)


def fill(template, header=None):
    """template with each @body NAME@ and @define NAME@ line replaced
    by iterkit.h's (or header's text's) definition, in the tree's
    names."""
    if header is None:
        with open(HEADER) as f:
            header = f.read()
    out = MARK.sub(lambda m: unkit((body if m.group(1) == "body" else
                                    define)(header, m.group(2))), template)
    left = KIT.search(out)
    if left:
        raise ValueError("%s: a core patch's text names the kit: %s" % (
            HEADER, left.group(0)))
    return out
