# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/module.py (and file.py's parts that need no
spatch): which file defines what, the headers a module reads."""

import os
import tempfile
import unittest

from iterconv.module import Header, Module


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_defined(self):
        a = self.write("a.c", '#include "m.h"\nssize_t w(void)\n{\n}\n'
                       "static ssize_t r(void)\n{\n}\n")
        b = self.write("b.c", '#include "m.h"\n')
        h = self.write("m.h", "ssize_t w(void);\n")
        self.write("other.h", "")
        m = Module([a, b, h], "native")
        fa, fb = m.files
        fa.fns = {"w": {}, "r": {}}
        self.assertIs(m.defined(fb, "w"), fa)	# not static: b sees it
        self.assertIsNone(m.defined(fb, "r"))	# static: b can't
        self.assertIs(m.defined(fa, "r"), fa)
        self.assertTrue(fa.static("r"))
        self.assertFalse(fa.static("w"))
        self.assertIsInstance(m.headers[0], Header)
        self.assertEqual(m.local_headers(), [])	# m.h is given

    def test_env(self):
        a = self.write("a.c", "")
        f = Module([a], "native").files[0]
        f.fields = [{"ops": "o", "field": "write", "value": "w"}]
        f.reads, f.writes = {"r": "native"}, {"w": "wrap"}
        env = f.env()
        self.assertEqual((env["NATIVE_READ"], env["WRAP_WRITE"],
                          env["ITER_WRITE"], env["WRAP_READ"]),
                         ("r", "w", "w", ""))


if __name__ == "__main__":
    unittest.main()
