# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/preproc.py: the preprocessor's conditions, and
where a name is defined."""

import unittest

from iterconv import preproc


class Conditions(unittest.TestCase):
    def lines(self, text):
        return dict(zip(text.split("\n"), preproc.conditions(text)))

    def test_atoms(self):
        self.assertEqual(preproc.cond_atoms("defined X && (Y > 1)"),
                         ("defined(X)", "Y > 1"))
        self.assertEqual(preproc.cond_atoms("(A || B) && defined(C)"),
                         ("A || B", "defined(C)"))
        self.assertEqual(preproc.cond_atoms("!(A && B)"), ("!(A && B)",))

    def test_branches(self):
        c = self.lines("#if A\nx;\n#elif defined(B)\ny;\n#else\nz;\n#endif\n"
                       "w;")
        self.assertEqual(c["x;"], ("A",))
        self.assertEqual(c["y;"], ("!A", "defined(B)"))
        self.assertEqual(c["z;"], ("!A", "!defined(B)"))
        self.assertEqual(c["w;"], ())

    def test_nested_ifndef(self):
        c = self.lines("#ifdef A\n#ifndef B\nx;\n#endif\n#endif")
        self.assertEqual(c["x;"], ("defined(A)", "!defined(B)"))

    def test_continuation(self):
        c = self.lines("#if defined(A) && \\\n    defined(B)\nx;\n#endif")
        self.assertEqual(c["x;"], ("defined(A)", "defined(B)"))

    def test_open_reparses(self):
        for atoms in [("defined(X)",), ("!defined(X)",),
                      ("defined(A)", "A || B")]:
            text = "%s\nx;\n#endif" % preproc.cond_open(atoms)
            self.assertEqual(self.lines(text)["x;"], atoms)


class Definitions(unittest.TestCase):
    CODE = ("#ifdef W\n"
            "static ssize_t w(struct file *f, const char *b, size_t n,\n"
            "\t\t loff_t *p)\n"
            "{\n\treturn n;\n}\n"
            "FOPS_WRITE_ITER_HELPER(w);\n"
            "#else\n"
            "#define w NULL\n"
            "#define w_iter_safe NULL\n"
            "#endif\n"
            "#define alias w\n"
            "#define fn(x) w\n"
            "DEBUGFS_ITER_SAFE(w_iter);\n"
            "static int u(void)\n{\n\treturn w(NULL, NULL, 0, NULL);\n}\n")

    def test_kinds(self):
        self.assertEqual(preproc.definitions(self.CODE, "w"),
                         [(2, "fn"), (9, "null")])
        self.assertEqual(preproc.definitions(self.CODE, "w_iter"),
                         [(7, "fn")])
        self.assertEqual(preproc.definitions(self.CODE, "w_iter_safe"),
                         [(10, "null"), (14, "fn")])
        self.assertEqual(preproc.definitions(self.CODE, "alias"),
                         [(12, "macro")])
        self.assertEqual(preproc.definitions(self.CODE, "fn"), [])


if __name__ == "__main__":
    unittest.main()
