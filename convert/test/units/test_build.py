# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/build.py: the compiler's messages, and what
the report makes of an original's and an output's compile."""

import unittest

from iterconv.build import diagnostics, verdict

LOG = """  CC [M]  /tmp/x/a.c
/tmp/x/a.c: In function 'f':
/tmp/x/a.c:12:5: error: implicit declaration of function 'g'
a.c:3:1: warning: no previous prototype for 'h' [-Wmissing-prototypes]
/tmp/x/b.c:8:10: fatal error: linux/no.h: No such file or directory
/tmp/x/other.c:1:1: error: not ours
"""


class Build(unittest.TestCase):
    def test_diagnostics(self):
        d = diagnostics(LOG, "/tmp/x", {"a.c": "drv/a.c", "b.c": "b.c"})
        self.assertEqual(d["drv/a.c"], [
            ("error", "drv/a.c:12: error: implicit declaration of "
             "function 'g'"),
            ("warning", "drv/a.c:3: warning: no previous prototype for "
             "'h' [-Wmissing-prototypes]")])
        self.assertEqual(d["b.c"], [
            ("error", "b.c:8: error: linux/no.h: No such file or "
             "directory")])

    def test_verdict(self):
        warn = ("warning", "a.c:3: warning: unused variable 'x'")
        moved = ("warning", "a.c:9: warning: unused variable 'x'")
        new = ("warning", "a.c:4: warning: unused variable 'y'")
        err = ("error", "a.c:5: error: no 'g'")
        self.assertEqual(verdict((True, [warn]), (True, [moved])),
                         (["build: builds (W=1)"], False))
        lines, broke = verdict((True, []), (True, [new]))
        self.assertFalse(broke)
        self.assertEqual(lines[1], "build:   " + new[1])
        self.assertEqual(verdict((True, []), (False, [err])), (
            ["build: does not build, where the original does:",
             "build:   " + err[1]], True))
        lines, broke = verdict((False, [err]), (False, [err]))
        self.assertFalse(broke)
        self.assertIn("not checked", lines[0])


if __name__ == "__main__":
    unittest.main()
