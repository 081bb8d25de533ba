# SPDX-License-Identifier: GPL-2.0
"""C source as text: comments blanked, brackets matched, functions and
expressions found, where spatch can't or needn't be asked."""

import re


def strip_comments(text):
    """The text with comments and string/char literals blanked out, lines
    and offsets kept."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(\\.|[^"\\\n])*"|\'(\\.|[^\'\\\n])*\'',
                  blank, text, flags=re.S)


def member(text, start):
    """Whether the word at text[start] follows -> or . (a member's name,
    x->buffer or x.buffer, or a designated initializer's, .buffer =)."""
    return re.search(r"(->|\.)\s*$", text[max(0, start - 16):start]) \
        is not None


def uses(code, name):
    """The uses of identifier name in code (comment-stripped): [re.Match],
    a member of the same name (list->buffer[i]) left out."""
    return [m for m in re.finditer(r"\b%s\b" % re.escape(name), code)
            if not member(code, m.start())]


PAIRS = {"(": ")", "{": "}", "[": "]", ")": "(", "}": "{", "]": "["}


def match(text, i, where):
    """The index in where (indices of text, from i on) of the bracket
    pairing with the one at text[i], or None."""
    depth = 0
    for j in where:
        if text[j] == text[i]:
            depth += 1
        elif text[j] == PAIRS[text[i]]:
            depth -= 1
            if depth == 0:
                return j
    return None


def match_close(text, i):
    """Index of the bracket closing the one at text[i] (the last
    character's if none does)."""
    j = match(text, i, range(i, len(text)))
    return len(text) - 1 if j is None else j


def match_open(text, i):
    """Index of the bracket opening the one at text[i], or -1."""
    j = match(text, i, range(i, -1, -1))
    return -1 if j is None else j


def function_span(code, name):
    """(start of the body's "{", end of its "}") of function name's
    definition in comment-stripped code, or None."""
    for m in re.finditer(r"\b%s\s*\(" % re.escape(name), code):
        close = match_close(code, m.end() - 1)
        rest = code[close + 1:]
        brace = re.match(r"\s*\{", rest)
        line_start = code.rfind("\n", 0, m.start()) + 1
        head = code[line_start:m.start()]
        if brace and not re.search(r"[=,;(]", head) and \
                not head.strip().startswith("return"):
            start = close + 1 + brace.end() - 1
            return start, match_close(code, start)
    return None


def loop_spans(body):
    """Spans of the statements that loops in body repeat."""
    spans = []
    for m in re.finditer(r"\b(for|while|do)\b", body):
        i = m.end()
        if m.group(1) != "do":
            while i < len(body) and body[i].isspace():
                i += 1
            if i >= len(body) or body[i] != "(":
                continue
            i = match_close(body, i) + 1
        while i < len(body) and body[i].isspace():
            i += 1
        if i >= len(body) or body[i] == ";":
            continue		# an empty loop, or do-while's tail
        end = match_close(body, i) if body[i] == "{" else len(body)
        spans.append((m.start(), end))
    return spans


def top_includes(lines):
    """The indexes of the #include lines outside any #if block."""
    depth, out = 0, []
    for i, l in enumerate(lines):
        if re.match(r"#\s*if", l):
            depth += 1
        elif re.match(r"#\s*endif", l):
            depth -= 1
        elif l.startswith("#include") and depth == 0:
            out.append(i)
    return out


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def enclosing(code, p):
    """Index of the innermost bracket open at p, or -1."""
    depth = 0
    for i in range(p - 1, -1, -1):
        c = code[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                return i
            depth -= 1
    return -1


def split_top(code, start, end):
    """The spans of code[start:end] between commas outside brackets."""
    spans, depth, s = [], 0, start
    for i in range(start, end):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            spans.append((s, i))
            s = i + 1
    spans.append((s, end))
    return spans


def before(code, o):
    """code[:o] without the blanks and preprocessor lines that end it."""
    b = code[:o].rstrip()
    while True:
        nl = b.rfind("\n")
        if not b[nl + 1:].lstrip().startswith("#"):
            return b
        b = b[:max(nl, 0)].rstrip()


def norm(expr):
    """An expression without blanks, outer parentheses or a leading &."""
    e = re.sub(r"\s+", "", expr)
    while True:
        if e.startswith("&"):
            e = e[1:]
        elif e.startswith("(") and e.endswith(")") and \
                match_close(e, 0) == len(e) - 1:
            e = e[1:-1]
        else:
            return e


def postfix_start(code, i):
    """Where the postfix expression ending just before i starts
    (a->b[c].d: from a)."""
    j = i
    while j > 0:
        while j > 0 and code[j - 1].isspace():
            j -= 1
        if j > 0 and code[j - 1] == "]":
            j = match_open(code, j - 1)
            continue
        k = j
        while k > 0 and (code[k - 1].isalnum() or code[k - 1] == "_"):
            k -= 1
        if k == j:
            return j
        j = k
        m = j
        while m > 0 and code[m - 1].isspace():
            m -= 1
        if code[m - 1:m] == ".":
            j = m - 1
        elif code[m - 2:m] == "->":
            j = m - 2
        else:
            return j
    return j


def decl_start(text, pos):
    """The start of the line holding pos, or of the comment just above."""
    at = text.rfind("\n", 0, pos) + 1
    prev = text.rfind("\n", 0, max(at - 1, 0)) + 1
    if at and text[prev:at - 1].rstrip().endswith("*/"):
        opening = text.rfind("/*", 0, at - 1)
        if opening >= 0:
            at = text.rfind("\n", 0, opening) + 1
    return at


def parameters(code, span):
    """The names of the parameters of the function whose body is at span
    of code (function_span())."""
    head = code[:span[0]].rstrip()
    o = enclosing(code, len(head) - 1)
    if o < 0:
        return []
    return [(re.findall(r"(\w+)\s*(?:\[[^\]]*\]\s*)*$", code[a:b].strip())
             or [""])[0] for a, b in split_top(code, o + 1, len(head) - 1)]
