# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/text.py: C as text."""

import unittest

from iterconv import text

CODE = ("static int f(int a) /* f(x) { */\n"
        "{\n"
        "\tint b[2] = { a, \"}\" [0] };\n"
        "\n"
        "\tfor (a = 0; a < 2; a++)\n"
        "\t\tb[a] = g(a, h(a, 1));\n"
        "\treturn b[0];\n"
        "}\n")


class Text(unittest.TestCase):
    def test_strip_comments_keeps_offsets(self):
        s = text.strip_comments(CODE)
        self.assertEqual(len(s), len(CODE))
        self.assertEqual(s.count("\n"), CODE.count("\n"))
        self.assertNotIn("f(x)", s)
        self.assertNotIn('"}"', s)

    def test_match_close(self):
        s = text.strip_comments(CODE)
        o = s.index("{", s.index("b[2]"))
        self.assertEqual(s[text.match_close(s, o)], "}")
        self.assertEqual(text.match_close(s, o), s.index("};"))
        self.assertEqual(text.match_open(s, s.index("};")), o)
        self.assertEqual(text.match_open("a[b[1]]", 6), 1)
        self.assertEqual(text.match_open("x)", 1), -1)

    def test_uses(self):
        """An identifier's uses, not a member's of the same name."""
        code = "f(buf, a->buf, b.buf, c-> buf, { .buf = buf }, buf_2);"
        self.assertEqual([m.start() for m in text.uses(code, "buf")],
                         [2, code.rindex("= buf") + 2])

    def test_function_span(self):
        s = text.strip_comments(CODE)
        a, b = text.function_span(s, "f")
        self.assertEqual((s[a], s[b]), ("{", "}"))
        self.assertEqual(b, len(s) - 2)
        self.assertIsNone(text.function_span(s, "g"))	# called only

    def test_loop_spans(self):
        s = text.strip_comments(CODE)
        body = s[slice(*text.function_span(s, "f"))]
        (a, b), = text.loop_spans(body)
        self.assertIn("b[a] = g", body[a:b])
        # A body without braces: to the end of the function, the safe
        # side for "is this use inside a loop?".
        self.assertEqual(b, len(body))
        self.assertEqual(text.loop_spans("{ while (x) { y; } z; }"),
                         [(2, 17)])
        self.assertEqual(text.loop_spans("{ while (x); y; }"), [])

    def test_split_top_and_enclosing(self):
        s = "g(a, h(a, 1), {1, 2})"
        spans = text.split_top(s, 2, len(s) - 1)
        self.assertEqual([s[a:b].strip() for a, b in spans],
                         ["a", "h(a, 1)", "{1, 2}"])
        self.assertEqual(text.enclosing(s, s.index("1)")), s.index("h(") + 1)
        self.assertEqual(text.enclosing(s, s.index("2}")), s.index("{"))
        self.assertEqual(text.enclosing(s, 0), -1)

    def test_norm_and_postfix(self):
        self.assertEqual(text.norm(" &( (x . y) ) "), "x.y")
        s = "return a->b[c].d;"
        self.assertEqual(text.postfix_start(s, s.index(";")), s.index("a"))

    def test_lines(self):
        lines = ["#include <a.h>", "#ifdef X", "#include <b.h>", "#endif",
                 "#include \"c.h\""]
        self.assertEqual(text.top_includes(lines), [0, 4])
        self.assertEqual(text.line_of("a\nb\nc", 4), 3)
        t = "x;\n/* one */\nint f;\n"
        self.assertEqual(text.decl_start(t, t.index("int")), 3)


if __name__ == "__main__":
    unittest.main()
